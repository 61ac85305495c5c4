// Unit tests for NuwaList (src/values/model.ts): a view over a backing array that APPEND extends in
// place when the list is the newest version over it, and copies otherwise — so every version a
// script holds stays exactly as it was built, whatever is appended to which version later.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { listOf, NuwaList, objectOf, toJson, type Value } from '../../../src/values/values.js';

describe('NuwaList', () => {
  it('holds its items: length, at, iteration and a fresh array', () => {
    const list = listOf([1, 'a', null]);
    expect(list.length).toBe(3);
    expect([list.at(0), list.at(1), list.at(2)]).toEqual([1, 'a', null]);
    expect([...list]).toEqual([1, 'a', null]);
    const copy = list.toArray();
    copy.push(9);
    expect([...list]).toEqual([1, 'a', null]);
  });

  it('knows its expanded totals: items and entries, characters of strings and keys, depth', () => {
    const inner = listOf(['ab', 'c']);
    const object = objectOf([['key', inner]]);
    expect([inner.totalItems, inner.totalChars, inner.depth]).toEqual([2, 3, 1]);
    expect([object.totalItems, object.totalChars, object.depth]).toEqual([3, 6, 2]);
    const outer = listOf([inner, inner, object, 5]);
    expect([outer.totalItems, outer.totalChars, outer.depth]).toEqual([4 + 2 + 2 + 3, 3 + 3 + 6, 3]);
    expect([NuwaList.empty().totalItems, NuwaList.empty().depth]).toEqual([0, 1]);
  });

  it('counts shared structure each time it appears, in constant work per construction', () => {
    let x: Value = listOf([1]);
    for (let i = 0; i < 18; i++) x = listOf([x, x]);
    // s(0) = 1, s(n) = 2 + 2 s(n-1) = 3 * 2^n - 2
    expect((x as NuwaList).totalItems).toBe(3 * 2 ** 18 - 2);
    expect((x as NuwaList).depth).toBe(19);
  });
});

describe('APPEND (NuwaList.append)', () => {
  it('returns a new list and leaves the original as it was', () => {
    const a = listOf([1, 2]);
    const b = a.append(3);
    expect([...a]).toEqual([1, 2]);
    expect([...b]).toEqual([1, 2, 3]);
    expect(b.totalItems).toBe(3);
  });

  it('keeps every version intact when older versions are appended to (copy on append to an older version)', () => {
    const a = listOf([1]);
    const b = a.append(2); // extends a's backing array in place
    const c = a.append(3); // a is no longer the newest version: copies
    const d = b.append(4);
    const e = b.append(5);
    expect([a, b, c, d, e].map((l) => [...l])).toEqual([[1], [1, 2], [1, 3], [1, 2, 4], [1, 2, 5]]);
  });

  it('appends a list as one item, counting its totals', () => {
    const inner = listOf(['xy']);
    const out = NuwaList.empty().append(inner).append(inner);
    expect(toJson(out)).toEqual([['xy'], ['xy']]);
    expect([out.totalItems, out.totalChars, out.depth]).toEqual([4, 4, 2]);
  });

  it('refuses to append past maxValueSize or maxStringLength, or deeper than 1,000 levels', () => {
    const limits = { maxValueSize: 3, maxStringLength: 4 };
    const full = listOf([1, 2, 3], limits);
    expect(() => full.append(4, limits)).toThrow(NuwaError);
    expect(() => listOf(['ab'], limits).append('abc', limits)).toThrow(/strings in the list would add up to 5 characters/);
    let deep: NuwaList = NuwaList.empty();
    for (let i = 1; i < 1000; i++) deep = NuwaList.empty().append(deep);
    expect(deep.depth).toBe(1000);
    expect(() => NuwaList.empty().append(deep)).toThrow(/nested deeper than 1000 levels/);
  });

  it('matches a model of immutable arrays for any sequence of appends to any version', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer()), { maxLength: 60 }), (steps) => {
        const versions: NuwaList[] = [NuwaList.empty()];
        const model: number[][] = [[]];
        for (const [pick, item] of steps) {
          const from = pick % versions.length;
          versions.push(versions[from]!.append(item));
          model.push([...model[from]!, item]);
        }
        expect(versions.map((v) => [...v])).toEqual(model);
        expect(versions.map((v) => v.totalItems)).toEqual(model.map((m) => m.length));
      }),
      { numRuns: 300 },
    );
  });
});
