// Unit tests for src/runtime/builtins.ts: the built-ins of LANGUAGE.md §5 and §8 that read and
// convert values, called directly with a fake host, their FunctionArgumentErrors, the arity wording,
// rounding and numeric parsing. The built-ins that build lists and text: builtins-lists.test.ts.
import { describe, expect, it } from 'vitest';
import { arityError, BUILTIN_NAMES, BUILTINS, roundHalfAwayFromZero } from '../../../src/runtime/builtins.js';
import { parseNumeric } from '../../../src/values/numeric.js';
import { NuwaList, toJson } from '../../../src/values/values.js';
import { argumentError, at, call, host, o, value } from '../../support/builtin-calls.js';

describe('the set of built-ins', () => {
  it('is exactly the table of LANGUAGE.md §5, then the built-ins of §8', () => {
    expect([...BUILTIN_NAMES]).toEqual([
      'PRINT', 'NOW', 'FORMAT', 'LEN', 'KEYS', 'APPEND', 'CONTAINS', 'STR', 'NUMBER', 'ROUND', 'FLOOR', 'CEIL', 'ABS', 'MIN', 'MAX', 'TYPE',
      'JOIN', 'SPLIT', 'SLICE', 'SORT', 'REVERSE', 'UPPER', 'LOWER', 'TRIM', 'REPLACE', 'RANGE', 'SUM', 'GET', 'SET',
    ]);
    expect([...BUILTINS.keys()]).toEqual([...BUILTIN_NAMES]);
  });

  it('declares the arity of each', () => {
    const arity = Object.fromEntries([...BUILTINS.values()].map((b) => [b.name, [b.minArgs, b.maxArgs]]));
    expect(arity).toEqual({
      PRINT: [1, 1], NOW: [0, 0], FORMAT: [1, 2], LEN: [1, 1], KEYS: [1, 1], APPEND: [2, 2], CONTAINS: [2, 2], STR: [1, 1],
      NUMBER: [1, 1], ROUND: [1, 2], FLOOR: [1, 1], CEIL: [1, 1], ABS: [1, 1], MIN: [1, Infinity], MAX: [1, Infinity], TYPE: [1, 1],
      JOIN: [2, 2], SPLIT: [2, 2], SLICE: [2, 3], SORT: [1, 2], REVERSE: [1, 1], UPPER: [1, 1], LOWER: [1, 1], TRIM: [1, 1], REPLACE: [3, 3], RANGE: [1, 2],
      SUM: [1, 1], GET: [2, 3], SET: [3, 3],
    });
  });

  it('gives each a usage line that starts with its name and a one-line summary (the prompt builder shows both)', () => {
    for (const builtin of BUILTINS.values()) {
      expect(builtin.usage.startsWith(`${builtin.name}(`)).toBe(true);
      expect(builtin.summary.length).toBeGreaterThan(10);
      expect(builtin.summary).not.toMatch(/\n/);
    }
  });
});

describe('PRINT', () => {
  it('prints the string form through the host, at the call position, and yields null', () => {
    const h = host();
    expect(BUILTINS.get('PRINT')!.call([value([1, 'a', null])], h, at)).toBeNull();
    BUILTINS.get('PRINT')!.call(['plain'], h, at);
    BUILTINS.get('PRINT')!.call([value(o({ a: 1e21 }))], h, at);
    expect(h.lines).toEqual([['[1,"a",null]', at], ['plain', at], ['{"a":1e+21}', at]]);
  });
});

describe('NOW', () => {
  it('yields the current time in whole milliseconds', () => {
    const before = Date.now();
    const now = call('NOW') as number;
    expect(Number.isInteger(now)).toBe(true);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe('FORMAT', () => {
  it('replaces {key} with the string form of values.key', () => {
    expect(call('FORMAT', '{name} owes {amount} for {items}', o({ name: 'Ann', amount: 2.5, items: ['a', 1] }))).toBe('Ann owes 2.5 for ["a",1]');
    expect(call('FORMAT', '{a}{a}{b}', o({ a: null, b: true }))).toBe('nullnulltrue');
  });

  it('turns {{ and }} into literal braces', () => {
    expect(call('FORMAT', '{{a}} is {a}', o({ a: 1 }))).toBe('{a} is 1');
    expect(call('FORMAT', '}}{{')).toBe('}{');
  });

  it('keeps any other text as is', () => {
    expect(call('FORMAT', '{ a } {1} {a-b} { } {', o({ a: 1 }))).toBe('{ a } {1} {a-b} { } {');
  });

  it('reads a path of members: {name.field} and {name.field.sub}', () => {
    const values = o({ e: o({ subject: 'Hi', from: o({ name: 'Ann', tags: ['a'] }) }) });
    expect(call('FORMAT', '{e.subject} from {e.from.name} {e.from.tags} {e.from}', values)).toBe('Hi from Ann ["a"] {"name":"Ann","tags":["a"]}');
    expect(call('FORMAT', '{{e.subject}} {e.subject}}', values)).toBe('{e.subject} Hi}');
    // keys are data: a member named like an object's prototype property is read as any other
    expect(call('FORMAT', '{o.constructor} {o.__proto__}', o({ o: o([['constructor', 1], ['__proto__', 2]]) }))).toBe('1 2');
    expect(call('FORMAT', '{e.} {e..a} {.e} {e.0}', values)).toBe('{e.} {e..a} {.e} {e.0}');
  });

  it('raises FunctionArgumentError for a missing member, naming the keys that exist', () => {
    const values = o({ e: o({ subject: 'Hi', from: o({ name: 'Ann' }) }), n: 5, empty: o({}) });
    argumentError('FORMAT', ['{e.subjct}', values], /^FORMAT has no value for \{e\.subjct\}: e has keys subject, from/);
    argumentError('FORMAT', ['{e.from.email}', values], /^FORMAT has no value for \{e\.from\.email\}: e\.from has keys name/);
    argumentError('FORMAT', ['{x.a}', values], /^FORMAT has no value for \{x\.a\}: the values object has keys e, n, empty/);
    argumentError('FORMAT', ['{n.a}', values], /^FORMAT cannot read \{n\.a\}: n is number 5, not an object with a key "a"/);
    argumentError('FORMAT', ['{e.subject.x}', values], /^FORMAT cannot read \{e\.subject\.x\}: e\.subject is string "Hi", not an object/);
    argumentError('FORMAT', ['{empty.a}', values], /^FORMAT has no value for \{empty\.a\}: empty is an empty object/);
  });

  it('works with a template alone', () => {
    expect(call('FORMAT', 'no placeholders')).toBe('no placeholders');
  });

  it('raises FunctionArgumentError for a missing key, listing the keys', () => {
    argumentError('FORMAT', ['{a} {c}', o({ a: 1, b: 2 })], /^FORMAT has no value for \{c\}: the values object has keys a, b/);
    argumentError('FORMAT', ['{x}'], /^FORMAT has no value for \{x\}: the values object is empty/);
  });

  it('raises FunctionArgumentError for a non-string template or non-object values', () => {
    argumentError('FORMAT', [42, o({})], /^FORMAT expects a template string first, got number 42/);
    argumentError('FORMAT', ['{a}', [1]], /^FORMAT expects an object of values second, got list of 1 item/);
    argumentError('FORMAT', ['x', null], /^FORMAT expects an object of values second, got null/);
  });
});

describe('LEN', () => {
  it('measures lists, strings in UTF-16 units, and objects', () => {
    expect(call('LEN', [1, 2, 3])).toBe(3);
    expect(call('LEN', [])).toBe(0);
    expect(call('LEN', 'héllo')).toBe(5);
    expect(call('LEN', '😀')).toBe(2);
    expect(call('LEN', o({ a: 1, b: 2 }))).toBe(2);
  });

  it('refuses other values', () => {
    argumentError('LEN', [42], /^LEN expects a list, string or object, got number 42/);
    argumentError('LEN', [null], /got null/);
  });
});

describe('KEYS', () => {
  it('lists the keys in order', () => {
    expect(call('KEYS', o([['z', 1], ['2024', 2], ['a', 3]]))).toEqual(['z', '2024', 'a']);
    expect(call('KEYS', o({}))).toEqual([]);
  });

  it('refuses non-objects', () => {
    argumentError('KEYS', [[1]], /^KEYS expects an object, got list of 1 item/);
  });
});

describe('APPEND', () => {
  it('returns a new list and leaves the original unchanged', () => {
    const list = value([1, 2]) as NuwaList;
    const out = BUILTINS.get('APPEND')!.call([list, value([3])], host(), at);
    expect(toJson(out)).toEqual([1, 2, [3]]);
    expect(toJson(list)).toEqual([1, 2]);
    expect(out).not.toBe(list);
    expect(call('APPEND', [], null)).toEqual([null]);
  });

  it('refuses a non-list first argument', () => {
    argumentError('APPEND', ['ab', 'c'], /^APPEND expects a list first, got string "ab"/);
  });
});

describe('CONTAINS', () => {
  it('finds an element of a list by structural equality', () => {
    expect(call('CONTAINS', [1, o({ a: [1] })], o({ a: [1] }))).toBe(true);
    expect(call('CONTAINS', [1, 2], '1')).toBe(false);
    expect(call('CONTAINS', [null], null)).toBe(true);
  });

  it('finds a substring of a string', () => {
    expect(call('CONTAINS', 'hello world', 'o w')).toBe(true);
    expect(call('CONTAINS', 'hello', 'H')).toBe(false);
    expect(call('CONTAINS', 'hello', '')).toBe(true);
  });

  it('finds a key of an object', () => {
    expect(call('CONTAINS', o({ a: null }), 'a')).toBe(true);
    expect(call('CONTAINS', o({ a: 1 }), 'b')).toBe(false);
    expect(call('CONTAINS', o({ a: 1 }), '__proto__')).toBe(false);
  });

  it('needs a string to look for in a string or object', () => {
    argumentError('CONTAINS', ['a1', 1], /^CONTAINS on a string expects a string to look for, got number 1/);
    argumentError('CONTAINS', [o({}), null], /^CONTAINS on an object expects a string to look for, got null/);
  });

  it('refuses other first arguments', () => {
    argumentError('CONTAINS', [5, 5], /^CONTAINS expects a list, string or object first, got number 5/);
  });
});

describe('STR', () => {
  it('yields the string form of every type', () => {
    expect([call('STR', 'a'), call('STR', 3), call('STR', 1e21), call('STR', -0), call('STR', true), call('STR', null), call('STR', [1, 'a']), call('STR', o({ k: 'v' }))]).toEqual([
      'a', '3', '1e+21', '0', 'true', 'null', '[1,"a"]', '{"k":"v"}',
    ]);
  });
});

describe('NUMBER', () => {
  it('reads numeric strings', () => {
    expect(call('NUMBER', '42')).toBe(42);
    expect(call('NUMBER', '-3.5')).toBe(-3.5);
    expect(call('NUMBER', '2.5E-3')).toBe(0.0025);
  });

  it('refuses text that is not a number', () => {
    argumentError('NUMBER', ['12abc'], /^NUMBER cannot read string "12abc" as a number/);
    argumentError('NUMBER', ['0x10'], /cannot read/);
  });

  it('refuses non-strings', () => {
    argumentError('NUMBER', [true], /^NUMBER expects a numeric string, got boolean true/);
    argumentError('NUMBER', [null], /got null/);
  });
});

describe('ROUND', () => {
  it('rounds half away from zero, to 0 digits by default', () => {
    expect([call('ROUND', 2.5), call('ROUND', -2.5), call('ROUND', 2.4), call('ROUND', 0.5)]).toEqual([3, -3, 2, 1]);
    expect(call('ROUND', 1.005, 2)).toBe(1.01);
    expect(call('ROUND', 3.14159, 15)).toBe(3.14159);
  });

  it('refuses digits outside 0..15 or not whole', () => {
    argumentError('ROUND', [1, 16], /^ROUND digits must be a whole number from 0 to 15, got 16/);
    argumentError('ROUND', [1, -1], /got -1/);
    argumentError('ROUND', [1, 1.5], /got 1\.5/);
  });

  it('refuses non-numbers', () => {
    argumentError('ROUND', ['1.5'], /^ROUND expects a number, got string "1\.5"/);
    argumentError('ROUND', [1.5, '2'], /^ROUND expects a number of digits, got string "2"/);
  });
});

describe('FLOOR, CEIL, ABS', () => {
  it('compute as in mathematics, without -0', () => {
    expect([call('FLOOR', 2.7), call('FLOOR', -2.1), call('CEIL', 2.1), call('CEIL', -2.7), call('ABS', -3.5), call('ABS', 4)]).toEqual([2, -3, 3, -2, 3.5, 4]);
    expect(Object.is(call('CEIL', -0.5), 0)).toBe(true);
    expect(Object.is(call('FLOOR', -0), 0)).toBe(true);
    expect(Object.is(call('ABS', -0), 0)).toBe(true);
  });

  it('refuse non-numbers', () => {
    argumentError('FLOOR', ['1'], /^FLOOR expects a number, got string "1"/);
    argumentError('CEIL', [null], /^CEIL expects a number, got null/);
    argumentError('ABS', [[]], /^ABS expects a number, got list of 0 items/);
  });
});

describe('MIN and MAX', () => {
  it('take one or more numbers', () => {
    expect([call('MIN', 3, 1, 2), call('MAX', 3, 1, 2), call('MIN', 7), call('MAX', -1, -5)]).toEqual([1, 3, 7, -1]);
  });

  it('take a single list of numbers', () => {
    expect([call('MIN', [4, -2, 9]), call('MAX', [4, -2, 9]), call('MAX', [5])]).toEqual([-2, 9, 5]);
  });

  it('refuse an empty list', () => {
    argumentError('MIN', [[]], /^MIN of an empty list has no value/);
    argumentError('MAX', [[]], /^MAX of an empty list has no value/);
  });

  it('refuse non-numbers', () => {
    argumentError('MIN', ['a'], /^MIN expects numbers or one list of numbers, got string "a"/);
    argumentError('MAX', [1, '2'], /^MAX expects numbers, got string "2"/);
    argumentError('MIN', [[1, null]], /^MIN expects numbers, got null/);
    argumentError('MAX', [[1], [2]], /^MAX expects numbers, got list of 1 item/);
  });
});

describe('TYPE', () => {
  it('names each type', () => {
    expect([call('TYPE', 1), call('TYPE', 's'), call('TYPE', false), call('TYPE', null), call('TYPE', []), call('TYPE', o({}))]).toEqual([
      'number', 'string', 'boolean', 'null', 'list', 'object',
    ]);
  });
});

describe('arityError', () => {
  it.each([
    ['PRINT', 2, 'PRINT takes 1 argument, got 2 (usage: PRINT(value))'],
    ['NOW', 1, 'NOW takes 0 arguments, got 1 (usage: NOW())'],
    ['APPEND', 1, 'APPEND takes 2 arguments, got 1 (usage: APPEND(list, value))'],
    ['FORMAT', 0, 'FORMAT takes 1 to 2 arguments, got 0 (usage: FORMAT(template, { key: value }))'],
    ['ROUND', 3, 'ROUND takes 1 to 2 arguments, got 3 (usage: ROUND(number) or ROUND(number, digits))'],
    ['MIN', 0, 'MIN takes at least 1 argument, got 0 (usage: MIN(a, b, ...) or MIN(list))'],
  ])('%s with %i arguments', (name, given, message) => {
    const error = arityError(BUILTINS.get(name)!, given, at);
    expect(error.kind).toBe('FunctionArgumentError');
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([3, 7]);
  });
});

describe('roundHalfAwayFromZero', () => {
  it.each([
    [1.005, 2, 1.01],
    [-1.005, 2, -1.01],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [0.5, 0, 1],
    [-0.5, 0, -1],
    [1.45, 1, 1.5],
    [8.345, 2, 8.35],
    [1.4999, 0, 1],
    [0.1 + 0.2, 15, 0.3],
    [1.23456789012345678, 15, 1.234567890123457],
    [5e-7, 6, 0.000001],
    [1e-7, 2, 0],
    [123456789012345.67, 1, 123456789012345.7],
    [1e21, 2, 1e21],
    [9007199254740993, 0, 9007199254740992],
    [12345.678, 0, 12346],
  ])('%d at %i digits → %d', (n, digits, expected) => {
    expect(roundHalfAwayFromZero(n, digits)).toBe(expected);
  });

  it('returns numbers too large to have decimals unchanged, never NaN or Infinity', () => {
    expect(roundHalfAwayFromZero(1e300, 15)).toBe(1e300);
    expect(roundHalfAwayFromZero(-1e300, 15)).toBe(-1e300);
    expect(roundHalfAwayFromZero(1.7976931348623157e308, 2)).toBe(1.7976931348623157e308);
    expect(roundHalfAwayFromZero(1e294, 15)).toBe(1e294);
    expect(call('ROUND', 1e300, 15)).toBe(1e300);
  });

  it('never yields -0', () => {
    expect(Object.is(roundHalfAwayFromZero(-0.4, 0), 0)).toBe(true);
    expect(Object.is(roundHalfAwayFromZero(-0.001, 2), 0)).toBe(true);
    expect(Object.is(roundHalfAwayFromZero(-0, 3), 0)).toBe(true);
  });
});

describe('parseNumeric', () => {
  it.each([
    ['42', 42],
    ['-3.5', -3.5],
    ['1e3', 1000],
    [' 7 ', 7],
    ['0', 0],
    ['2.5E-3', 0.0025],
    ['1e+2', 100],
    ['007', 7],
  ])('accepts %j', (text, value) => {
    expect(parseNumeric(text)).toBe(value);
  });

  it.each(['0x10', '+1', '.5', '1.', 'abc', '', '   ', 'Infinity', '-Infinity', 'NaN', '1e400', '1 2', '--1', '1e', '1_000', '1,5', '- 1'])('refuses %j', (text) => {
    expect(parseNumeric(text)).toBeUndefined();
  });
});
