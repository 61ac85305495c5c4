// Property-based tests (fast-check) over values with shared structure: values built from a pool in
// which each new list or object may hold earlier ones any number of times, as `LET x = [x, x]`
// does. Their recorded totals must be those of the expanded JSON, equality and printing must agree
// with the expanded JSON, and the limits must refuse exactly the values over them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import type { JsonValue } from '../../../src/values/json.js';
import { equals, fromJson, NuwaList, NuwaObject, toJson, toJsonText, type Value } from '../../../src/values/values.js';

type Step = { kind: 'list' | 'object'; picks: Array<number | string | boolean | null | { ref: number }> };

const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null));
const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('list' as const, 'object' as const),
  picks: fc.array(fc.oneof(scalar, fc.record({ ref: fc.nat() })), { maxLength: 3 }),
});
/** A program that builds values from a pool; each step may pick earlier values (shared, not copied). */
const program = fc.array(step, { minLength: 1, maxLength: 9 });

function build(steps: Step[]): Value[] {
  const pool: Value[] = [];
  const keys = ['a', 'b', 'c', '__proto__'];
  for (const { kind, picks } of steps) {
    const parts = picks.map((p) => (p !== null && typeof p === 'object' ? (pool.length ? pool[p.ref % pool.length]! : null) : p));
    if (kind === 'list') pool.push(NuwaList.from(parts, { maxValueSize: Infinity, maxStringLength: Infinity }));
    else {
      const object = new NuwaObject();
      parts.forEach((part, i) => object.set(keys[i % keys.length]!, part));
      pool.push(object.seal({ maxValueSize: Infinity, maxStringLength: Infinity }));
    }
  }
  return pool;
}

/** Items and entries, characters and depth of a plain JSON value, by walking it. */
function measure(json: JsonValue): { items: number; chars: number; depth: number } {
  if (typeof json === 'string') return { items: 0, chars: json.length, depth: 0 };
  if (json === null || typeof json !== 'object') return { items: 0, chars: 0, depth: 0 };
  const entries: Array<[string, JsonValue]> = Array.isArray(json) ? json.map((v) => ['', v]) : Object.entries(json);
  const total = { items: entries.length, chars: 0, depth: 1 };
  for (const [key, value] of entries) {
    const inner = measure(value);
    total.items += inner.items;
    total.chars += key.length + inner.chars;
    total.depth = Math.max(total.depth, inner.depth + 1);
  }
  return total;
}

/** JSON text with object keys sorted: equal for values that `equals` calls equal. */
function canonical(json: JsonValue): string {
  if (json === null || typeof json !== 'object') return JSON.stringify(json);
  if (Array.isArray(json)) return `[${json.map(canonical).join(',')}]`;
  return `{${Object.keys(json).sort().map((k) => `${JSON.stringify(k)}:${canonical(json[k]!)}`).join(',')}}`;
}

describe('values with shared structure', () => {
  it('record the totals of their expansion', () => {
    fc.assert(
      fc.property(program, (steps) => {
        for (const value of build(steps)) {
          const { items, chars, depth } = measure(toJson(value));
          const compound = value as NuwaList | NuwaObject;
          expect([compound.totalItems, compound.totalChars, compound.depth]).toEqual([items, chars, depth]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('print as the expanded JSON, and come back from it equal and with the same totals', () => {
    fc.assert(
      fc.property(program, (steps) => {
        for (const value of build(steps)) {
          const json = toJson(value);
          expect(toJsonText(value)).toBe(JSON.stringify(json));
          const back = fromJson(json) as NuwaList | NuwaObject;
          expect(equals(back, value)).toBe(true);
          expect([back.totalItems, back.totalChars, back.depth]).toEqual([(value as NuwaList).totalItems, (value as NuwaList).totalChars, (value as NuwaList).depth]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('are equal exactly when their expansions are (object key order aside)', () => {
    fc.assert(
      fc.property(program, program, (first, second) => {
        const values = [...build(first), ...build(second)];
        for (const a of values) {
          for (const b of values) expect(equals(a, b)).toBe(canonical(toJson(a)) === canonical(toJson(b)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('are refused by a limit exactly when they are over it', () => {
    fc.assert(
      fc.property(program, fc.nat({ max: 40 }), fc.nat({ max: 40 }), (steps, maxValueSize, maxStringLength) => {
        const value = build(steps).at(-1)!;
        const { items, chars } = measure(toJson(value));
        const limits = { maxValueSize, maxStringLength };
        const within = items <= maxValueSize && chars <= maxStringLength;
        // Rebuilding the same value under the limits: as a list around it, and from its JSON.
        const wrapped = () => NuwaList.from([value], limits);
        const converted = () => fromJson(toJson(value), limits);
        if (items + 1 <= maxValueSize && chars <= maxStringLength) expect(wrapped).not.toThrow();
        else expect(wrapped).toThrow(NuwaError);
        if (within) expect(converted).not.toThrow();
        else expect(converted).toThrow(NuwaError);
      }),
      { numRuns: 400 },
    );
  });
});
