// Unit tests for src/values/values.ts: structural equality, the string form of LANGUAGE.md §2,
// descriptions for messages, and the JSON boundary (toJson / fromJson / copyJson). Sizes and limits
// are in limits.test.ts, lists and APPEND in list.test.ts.
import { describe as group, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import {
  copyJson,
  describe,
  equals,
  formatKeys,
  fromJson,
  listOf,
  MAX_VALUE_DEPTH,
  NotJsonError,
  NuwaList,
  NuwaObject,
  objectOf,
  setJsonKey,
  toDisplayString,
  toJson,
  toJsonText,
  typeName,
  type Value,
} from '../../../src/values/values.js';
import { thrownBy } from '../../support/thrown.js';

const obj = (entries: Record<string, Value> | Array<[string, Value]>): NuwaObject => objectOf(Array.isArray(entries) ? entries : Object.entries(entries));
const list = (...items: Value[]): NuwaList => listOf(items);
/** A value from JSON text-like data: lists and objects become NuwaLists and NuwaObjects. */
const v = (json: unknown): Value => fromJson(json);

/** A list nested `levels` deep: 1 → [], 2 → [[]], ... */
function nestedList(levels: number): Value {
  let value: Value = list();
  for (let i = 1; i < levels; i++) value = list(value);
  return value;
}

function nestedObject(levels: number): Value {
  let value: Value = obj({});
  for (let i = 1; i < levels; i++) value = obj({ a: value });
  return value;
}

function nestedPlain(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const notJson = (run: () => unknown): NotJsonError => thrownBy(run, NotJsonError);

const nuwaFailure = (run: () => unknown): NuwaError => thrownBy(run, NuwaError);

group('typeName', () => {
  it('names the six types', () => {
    expect([1, 'a', true, null, list(), obj({})].map((x) => typeName(x))).toEqual(['number', 'string', 'boolean', 'null', 'list', 'object']);
  });
});

group('equals', () => {
  it('compares scalars without coercion', () => {
    expect(equals(1, 1)).toBe(true);
    expect(equals('a', 'a')).toBe(true);
    expect(equals(null, null)).toBe(true);
    expect(equals(true, true)).toBe(true);
    expect(equals(1, '1')).toBe(false);
    expect(equals(0, false)).toBe(false);
    expect(equals(null, false)).toBe(false);
    expect(equals('', null)).toBe(false);
    expect(equals(1, true)).toBe(false);
  });

  it('compares lists element by element, deeply', () => {
    expect(equals(v([1, [2, [3]]]), v([1, [2, [3]]]))).toBe(true);
    expect(equals(v([1, [2, [3]]]), v([1, [2, [4]]]))).toBe(false);
    expect(equals(v([1, 2]), v([2, 1]))).toBe(false);
    expect(equals(v([1, 2]), v([1, 2, 3]))).toBe(false);
    expect(equals(list(), list())).toBe(true);
    expect(equals(v([1]), v(['1']))).toBe(false);
    expect(equals(v([null]), list())).toBe(false);
    expect(equals(v(['ab', 'c']), v(['a', 'bc']))).toBe(false);
  });

  it('compares objects by keys and values, whatever the key order', () => {
    expect(equals(obj({ a: 1, b: list(true) }), obj([['b', list(true)], ['a', 1]]))).toBe(true);
    expect(equals(obj({ a: 1 }), obj({ a: 1, b: 2 }))).toBe(false);
    expect(equals(obj({ a: 1, b: 2 }), obj({ a: 1 }))).toBe(false);
    expect(equals(obj({ a: 1 }), obj({ b: 1 }))).toBe(false);
    expect(equals(obj({ a: null }), obj({ b: null }))).toBe(false);
    expect(equals(v({ a: { x: [1] } }), v({ a: { x: [1] } }))).toBe(true);
    expect(equals(v({ a: { x: [1] } }), v({ a: { x: [2] } }))).toBe(false);
    expect(equals(obj({}), obj({}))).toBe(true);
  });

  it('never equates a list with an object', () => {
    expect(equals(list(), obj({}))).toBe(false);
    expect(equals(obj({}), list())).toBe(false);
  });

  it('compares values 1,000 levels deep', () => {
    expect(equals(nestedList(MAX_VALUE_DEPTH), nestedList(MAX_VALUE_DEPTH))).toBe(true);
    expect(equals(nestedObject(MAX_VALUE_DEPTH), nestedObject(MAX_VALUE_DEPTH))).toBe(true);
  });

  it('cannot meet a value deeper than 1,000 levels: such a value cannot be built (1,001 is refused, as fromJson and the lexer refuse it)', () => {
    const error = nuwaFailure(() => nestedList(MAX_VALUE_DEPTH + 1));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('value nested deeper than 1000 levels');
    expect(nuwaFailure(() => nestedObject(MAX_VALUE_DEPTH + 1)).kind).toBe('LimitExceededError');
  });

  it('compares shared structure without expanding it twice when both sides are the same value', () => {
    let x: Value = list(1);
    for (let i = 0; i < 17; i++) x = list(x, x); // 2^19 - 1 items, expanded
    expect(equals(x, x)).toBe(true);
    expect(equals(list(x, 1), list(x, 2))).toBe(false);
  });
});

group('toDisplayString', () => {
  it.each<[Value, string]>([
    ['abc', 'abc'],
    ['', ''],
    ['say "hi"', 'say "hi"'],
    [3, '3'],
    [0.1, '0.1'],
    [-2.5, '-2.5'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [123456789012, '123456789012'],
    [-0, '0'],
    [true, 'true'],
    [false, 'false'],
    [null, 'null'],
    [list(1, 'a', null), '[1,"a",null]'],
    [list(), '[]'],
    [obj({}), '{}'],
    [list(list(-0, 1e21)), '[[0,1e+21]]'],
  ])('%j → %s', (value, text) => {
    expect(toDisplayString(value)).toBe(text);
  });

  it('prints objects as compact JSON in insertion order', () => {
    expect(toDisplayString(obj({ a: 1, b: list(true) }))).toBe('{"a":1,"b":[true]}');
    expect(toDisplayString(obj([['z', 1], ['a', 2]]))).toBe('{"z":1,"a":2}');
  });

  it('keeps number-like keys in insertion order', () => {
    expect(toDisplayString(obj([['b', 1], ['2024', 2], ['1', 3]]))).toBe('{"b":1,"2024":2,"1":3}');
  });

  it('prints __proto__ and constructor as ordinary keys', () => {
    expect(toDisplayString(obj([['__proto__', 1], ['constructor', 2]]))).toBe('{"__proto__":1,"constructor":2}');
  });

  it('escapes strings inside lists and objects as JSON does', () => {
    expect(toDisplayString(list('a"b', 'line\nbreak', 'é'))).toBe('["a\\"b","line\\nbreak","é"]');
    expect(toDisplayString(obj({ 'key "q"': 'v' }))).toBe('{"key \\"q\\"":"v"}');
  });
});

group('toJsonText', () => {
  it('quotes strings, unlike the display form', () => {
    expect(toJsonText('abc')).toBe('"abc"');
    expect(toJsonText(1e21)).toBe('1e+21');
    expect(toJsonText(null)).toBe('null');
    expect(toJsonText(obj({ a: list(1, obj({ b: null })) }))).toBe('{"a":[1,{"b":null}]}');
  });

  it('writes values 1,000 levels deep', () => {
    expect(toJsonText(nestedList(MAX_VALUE_DEPTH))).toBe(`${'['.repeat(1000)}${']'.repeat(1000)}`);
  });

  it('writes objects 1,000 levels deep', () => {
    expect(toJsonText(nestedObject(MAX_VALUE_DEPTH))).toBe(`${'{"a":'.repeat(999)}{}${'}'.repeat(999)}`);
  });
});

group('describe', () => {
  it.each<[Value, string]>([
    ['abc', 'string "abc"'],
    ['a"b', 'string "a\\"b"'],
    [42, 'number 42'],
    [-0.5, 'number -0.5'],
    [true, 'boolean true'],
    [false, 'boolean false'],
    [null, 'null'],
    [list(), 'list of 0 items'],
    [list(1), 'list of 1 item'],
    [list(1, 2, 3), 'list of 3 items'],
    [obj({}), 'empty object'],
  ])('%j → %s', (value, text) => {
    expect(describe(value)).toBe(text);
  });

  it('shortens long strings', () => {
    expect(describe('x'.repeat(41))).toBe(`string "${'x'.repeat(37)}..."`);
    expect(describe('x'.repeat(40))).toBe(`string "${'x'.repeat(40)}"`);
  });

  it('names the keys of an object, at most 8', () => {
    expect(describe(obj({ a: 1, b: 2 }))).toBe('object with keys a, b');
    const many = obj(Array.from({ length: 10 }, (_, i) => [`k${i}`, i] as [string, Value]));
    expect(describe(many)).toBe('object with keys k0, k1, k2, k3, k4, k5, k6, k7, ... (10 in all)');
  });

  it('names the first keys of a huge object and counts them all', () => {
    const huge = obj(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i] as [string, Value]));
    expect(describe(huge)).toBe('object with keys k0, k1, k2, k3, k4, k5, k6, k7, ... (50000 in all)');
  });

  it('formatKeys takes a maximum, and the total when only some keys are given', () => {
    expect(formatKeys(['a', 'b', 'c'], 2)).toBe('a, b, ... (3 in all)');
    expect(formatKeys(['a', 'b', 'c'], 2, 40)).toBe('a, b, ... (40 in all)');
    expect(formatKeys(['a', 'b'], 2)).toBe('a, b');
    expect(formatKeys([])).toBe('');
  });
});

group('toJson', () => {
  it('turns Maps into plain objects and copies lists', () => {
    const items = list(1, obj({ a: 'x' }));
    const json = toJson(obj({ list: items, n: null }));
    expect(json).toEqual({ list: [1, { a: 'x' }], n: null });
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(Array.isArray((json as { list: unknown }).list)).toBe(true);
  });

  it('keeps scalars as they are', () => {
    expect([toJson('a'), toJson(1), toJson(true), toJson(null)]).toEqual(['a', 1, true, null]);
  });

  it('makes __proto__ an own property without changing the prototype', () => {
    const json = toJson(obj([['__proto__', obj({ polluted: true })], ['a', 1]])) as Record<string, unknown>;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(Object.hasOwn(json, '__proto__')).toBe(true);
    expect(Object.keys(json)).toEqual(['__proto__', 'a']);
    expect((json as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(json)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('converts 1,000 levels', () => {
    expect(() => toJson(nestedList(MAX_VALUE_DEPTH))).not.toThrow();
    expect(JSON.stringify(toJson(nestedObject(MAX_VALUE_DEPTH)))).toBe(`${'{"a":'.repeat(999)}{}${'}'.repeat(999)}`);
  });

  it('expands shared structure into independent copies', () => {
    const shared = obj({ n: 1 });
    const json = toJson(list(shared, shared)) as Array<Record<string, unknown>>;
    expect(json).toEqual([{ n: 1 }, { n: 1 }]);
    expect(json[0]).not.toBe(json[1]);
  });
});

group('fromJson', () => {
  it('turns plain objects into Maps, keeping key order', () => {
    const value = fromJson({ b: 1, a: [true, null, { c: 'x' }] });
    expect(value).toBeInstanceOf(NuwaObject);
    expect(equals(value, obj([['b', 1], ['a', list(true, null, obj({ c: 'x' }))]]))).toBe(true);
    expect([...(value as NuwaObject).keys()]).toEqual(['b', 'a']);
    expect((value as NuwaObject).get('a')).toBeInstanceOf(NuwaList);
  });

  it('accepts scalars and turns undefined into null', () => {
    expect([fromJson('s'), fromJson(0), fromJson(false), fromJson(null), fromJson(undefined)]).toEqual(['s', 0, false, null, null]);
  });

  it('drops undefined properties and turns undefined list items into null', () => {
    expect(toJsonText(fromJson({ a: undefined, b: 1 }))).toBe('{"b":1}');
    expect(toJsonText(fromJson([undefined, 1, , 2]))).toBe('[null,1,null,2]');
  });

  it('accepts objects without a prototype', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.x = 1;
    expect(toJsonText(fromJson(bare))).toBe('{"x":1}');
  });

  it('keeps __proto__ from parsed JSON as an ordinary key', () => {
    const value = fromJson(JSON.parse('{"__proto__": {"x": 1}, "y": 2}')) as NuwaObject;
    expect([...value.keys()]).toEqual(['__proto__', 'y']);
    expect(equals(value.get('__proto__')!, obj({ x: 1 }))).toBe(true);
  });

  it('accepts a value shared twice (not a cycle)', () => {
    const shared = { n: 1 };
    expect(toJsonText(fromJson({ a: shared, b: [shared, shared] }))).toBe('{"a":{"n":1},"b":[{"n":1},{"n":1}]}');
  });

  class Money {
    amount = 1;
  }

  it.each<[string, unknown, RegExp]>([
    ['a Date', new Date(0), /^the value is a Date, which is not a JSON value/],
    ['a Map', new Map(), /^the value is a Map, which is not a JSON value/],
    ['a Set', new Set(), /^the value is a Set, which is not a JSON value/],
    ['a class instance', new Money(), /^the value is a Money, which is not a JSON value/],
    ['NaN', NaN, /^the value is NaN, which is not a JSON number/],
    ['Infinity', Infinity, /^the value is Infinity, which is not a JSON number/],
    ['-Infinity', -Infinity, /^the value is -Infinity, which is not a JSON number/],
    ['a BigInt', 10n, /^the value is a BigInt, which is not a JSON value/],
    ['a function', () => 1, /^the value is a function, which is not a JSON value/],
    ['a symbol', Symbol('s'), /^the value is a symbol, which is not a JSON value/],
  ])('refuses %s', (_name, input, message) => {
    const error = notJson(() => fromJson(input));
    expect(error.path).toBe('');
    expect(error.message).toMatch(message);
  });

  it('names the path of the bad value', () => {
    const error = notJson(() => fromJson({ items: [{}, {}, { when: new Date(0) }] }));
    expect(error.path).toBe('items[2].when');
    expect(error.message).toMatch(/^items\[2\]\.when is a Date, which is not a JSON value/);
  });

  it('quotes path keys that are not names', () => {
    expect(notJson(() => fromJson({ 'first name': [NaN] })).message).toMatch(/^\["first name"\]\[0\] is NaN/);
    expect(notJson(() => fromJson([{ ok: { 'a-b': 1n } }])).path).toBe('[0].ok["a-b"]');
  });

  it('refuses cycles and says where', () => {
    const root: Record<string, unknown> = { a: { b: [] as unknown[] } };
    ((root.a as { b: unknown[] }).b).push(root);
    const error = notJson(() => fromJson(root));
    expect(error.path).toBe('a.b[0]');
    expect(error.message).toMatch(/^a\.b\[0\] contains a cycle/);
    const list: unknown[] = [];
    list.push(list);
    expect(notJson(() => fromJson(list)).message).toMatch(/^\[0\] contains a cycle/);
  });

  it('accepts 1,000 levels of nesting and refuses 1,001', () => {
    expect(toJsonText(fromJson(nestedPlain(MAX_VALUE_DEPTH)))).toBe(`${'['.repeat(1000)}${']'.repeat(1000)}`);
    const error = notJson(() => fromJson(nestedPlain(MAX_VALUE_DEPTH + 1)));
    expect(error.message).toMatch(/nests deeper than 1000 levels$/);
    expect(error.path).toBe('[0]'.repeat(1000));
  });

  it('is a NotJsonError with the path and the problem apart', () => {
    const error = notJson(() => fromJson({ n: NaN }));
    expect(error).toBeInstanceOf(Error);
    expect(error.path).toBe('n');
    expect(error.problem).toBe('is NaN, which is not a JSON number');
  });
});

group('copyJson', () => {
  it('makes an independent plain copy', () => {
    const input = { a: [1, { b: 'x' }], c: null };
    const copy = copyJson(input) as typeof input;
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.a).not.toBe(input.a);
    expect(copy.a[1]).not.toBe(input.a[1]);
    expect(copy.a[1]).not.toBeInstanceOf(Map);
  });

  it('drops undefined properties and turns undefined items into null', () => {
    expect(copyJson({ a: undefined, b: [undefined] })).toEqual({ b: [null] });
    expect(Object.keys(copyJson({ a: undefined, b: 1 }) as object)).toEqual(['b']);
  });

  it('keeps __proto__ as an own property and leaves the prototype alone', () => {
    const copy = copyJson(JSON.parse('{"__proto__": {"admin": true}}')) as Record<string, unknown>;
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { admin?: unknown }).admin).toBeUndefined();
  });

  it('refuses what fromJson refuses, with the path', () => {
    expect(notJson(() => copyJson({ list: [1, Infinity] })).message).toMatch(/^list\[1\] is Infinity/);
    expect(notJson(() => copyJson({ when: new Date(0) })).path).toBe('when');
  });
});

group('round trips', () => {
  it('fromJson ∘ toJson and toJson ∘ fromJson are identities on JSON values', () => {
    const json = { name: 'x', n: -1.5, ok: true, none: null, list: [1, [2, { deep: ['a'] }]], '2024': 'y', __proto__x: 1 };
    expect(toJson(fromJson(json))).toEqual(json);
    const value = obj([['b', list(1, obj({ c: null }))], ['a', 'z']]);
    expect(equals(fromJson(toJson(value)), value)).toBe(true);
    expect(copyJson(toJson(value))).toEqual(toJson(value));
  });

  it('round-trips a __proto__ key in both directions', () => {
    const value = obj([['__proto__', 1]]);
    const back = fromJson(toJson(value)) as NuwaObject;
    expect([...back.entries()]).toEqual([['__proto__', 1]]);
  });
});

group('setJsonKey', () => {
  it('sets ordinary keys and defines __proto__ as an enumerable own property', () => {
    const target = {};
    setJsonKey(target, 'a', 1);
    setJsonKey(target, '__proto__', { x: 1 });
    expect(Object.keys(target)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });
});

group('NuwaObject', () => {
  it('keeps insertion order and a key set again in its first place, for small objects and past the indexed size', () => {
    for (const count of [1, 8, 9, 100]) {
      const entries: Array<[string, Value]> = Array.from({ length: count }, (_, n) => [`k${count - n}`, n]);
      const object = new NuwaObject([...entries, ['k1', 'again'], ['__proto__', 'plain key'], ['2024', 'keeps its place']]).seal();
      const keys = [...entries.map(([key]) => key), '__proto__', '2024'];
      expect([...object.keys()]).toEqual(keys);
      expect(object.size).toBe(count + 2);
      expect(object.get('k1')).toBe('again');
      expect(object.get(`k${count}`)).toBe(count === 1 ? 'again' : 0);
      expect(object.get('__proto__')).toBe('plain key');
      expect(object.has('missing')).toBe(false);
      expect(object.get('toString')).toBeUndefined();
      expect([...object.values()].at(-1)).toBe('keeps its place');
      expect(object.keyAt(0)).toBe(keys[0]);
      expect(object.valueAt(count + 1)).toBe('keeps its place');
      const seen: string[] = [];
      object.forEach((_, key) => seen.push(key));
      expect(seen).toEqual(keys);
    }
  });

  it('copies a big JSON object with every key found', () => {
    const input = Object.fromEntries(Array.from({ length: 5000 }, (_, n) => [`key${n}`, n]));
    const object = fromJson(input) as NuwaObject;
    expect(object.size).toBe(5000);
    for (const n of [0, 17, 4999]) expect(object.get(`key${n}`)).toBe(n);
    expect(toJson(object)).toEqual(input);
    // The walker that made it is used again, and keeps nothing of it.
    expect(toJson(fromJson({ a: { b: [1, { c: 2 }] }, d: 3 }))).toEqual({ a: { b: [1, { c: 2 }] }, d: 3 });
  });
});
