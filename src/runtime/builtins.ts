// The built-in functions of LANGUAGE.md §5, in the order of its table, then those of §8. Each declares its arity,
// usage and a one-line summary once (the prompt builder and error messages read them from
// BUILTINS); argument problems raise FunctionArgumentError with the usage line.
import { NuwaError, type Position } from '../errors.js';
import { parseNumeric } from '../values/numeric.js';
import { describe, displayStringSteps, equals, NuwaList, NuwaObject, toDisplayString, typeName, type Value } from '../values/values.js';
import { Args, argumentError, bigValue, chargeChars, CHUNK, define, Progress, withSteps, type Builtin } from './builtin-support.js';
import { LIST_BUILTINS } from './builtins-lists.js';
import { TEXT_BUILTINS } from './builtins-text.js';
import { OBJECT_BUILTINS } from './builtins-objects.js';
import { BUILTIN_NAMES } from '../syntax/functions.js';
import type * as A from '../syntax/ast.js';
import { printArgumentsHint } from './advice.js';

export type { Builtin, BuiltinHost } from './builtin-support.js';

/**
 * Rounds half away from zero on the decimal form of `n` (so 1.005 → 1.01 at two places, as a
 * person reading the number expects), by shifting the decimal exponent instead of multiplying.
 */
export function roundHalfAwayFromZero(n: number, digits: number): number {
  // From 2^52 up every double is a whole number: nothing to round (and shifting could overflow).
  if (!Number.isFinite(n) || Math.abs(n) >= 2 ** 52) return n;
  const shift = (value: number, by: number): number => {
    const [mantissa, exponent = '0'] = String(value).split('e');
    return Number(`${mantissa}e${Number(exponent) + by}`);
  };
  const magnitude = Math.abs(n);
  const rounded = shift(Math.round(shift(magnitude, digits)), -digits);
  const result = n < 0 ? -rounded : rounded;
  return result === 0 ? 0 : result; // no negative zero
}

function minMax(name: 'MIN' | 'MAX', args: Value[], at: Position): number {
  const check = new Args(name, `${name}(a, b, ...) or ${name}(list)`, at);
  let count = args.length;
  let read = (i: number): Value => args[i]!;
  if (args.length === 1 && typeof args[0] !== 'number') {
    if (!(args[0] instanceof NuwaList)) throw check.fail(`${name} expects numbers or one list of numbers, got ${describe(args[0]!)}`);
    const list = args[0];
    if (list.length === 0) throw check.fail(`${name} of an empty list has no value`);
    count = list.length;
    read = (i) => list.at(i);
  }
  let best = check.number(read(0), 'numbers');
  for (let i = 1; i < count; i++) {
    const n = check.number(read(i), 'numbers');
    if (name === 'MIN' ? n < best : n > best) best = n;
  }
  return best;
}

const CORE_BUILTINS: Builtin[] = [
  withSteps(
    define('PRINT', 1, 1, 'PRINT(value)', 'writes the string form of value as one output line; yields null', ([value], host, at) => {
      host.print(toDisplayString(value!, host.valueLimits), at);
      return null;
    }),
    ([value]) => bigValue(value),
    function* ([value], host, at) {
      host.print(yield* displayStringSteps(value!, host.valueLimits), at);
      return null;
    },
  ),
  define('NOW', 0, 0, 'NOW()', 'the current time in whole milliseconds since the Unix epoch', (_args, host) => host.now()),
  define('LEN', 1, 1, 'LEN(list | string | object)', 'the number of items of a list, characters (UTF-16 units) of a string, or keys of an object', ([x], _host, at) => {
    if (typeof x === 'string' || x instanceof NuwaList) return x.length;
    if (x instanceof NuwaObject) return x.size;
    throw argumentError('LEN(list | string | object)', `LEN expects a list, string or object, got ${describe(x!)}`, at);
  }),
  define('KEYS', 1, 1, 'KEYS(object)', "the list of the object's keys, in order", ([x], host, at) => {
    if (x instanceof NuwaObject) return NuwaList.from([...x.keys()], host.valueLimits, at);
    throw argumentError('KEYS(object)', `KEYS expects an object, got ${describe(x!)}`, at);
  }),
  define('APPEND', 2, 2, 'APPEND(list, value)', 'a new list: list followed by value (the original is unchanged)', ([list, value], host, at) => {
    if (!(list instanceof NuwaList)) throw argumentError('APPEND(list, value)', `APPEND expects a list first, got ${describe(list!)}`, at);
    return list.append(value!, host.valueLimits, at);
  }),
  withSteps(
    define(
      'CONTAINS',
      2,
      2,
      'CONTAINS(list | string | object, value)',
      'whether a list has an item == value, a string contains the string value, or an object has the key value',
      ([x, v], host, at) => {
        const usage = 'CONTAINS(list | string | object, value)';
        if (x instanceof NuwaList) {
          // Its work counts by the list's length, not as one step (the run's clock sees it).
          host.valueLimits.charge?.(x.length);
          for (let i = 0; i < x.length; i++) if (equals(x.at(i), v!, host.valueLimits)) return true;
          return false;
        }
        if (typeof x === 'string' || x instanceof NuwaObject) {
          if (typeof v !== 'string') throw argumentError(usage, `CONTAINS on ${typeName(x) === 'string' ? 'a string' : 'an object'} expects a string to look for, got ${describe(v!)}`, at);
          if (typeof x === 'string') chargeChars(host, x.length);
          return typeof x === 'string' ? x.includes(v) : x.has(v);
        }
        throw argumentError(usage, `CONTAINS expects a list, string or object first, got ${describe(x!)}`, at);
      },
    ),
    ([x]) => x instanceof NuwaList && x.length >= CHUNK,
    function* ([x, v], host) {
      // Only a long list takes this path: CONTAINS on strings and objects is one step.
      const list = x as NuwaList;
      const progress = new Progress(host);
      for (let i = 0; i < list.length; i++) {
        if (equals(list.at(i), v!, host.valueLimits)) return true;
        if (progress.add(1)) yield;
      }
      return false;
    },
  ),
  withSteps(
    define('STR', 1, 1, 'STR(value)', 'the string form of value (lists and objects as compact JSON)', ([x], host) => toDisplayString(x!, host.valueLimits)),
    ([x]) => bigValue(x),
    function* ([x], host) {
      return yield* displayStringSteps(x!, host.valueLimits);
    },
  ),
  define('NUMBER', 1, 1, 'NUMBER(string)', 'the number a numeric string denotes', ([x], _host, at) => {
    if (typeof x === 'number') return x;
    if (typeof x === 'string') {
      const n = parseNumeric(x);
      if (n !== undefined) return n;
      throw argumentError('NUMBER(string)', `NUMBER cannot read ${describe(x)} as a number`, at);
    }
    throw argumentError('NUMBER(string)', `NUMBER expects a numeric string, got ${describe(x!)}`, at);
  }),
  define('ROUND', 1, 2, 'ROUND(number) or ROUND(number, digits)', 'the number rounded half away from zero, to digits (0-15) decimal places', ([n, digits], _host, at) => {
    const args = new Args('ROUND', 'ROUND(number) or ROUND(number, digits)', at);
    const value = args.number(n!);
    const places = digits === undefined ? 0 : args.number(digits, 'a number of digits');
    if (!Number.isInteger(places) || places < 0 || places > 15) throw args.fail(`ROUND digits must be a whole number from 0 to 15, got ${places}`);
    return roundHalfAwayFromZero(value, places);
  }),
  define('FLOOR', 1, 1, 'FLOOR(number)', 'the number rounded down', ([n], _host, at) => Math.floor(new Args('FLOOR', 'FLOOR(number)', at).number(n!)) || 0),
  define('CEIL', 1, 1, 'CEIL(number)', 'the number rounded up', ([n], _host, at) => Math.ceil(new Args('CEIL', 'CEIL(number)', at).number(n!)) || 0),
  define('ABS', 1, 1, 'ABS(number)', 'the absolute value of the number', ([n], _host, at) => Math.abs(new Args('ABS', 'ABS(number)', at).number(n!))),
  define('MIN', 1, Infinity, 'MIN(a, b, ...) or MIN(list)', 'the least of one or more numbers, or of one list of numbers', (args, _host, at) => minMax('MIN', args, at)),
  define('MAX', 1, Infinity, 'MAX(a, b, ...) or MAX(list)', 'the greatest of one or more numbers, or of one list of numbers', (args, _host, at) => minMax('MAX', args, at)),
  define('TYPE', 1, 1, 'TYPE(value)', 'the type name: "number", "string", "boolean", "null", "list" or "object"', ([x]) => typeName(x!)),
];

function named(list: Builtin[], name: string): Builtin {
  const found = list.find((b) => b.name === name);
  if (!found) throw new Error(`internal: no built-in ${name}`);
  return found;
}

// In the order of LANGUAGE.md §5 and §8 (syntax/functions.ts), which error messages and prompts list them in;
// a name the syntax layer knows and no implementation here stops the module from loading.
const ALL = [...CORE_BUILTINS, ...TEXT_BUILTINS, ...LIST_BUILTINS, ...OBJECT_BUILTINS];
const BUILTIN_LIST: Builtin[] = BUILTIN_NAMES.map((name) => named(ALL, name));
if (BUILTIN_LIST.length !== ALL.length) throw new Error('internal: a built-in is implemented but not named in syntax/functions.ts');

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(BUILTIN_LIST.map((b) => [b.name, b]));
export { BUILTIN_NAMES };
/** Built-ins called for what they do, not for their value: a statement may discard their result. */
export const EFFECT_BUILTINS: ReadonlySet<string> = new Set(['PRINT']);

export function arityError(builtin: Builtin, given: number, at: Position): NuwaError {
  const expected =
    builtin.minArgs === builtin.maxArgs
      ? `${builtin.minArgs} argument${builtin.minArgs === 1 ? '' : 's'}`
      : builtin.maxArgs === Infinity
        ? `at least ${builtin.minArgs} argument${builtin.minArgs === 1 ? '' : 's'}`
        : `${builtin.minArgs} to ${builtin.maxArgs} arguments`;
  const hint = (at as Partial<A.FunctionCall>).type === 'FunctionCall' ? printArgumentsHint(at as A.FunctionCall) : '';
  return argumentError(builtin.usage, `${builtin.name} takes ${expected}, got ${given}${hint}`, at);
}
