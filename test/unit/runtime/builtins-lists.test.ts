// Unit tests for src/runtime/builtins.ts: the built-ins that build lists and text (JOIN, SPLIT,
// SLICE, SORT, REVERSE, UPPER/LOWER/TRIM, REPLACE, RANGE, SUM, GET, SET) called directly with a fake
// host, their FunctionArgumentErrors, and the limits on what built-ins build.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { BUILTINS } from '../../../src/runtime/builtins.js';
import { DEFAULT_VALUE_LIMITS, NuwaList, NuwaObject, toJson, type Value, type ValueLimits } from '../../../src/values/values.js';
import { argumentError, at, call, host, o, value } from '../../support/builtin-calls.js';

describe('JOIN', () => {
  it('joins the string forms of the items with the separator', () => {
    expect(call('JOIN', ['a', 'b', 'c'], ', ')).toBe('a, b, c');
    expect(call('JOIN', [1, 2.5, true, null, [1, 'x'], o({ k: 'v' })], '|')).toBe('1|2.5|true|null|[1,"x"]|{"k":"v"}');
    expect(call('JOIN', [], ',')).toBe('');
    expect(call('JOIN', ['only'], ',')).toBe('only');
    expect(call('JOIN', ['a', 'b'], '')).toBe('ab');
  });

  it('refuses a non-list or a non-string separator', () => {
    argumentError('JOIN', ['abc', ','], /^JOIN expects a list first, got string "abc"/);
    argumentError('JOIN', [['a'], 1], /^JOIN expects a separator string second, got number 1/);
  });
});

describe('SPLIT', () => {
  it('splits a string at each occurrence of the separator, as JavaScript does', () => {
    expect(call('SPLIT', 'a,b,,c', ',')).toEqual(['a', 'b', '', 'c']);
    expect(call('SPLIT', 'a, b', ', ')).toEqual(['a', 'b']);
    expect(call('SPLIT', '', ',')).toEqual(['']);
    expect(call('SPLIT', 'abc', ';')).toEqual(['abc']);
    expect(call('SPLIT', ',a,', ',')).toEqual(['', 'a', '']);
  });

  it('refuses an empty separator and non-strings', () => {
    argumentError('SPLIT', ['abc', ''], /^SPLIT expects a non-empty separator string second, got an empty string/);
    argumentError('SPLIT', [['a'], ','], /^SPLIT expects a string first, got list of 1 item/);
    argumentError('SPLIT', ['a', null], /^SPLIT expects a non-empty separator string second, got null/);
  });
});

describe('SLICE', () => {
  it('takes part of a list as JavaScript slice does', () => {
    expect(call('SLICE', [1, 2, 3, 4], 1)).toEqual([2, 3, 4]);
    expect(call('SLICE', [1, 2, 3, 4], 1, 3)).toEqual([2, 3]);
    expect(call('SLICE', [1, 2, 3, 4], -2)).toEqual([3, 4]);
    expect(call('SLICE', [1, 2, 3, 4], 0, -1)).toEqual([1, 2, 3]);
    expect(call('SLICE', [1, 2, 3], 5)).toEqual([]);
    expect(call('SLICE', [1, 2, 3], 2, 1)).toEqual([]);
    expect(call('SLICE', [1, 2, 3], -10, 10)).toEqual([1, 2, 3]);
    expect(call('SLICE', [1, 2, 3], 1.9)).toEqual([2, 3]); // fractions truncate, as in JavaScript
  });

  it('takes part of a string in UTF-16 units', () => {
    expect(call('SLICE', 'hello', 1, 3)).toBe('el');
    expect(call('SLICE', 'hello', -3)).toBe('llo');
    expect(call('SLICE', 'hello', 10)).toBe('');
  });

  it('refuses other values and non-number indexes', () => {
    argumentError('SLICE', [o({}), 0], /^SLICE expects a list or string first, got empty object/);
    argumentError('SLICE', [[1], '1'], /^SLICE expects a start index second, got string "1"/);
    argumentError('SLICE', ['abc', 0, null], /^SLICE expects an end index third, got null/);
  });
});

describe('SORT', () => {
  it('sorts numbers numerically and strings by code units', () => {
    expect(call('SORT', [10, 9, -1, 2.5])).toEqual([-1, 2.5, 9, 10]);
    expect(call('SORT', ['b', 'B', 'a', 'é', 'Z'])).toEqual(['B', 'Z', 'a', 'b', 'é']);
    expect(call('SORT', [])).toEqual([]);
  });

  it('sorts objects by a key, keeping the order of equal keys (stable)', () => {
    const items = [o({ n: 'x', p: 3 }), o({ n: 'y', p: 1 }), o({ n: 'z', p: 3 }), o({ n: 'w', p: 1 })];
    expect((call('SORT', items, 'p') as Array<{ n: string }>).map((i) => i.n)).toEqual(['y', 'w', 'x', 'z']);
    expect((call('SORT', items, 'n') as Array<{ n: string }>).map((i) => i.n)).toEqual(['w', 'x', 'y', 'z']);
  });

  it('is stable without a key too (0 and -0 keep their order)', () => {
    const sorted = BUILTINS.get('SORT')!.call([value([0, -0, 0])], host(), at) as NuwaList;
    expect([...sorted].map((n) => Object.is(n, -0))).toEqual([false, true, false]);
  });

  it('leaves the original list unchanged', () => {
    const list = value([3, 1, 2]);
    BUILTINS.get('SORT')!.call([list], host(), at);
    expect(toJson(list)).toEqual([3, 1, 2]);
  });

  it('refuses a mix of numbers and strings, naming both', () => {
    argumentError('SORT', [[1, 'a']], /^SORT cannot order a mix of numbers and strings: item 0 is number 1 but item 1 is string "a"; convert them with NUMBER/);
    argumentError('SORT', [[o({ p: 1 }), o({ p: '2' })], 'p'], /item 0's "p" is number 1 but item 1's "p" is string "2"/);
  });

  it('refuses items that are not numbers or strings, and says how to sort objects', () => {
    argumentError('SORT', [[1, null]], /^SORT sorts numbers or strings, but item 1 is null/);
    argumentError('SORT', [[o({ a: 1 })]], /item 0 is object with keys a: to sort objects, name the key to sort by, e\.g\. SORT\(items, "price"\)/);
    argumentError('SORT', [[o({ p: [1] })], 'p'], /item 0's "p" is list of 1 item/);
  });

  it('with a key: refuses non-objects and objects without the key', () => {
    argumentError('SORT', [[o({ p: 1 }), 5], 'p'], /^SORT with a key sorts a list of objects, but item 1 is number 5/);
    argumentError('SORT', [[o({ p: 1 }), o({ q: 2 })], 'p'], /^SORT by "p": item 1 has no key "p" \(its keys: q\)/);
    argumentError('SORT', [[o({ p: 1 })], 1], /^SORT expects the key to sort by \(a string\) second, got number 1/);
    argumentError('SORT', ['abc'], /^SORT expects a list first, got string "abc"/);
  });
});

describe('REVERSE', () => {
  it('reverses a list into a new one', () => {
    const list = value([1, 2, 3]);
    expect(toJson(BUILTINS.get('REVERSE')!.call([list], host(), at))).toEqual([3, 2, 1]);
    expect(toJson(list)).toEqual([1, 2, 3]);
    expect(call('REVERSE', [])).toEqual([]);
  });

  it('refuses a string (it reverses lists only)', () => {
    argumentError('REVERSE', ['abc'], /^REVERSE expects a list, got string "abc"/);
  });
});

describe('UPPER, LOWER, TRIM', () => {
  it('convert case as JavaScript does, independent of the locale', () => {
    expect([call('UPPER', 'abc é ß'), call('LOWER', 'ÀBC İ')]).toEqual(['ABC É SS', 'àbc i̇']);
  });

  it('trim white space (spaces, tabs, line breaks, Unicode spaces) at both ends only', () => {
    expect(call('TRIM', ' \t\n a b \u00a0\u2003\r\n')).toBe('a b');
    expect(call('TRIM', '')).toBe('');
  });

  it('refuse non-strings', () => {
    argumentError('UPPER', [1], /^UPPER expects a string, got number 1/);
    argumentError('LOWER', [null], /^LOWER expects a string, got null/);
    argumentError('TRIM', [['a']], /^TRIM expects a string, got list of 1 item/);
  });
});

describe('REPLACE', () => {
  it('replaces every occurrence, literally', () => {
    expect(call('REPLACE', 'a-b-c', '-', '+')).toBe('a+b+c');
    expect(call('REPLACE', 'aaa', 'aa', 'b')).toBe('ba');
    expect(call('REPLACE', 'a.b', '.', '$&$1$$')).toBe('a$&$1$$b'); // no regular expressions, no $ patterns
    expect(call('REPLACE', 'abc', 'x', 'y')).toBe('abc');
    expect(call('REPLACE', 'abc', 'b', '')).toBe('ac');
  });

  it('refuses an empty string to find, and non-strings', () => {
    argumentError('REPLACE', ['abc', '', 'x'], /^REPLACE expects a non-empty string to find second, got an empty string/);
    argumentError('REPLACE', [1, 'a', 'b'], /^REPLACE expects a string first, got number 1/);
    argumentError('REPLACE', ['a', 'a', 1], /^REPLACE expects a replacement string third, got number 1/);
  });
});

describe('RANGE', () => {
  it('lists whole numbers from 0, or from start, up to but not including the end', () => {
    expect(call('RANGE', 4)).toEqual([0, 1, 2, 3]);
    expect(call('RANGE', 2, 5)).toEqual([2, 3, 4]);
    expect(call('RANGE', -2, 1)).toEqual([-2, -1, 0]);
    expect(call('RANGE', 0)).toEqual([]);
    expect(call('RANGE', -3)).toEqual([]);
    expect(call('RANGE', 5, 2)).toEqual([]);
  });

  it('refuses non-integers', () => {
    argumentError('RANGE', [2.5], /^RANGE expects a whole number n, got 2\.5/);
    argumentError('RANGE', ['3'], /^RANGE expects a whole number n, got string "3"/);
    argumentError('RANGE', [0, 1e300], /^RANGE expects a whole number end, got 1e\+300/);
  });
});

describe('SUM', () => {
  it('adds a list of numbers left to right, as a loop would; 0 for an empty list', () => {
    expect(call('SUM', [1, 2, 3.5])).toBe(6.5);
    expect(call('SUM', [])).toBe(0);
    expect(call('SUM', [0.1, 0.2])).toBe(0.1 + 0.2);
    expect(call('SUM', [-1, 1])).toBe(0);
    expect(Object.is(call('SUM', [-0]), 0)).toBe(true);
  });

  it('refuses anything but a list of numbers, naming the item at fault and the fix', () => {
    argumentError('SUM', [[1, '2', 3]], /^SUM adds numbers, but item 1 is string "2": convert text with NUMBER: write SUM\(\[NUMBER\(s\) FOR s IN items\]\)/);
    argumentError('SUM', [[1, o({ price: 2 })]], /^SUM adds numbers, but item 1 is object with keys price: to add a field of objects, write SUM\(\[o\.price FOR o IN items\]\)/);
    argumentError('SUM', [[null]], /^SUM adds numbers, but item 0 is null \(usage/);
    argumentError('SUM', [[[1]]], /^SUM adds numbers, but item 0 is list of 1 item/);
    argumentError('SUM', [3], /^SUM adds the numbers of one list, got number 3: write SUM\(\[a, b, \.\.\.\]\), or a \+ b/);
    argumentError('SUM', ['12'], /^SUM expects a list of numbers, got string "12"/);
    argumentError('SUM', [o({ a: 1 })], /^SUM expects a list of numbers, got object/);
  });

  it('raises TypeError when the sum overflows', () => {
    expect(() => call('SUM', [1e308, 1e308])).toThrow(expect.objectContaining({ kind: 'TypeError', message: 'the sum is too large to be a number (overflow)', line: 3 }));
  });
});

describe('GET', () => {
  it('reads the entry a string key names, or the default when it is missing', () => {
    const counts = o({ a: 2, b: null });
    expect(call('GET', counts, 'a')).toBe(2);
    expect(call('GET', counts, 'c', 0)).toBe(0);
    expect(call('GET', counts, 'a', 0)).toBe(2);
    expect(call('GET', o({}), 'x', [1])).toEqual([1]);
  });

  it('yields null for a key present with null, default or not', () => {
    expect(call('GET', o({ b: null }), 'b')).toBeNull();
    expect(call('GET', o({ b: null }), 'b', 5)).toBeNull();
  });

  it('treats keys as data: __proto__, constructor and toString are keys like any other', () => {
    const odd = o([['__proto__', 1], ['constructor', 2]]);
    expect(call('GET', odd, '__proto__')).toBe(1);
    expect(call('GET', odd, 'constructor')).toBe(2);
    expect(call('GET', odd, 'toString', 'none')).toBe('none');
    expect(call('GET', o({}), '__proto__', 'none')).toBe('none');
  });

  it('raises MemberAccessError for a missing key without a default, with the keys that exist and the fix', () => {
    let caught: unknown;
    try {
      call('GET', o({ apple: 1, pear: 2 }), 'aple');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NuwaError);
    expect((caught as NuwaError).kind).toBe('MemberAccessError');
    expect((caught as NuwaError).message).toBe('the object has no key "aple": did you mean `apple`? (its keys: apple, pear): give GET a default for a missing key, e.g. GET(obj, key, 0)');
    expect([(caught as NuwaError).line, (caught as NuwaError).column]).toEqual([3, 7]);
    expect(() => call('GET', o({}), 'x')).toThrow(/\(its keys: none\)/);
  });

  it('refuses a non-object, and a key that is not a string', () => {
    argumentError('GET', [[1, 2], 0], /^GET reads an entry of an object, got list of 2 items: for an item of a list write list\[index\]/);
    argumentError('GET', ['abc', 'a'], /^GET expects an object first, got string "abc"/);
    argumentError('GET', [null, 'a', 1], /^GET expects an object first, got null/);
    argumentError('GET', [o({ 1: 'x' }), 1], /^GET expects a string key second, got number 1/);
  });
});

describe('SET', () => {
  it('makes a new object with the entry set, leaving the original unchanged', () => {
    const original = value(o({ a: 1, b: 2 }));
    const out = BUILTINS.get('SET')!.call([original, 'a', 5], host(), at);
    expect(toJson(out)).toEqual({ a: 5, b: 2 });
    expect(toJson(original)).toEqual({ a: 1, b: 2 });
    expect(out).not.toBe(original);
    // an existing key keeps its place; a new one comes last
    expect(Object.keys(call('SET', o({ a: 1, b: 2 }), 'a', 0) as object)).toEqual(['a', 'b']);
    expect(call('SET', o({ a: 1 }), 'c', [1, null])).toEqual({ a: 1, c: [1, null] });
    expect(call('SET', o({}), 'n', null)).toEqual({ n: null });
  });

  it('treats keys as data: __proto__ and constructor are set as entries', () => {
    const out = BUILTINS.get('SET')!.call([BUILTINS.get('SET')!.call([value(o({})), '__proto__', 1], host(), at), 'constructor', 2], host(), at) as NuwaObject;
    expect([...out]).toEqual([['__proto__', 1], ['constructor', 2]]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('counts by a key held in a variable, as LANGUAGE.md §8 shows', () => {
    let counts: Value = value(o({}));
    const get = BUILTINS.get('GET')!;
    const set = BUILTINS.get('SET')!;
    for (const label of ['a', 'b', 'a']) counts = set.call([counts, label, (get.call([counts, label, 0], host(), at) as number) + 1], host(), at);
    expect(toJson(counts)).toEqual({ a: 2, b: 1 });
  });

  it('refuses a non-object, and a key that is not a string', () => {
    argumentError('SET', [[1], 0, 2], /^SET sets an entry of an object, got list of 1 item: to change a list build a new one/);
    argumentError('SET', [5, 'a', 1], /^SET expects an object first, got number 5/);
    argumentError('SET', [o({}), null, 1], /^SET expects a string key second, got null/);
  });
});

describe('limits on what built-ins build', () => {
  const small: ValueLimits = { maxValueSize: 10, maxStringLength: 20 };

  /** The error; positioned at the call unless it comes from the string form (the evaluator positions those). */
  function limitError(name: string, args: unknown[], message: RegExp): NuwaError {
    try {
      BUILTINS.get(name)!.call(args.map(value), host(small), at);
    } catch (error) {
      if (!(error instanceof NuwaError)) throw error;
      expect(error.kind).toBe('LimitExceededError');
      expect(error.message).toMatch(message);
      if (!/string form/.test(error.message)) expect([error.line, error.column]).toEqual([3, 7]);
      return error;
    }
    throw new Error(`expected ${name} to exceed a limit`);
  }

  it('refuses strings longer than maxStringLength, before building them where the length is known', () => {
    limitError('FORMAT', ['{a}{a}{a}', o({ a: 'x'.repeat(7) })], /the text FORMAT builds would be 21 characters long, more than maxStringLength \(20\)/);
    limitError('JOIN', [['x'.repeat(10), 'y'.repeat(10)], '-'], /the text JOIN builds would be 21 characters long/);
    limitError('REPLACE', ['aaaaaaaaaa', 'a', 'bbb'], /the text REPLACE builds would be 30 characters long/);
    limitError('UPPER', ['ß'.repeat(11)], /the text UPPER builds would be 22 characters long/);
    limitError('STR', [['x'.repeat(10), 'y'.repeat(8)]], /the string form of the value would be longer than maxStringLength \(20 characters\)/);
    limitError('PRINT', [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]], /string form .* maxStringLength \(20/);
  });

  it('refuses lists over maxValueSize', () => {
    limitError('RANGE', [11], /RANGE\(11\) would hold 11 items, more than maxValueSize \(10\)/);
    limitError('RANGE', [-1e15, 1e15], /RANGE\(-1000000000000000, 1000000000000000\) would hold 2000000000000000 items/);
    limitError('SPLIT', ['a,a,a,a,a,a,a,a,a,a,a', ','], /the list would hold 11 items and entries/);
    limitError('APPEND', [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0], /the list would hold 11 items/);
    limitError('APPEND', [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], /the list would hold 11 items/);
  });

  it('refuses objects over the limits from SET', () => {
    limitError('SET', [o({ a: [1, 2, 3, 4, 5] }), 'b', [1, 2, 3, 4]], /the object would hold 11 items and entries/);
    limitError('SET', [o({ a: 'x'.repeat(15) }), 'b', 'y'.repeat(4)], /the strings in the object would add up to 21 characters/);
  });

  it('build exactly up to the limits', () => {
    const h = host(small);
    expect(toJson(BUILTINS.get('RANGE')!.call([10], h, at))).toHaveLength(10);
    expect(BUILTINS.get('FORMAT')!.call(['{a}{a}', value(o({ a: 'x'.repeat(10) }))], h, at)).toHaveLength(20);
    expect(BUILTINS.get('SPLIT')!.call(['a,a,a,a,a,a,a,a,a,a', ','], h, at)).toHaveLength(10);
  });

  it('report long work to the clock, which may stop them', () => {
    let charged = 0;
    const clock: ValueLimits = { ...DEFAULT_VALUE_LIMITS, charge: (units) => void (charged += units) };
    BUILTINS.get('SORT')!.call([value(Array.from({ length: 5000 }, (_, i) => 5000 - i))], host(clock), at);
    expect(charged).toBeGreaterThan(0);
    const stop: ValueLimits = { ...DEFAULT_VALUE_LIMITS, charge: () => { throw new NuwaError('LimitExceededError', 'the run took longer than timeoutMs (1 ms)'); } };
    expect(() => BUILTINS.get('SORT')!.call([value(Array.from({ length: 5000 }, (_, i) => i))], host(stop), at)).toThrow(/timeoutMs/);
    expect(() => BUILTINS.get('STR')!.call([value(Array.from({ length: 5000 }, (_, i) => i))], host(stop), at)).toThrow(/timeoutMs/);
    expect(() => BUILTINS.get('RANGE')!.call([5000], host(stop), at)).toThrow(/timeoutMs/);
  });
});

