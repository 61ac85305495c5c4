// Unit tests for src/runtime/scope.ts: LET semantics (update the nearest binding, else bind here),
// the loop-variable slot, and the switch from small arrays to a Map past eight names.
import { describe, expect, it } from 'vitest';
import { Scope } from '../../../src/runtime/scope.js';
import { listOf, type Value } from '../../../src/values/values.js';

describe('Scope', () => {
  it('binds a new name in the current scope', () => {
    const top = new Scope(null);
    top.assign('a', 1);
    expect(top.lookup('a')).toBe(1);
    expect(top.entries()).toEqual([['a', 1]]);
  });

  it('returns undefined for an unbound name and null for a name bound to null', () => {
    const top = new Scope(null);
    expect(top.lookup('missing')).toBeUndefined();
    top.assign('n', null);
    expect(top.lookup('n')).toBeNull();
  });

  it('finds names in enclosing scopes', () => {
    const top = new Scope(null);
    top.assign('a', 'outer');
    const inner = new Scope(new Scope(top));
    expect(inner.lookup('a')).toBe('outer');
    expect(inner.parent!.parent).toBe(top);
  });

  it('updates the nearest existing binding instead of creating one', () => {
    const top = new Scope(null);
    top.assign('total', 0);
    const loop = new Scope(top, 'x', 5);
    loop.assign('total', 5);
    expect(top.lookup('total')).toBe(5);
    expect(loop.entries()).toEqual([['x', 5]]);
  });

  it('updates the nearest of two bindings of the same name', () => {
    const top = new Scope(null);
    top.assign('x', 'top');
    const loop = new Scope(top, 'x', 'loop');
    loop.assign('x', 'changed');
    expect(loop.lookup('x')).toBe('changed');
    expect(top.lookup('x')).toBe('top');
  });

  it('binds a name first set in a child scope in that child only', () => {
    const top = new Scope(null);
    const loop = new Scope(top, 'i', 0);
    loop.assign('fresh', true);
    expect(loop.lookup('fresh')).toBe(true);
    expect(top.lookup('fresh')).toBeUndefined();
    expect(top.entries()).toEqual([]);
  });

  it('holds the loop variable from the constructor, and a null loop value', () => {
    const list = listOf([1, 2]);
    expect(new Scope(null, 'item', list).entries()).toEqual([['item', list]]);
    const withNull = new Scope(null, 'item', null);
    expect(withNull.lookup('item')).toBeNull();
    expect(withNull.entries()).toEqual([['item', null]]);
    expect(new Scope(null).entries()).toEqual([]);
  });

  it('keeps every binding and their order when it grows past eight names', () => {
    const scope = new Scope(null, 'loop', 'L');
    const names = Array.from({ length: 20 }, (_, i) => `v${i}`);
    names.forEach((name, i) => {
      scope.assign(name, i);
      // Every earlier binding is still there after each addition (the switch happens at 9).
      expect(scope.lookup('loop')).toBe('L');
      for (let j = 0; j <= i; j++) expect(scope.lookup(names[j]!)).toBe(j);
    });
    expect(scope.entries()).toEqual([['loop', 'L'], ...names.map((n, i) => [n, i] as [string, Value])]);
  });

  it('updates and binds correctly after switching to a Map', () => {
    const top = new Scope(null);
    for (let i = 0; i < 12; i++) top.assign(`v${i}`, i);
    top.assign('v3', 'updated');
    top.assign('v11', 'last');
    expect(top.lookup('v3')).toBe('updated');
    expect(top.entries().map(([n]) => n)).toEqual(Array.from({ length: 12 }, (_, i) => `v${i}`));
    const child = new Scope(top);
    child.assign('v5', 'from child');
    expect(top.lookup('v5')).toBe('from child');
    expect(child.entries()).toEqual([]);
    expect(top.lookup('nope')).toBeUndefined();
  });

  it('updates in place at exactly eight names without switching', () => {
    const top = new Scope(null);
    for (let i = 0; i < 8; i++) top.assign(`v${i}`, i);
    top.assign('v0', 'again');
    expect(top.entries()).toEqual([['v0', 'again'], ...Array.from({ length: 7 }, (_, i) => [`v${i + 1}`, i + 1] as [string, Value])]);
  });

  it('lists the visible names nearest first, each once', () => {
    const top = new Scope(null);
    top.assign('x', 1);
    top.assign('y', 2);
    const loop = new Scope(top, 'x', 3);
    loop.assign('z', 4);
    expect(loop.visibleNames()).toEqual(['x', 'z', 'y']);
    expect(top.visibleNames()).toEqual(['x', 'y']);
  });
});

describe('the variables together are one value within the limits', () => {
  const limits = { maxValueSize: 10, maxStringLength: 8 };
  const list = (n: number) => listOf(Array.from({ length: n }, (_, i) => i));

  it('refuses a LET that would take the variables in reach past maxValueSize, and keeps the old binding', () => {
    const top = new Scope(null, null, null, limits);
    top.assign('a', list(6));
    expect(() => top.assign('b', list(5))).toThrow(/the script's variables together would hold 11 items and entries/);
    expect(top.lookup('b')).toBeUndefined();
    top.assign('b', list(4));
    expect(() => top.assign('b', list(5))).toThrow(/would hold 11 items/);
    expect((top.lookup('b') as { length: number }).length).toBe(4);
  });

  it('counts a shared value once per variable that holds it', () => {
    const top = new Scope(null, null, null, limits);
    const five = list(5);
    top.assign('a', five);
    top.assign('b', five);
    expect(() => top.assign('c', five)).toThrow(/would hold 15 items/);
  });

  it('frees the budget when a variable is rebound to something smaller', () => {
    const top = new Scope(null, null, null, limits);
    top.assign('a', list(8));
    top.assign('a', 0);
    top.assign('b', list(10));
    expect(() => top.assign('a', 'x')).not.toThrow();
  });

  it('counts characters of strings in the same way', () => {
    const top = new Scope(null, null, null, limits);
    top.assign('a', 'abcde');
    expect(() => top.assign('b', 'abcd')).toThrow(/the strings in the script's variables together would add up to 9 characters/);
  });

  it('counts the variables of enclosing scopes, and forgets those of a finished iteration', () => {
    const top = new Scope(null, null, null, limits);
    top.assign('outer', list(6));
    const first = new Scope(top, 'i', list(100)); // the loop variable is an item of the looped list: not counted
    expect(() => first.assign('inner', list(5))).toThrow(/would hold 11 items/);
    first.assign('inner', list(4));
    const second = new Scope(top, 'i', 1);
    expect(() => second.assign('inner', list(4))).not.toThrow();
  });

  it('counts a reassigned loop variable once, however often it is reassigned', () => {
    const top = new Scope(null, null, null, limits);
    const loop = new Scope(top, 'item', list(100));
    loop.assign('item', list(6));
    loop.assign('item', list(7));
    expect(() => loop.assign('other', list(4))).toThrow(/would hold 11 items/);
    const unlimited = new Scope(new Scope(null), 'item', 1); // a scope without limits at its top (CALC's own): no check
    expect(() => unlimited.assign('other', list(30))).not.toThrow();
  });

  it('counts the variables of an iteration however many it has (its totals kept once they are past eight)', () => {
    const top = new Scope(null, null, null, limits);
    const loop = new Scope(top, 'i', list(100));
    loop.assign('a', list(5));
    for (let n = 0; n < 8; n++) loop.assign(`v${n}`, n); // the ninth name moves them to a Map
    expect(() => loop.assign('b', list(6))).toThrow(/would hold 11 items/);
    loop.assign('b', list(5));
    loop.assign('a', 1); // gives its 5 items back
    expect(() => loop.assign('c', list(6))).toThrow(/would hold 11 items/);
    expect(() => loop.assign('c', list(5))).not.toThrow();
  });

  it('keeps a reassigned loop variable first among the names of its scope', () => {
    const loop = new Scope(new Scope(null), 'i', 1);
    loop.assign('x', 2);
    loop.assign('i', 3);
    expect(loop.entries()).toEqual([['i', 3], ['x', 2]]);
    expect(loop.lookup('i')).toBe(3);
  });

  it('keeps the order of the first name, the next ones and a reassigned loop variable, in small scopes and past eight names', () => {
    for (const count of [1, 2, 7, 8]) {
      const loop = new Scope(new Scope(null), 'i', 0);
      for (let n = 0; n < count; n++) loop.assign(`v${n}`, n);
      loop.assign('i', 'again');
      const names = ['i', ...Array.from({ length: count }, (_, n) => `v${n}`)];
      expect(loop.entries().map(([name]) => name)).toEqual(names);
      for (let n = 0; n < count; n++) expect(loop.lookup(`v${n}`)).toBe(n);
      loop.assign('v0', 'changed');
      expect(loop.lookup('v0')).toBe('changed');
      expect(loop.lookup('i')).toBe('again');
    }
  });

  it('counts the first name of a small scope against the limits, and forgets it when the scope is used again', () => {
    const top = new Scope(null, null, null, { maxValueSize: 10, maxStringLength: 1000 });
    const loop = Scope.ofItem(top, 'i', 0, 0);
    loop.assign('a', list(6));
    expect(() => loop.assign('b', list(5))).toThrow(/would hold 11 items/);
    loop.reset('i', 1, 1);
    expect(loop.lookup('a')).toBeUndefined();
    expect(() => loop.assign('b', list(5))).not.toThrow();
  });
});

