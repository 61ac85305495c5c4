// The built-in functions of LANGUAGE.md §5. Each declares its arity and usage once; argument
// problems raise FunctionArgumentError with the usage line, so the author sees how to call it.
import { NuwaError, type Position } from '../errors.js';
import { parseNumeric } from '../values/numeric.js';
import { describe, equals, toDisplayString, typeName, type NuwaObject, type Value } from '../values/values.js';

/** What a built-in may ask of the running script. */
export interface BuiltinHost {
  print(text: string, at: Position): void;
}

export interface Builtin {
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly usage: string;
  call(args: Value[], host: BuiltinHost, at: Position): Value;
}

function argumentError(usage: string, message: string, at: Position): NuwaError {
  return new NuwaError('FunctionArgumentError', `${message} (usage: ${usage})`, at);
}

function define(name: string, minArgs: number, maxArgs: number, usage: string, call: Builtin['call']): Builtin {
  return { name, minArgs, maxArgs, usage, call };
}

function numberArg(b: string, usage: string, value: Value, at: Position, what = 'a number'): number {
  if (typeof value === 'number') return value;
  throw argumentError(usage, `${b} expects ${what}, got ${describe(value)}`, at);
}

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

const FORMAT_PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function format(template: string, values: NuwaObject, usage: string, at: Position): string {
  return template.replace(FORMAT_PLACEHOLDER, (match: string, key: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values.get(key!);
    if (value === undefined) {
      const keys = [...values.keys()];
      throw argumentError(usage, `FORMAT has no value for {${key}}: the values object ${keys.length ? `has keys ${keys.join(', ')}` : 'is empty'}`, at);
    }
    return toDisplayString(value);
  });
}

function minMax(name: 'MIN' | 'MAX', usage: string, args: Value[], at: Position): number {
  let numbers: Value[] = args;
  if (args.length === 1 && typeof args[0] !== 'number') {
    if (!Array.isArray(args[0])) throw argumentError(usage, `${name} expects numbers or one list of numbers, got ${describe(args[0]!)}`, at);
    numbers = args[0];
    if (numbers.length === 0) throw argumentError(usage, `${name} of an empty list has no value`, at);
  }
  let best = numberArg(name, usage, numbers[0]!, at, 'numbers');
  for (let i = 1; i < numbers.length; i++) {
    const n = numberArg(name, usage, numbers[i]!, at, 'numbers');
    if (name === 'MIN' ? n < best : n > best) best = n;
  }
  return best;
}

const BUILTIN_LIST: Builtin[] = [
  define('PRINT', 1, 1, 'PRINT(value)', ([value], host, at) => {
    host.print(toDisplayString(value!), at);
    return null;
  }),
  define('NOW', 0, 0, 'NOW()', () => Date.now()),
  define('FORMAT', 1, 2, 'FORMAT(template, { key: value })', ([template, values], _host, at) => {
    const usage = 'FORMAT(template, { key: value })';
    if (typeof template !== 'string') throw argumentError(usage, `FORMAT expects a template string first, got ${describe(template!)}`, at);
    if (values !== undefined && !(values instanceof Map)) throw argumentError(usage, `FORMAT expects an object of values second, got ${describe(values)}`, at);
    return format(template, values ?? new Map(), usage, at);
  }),
  define('LEN', 1, 1, 'LEN(list | string | object)', ([x], _host, at) => {
    if (typeof x === 'string' || Array.isArray(x)) return x.length;
    if (x instanceof Map) return x.size;
    throw argumentError('LEN(list | string | object)', `LEN expects a list, string or object, got ${describe(x!)}`, at);
  }),
  define('KEYS', 1, 1, 'KEYS(object)', ([x], _host, at) => {
    if (x instanceof Map) return [...x.keys()];
    throw argumentError('KEYS(object)', `KEYS expects an object, got ${describe(x!)}`, at);
  }),
  define('APPEND', 2, 2, 'APPEND(list, value)', ([list, value], _host, at) => {
    if (!Array.isArray(list)) throw argumentError('APPEND(list, value)', `APPEND expects a list first, got ${describe(list!)}`, at);
    const out = list.slice();
    out.push(value!);
    return out;
  }),
  define('CONTAINS', 2, 2, 'CONTAINS(list | string | object, value)', ([x, v], _host, at) => {
    const usage = 'CONTAINS(list | string | object, value)';
    if (Array.isArray(x)) return x.some((item) => equals(item, v!));
    if (typeof x === 'string' || x instanceof Map) {
      if (typeof v !== 'string') throw argumentError(usage, `CONTAINS on ${typeName(x) === 'string' ? 'a string' : 'an object'} expects a string to look for, got ${describe(v!)}`, at);
      return typeof x === 'string' ? x.includes(v) : x.has(v);
    }
    throw argumentError(usage, `CONTAINS expects a list, string or object first, got ${describe(x!)}`, at);
  }),
  define('STR', 1, 1, 'STR(value)', ([x]) => toDisplayString(x!)),
  define('NUMBER', 1, 1, 'NUMBER(string)', ([x], _host, at) => {
    if (typeof x === 'number') return x;
    if (typeof x === 'string') {
      const n = parseNumeric(x);
      if (n !== undefined) return n;
      throw argumentError('NUMBER(string)', `NUMBER cannot read ${describe(x)} as a number`, at);
    }
    throw argumentError('NUMBER(string)', `NUMBER expects a numeric string, got ${describe(x!)}`, at);
  }),
  define('ROUND', 1, 2, 'ROUND(number) or ROUND(number, digits)', ([n, digits], _host, at) => {
    const usage = 'ROUND(number) or ROUND(number, digits)';
    const value = numberArg('ROUND', usage, n!, at);
    const places = digits === undefined ? 0 : numberArg('ROUND', usage, digits, at, 'a number of digits');
    if (!Number.isInteger(places) || places < 0 || places > 15) throw argumentError(usage, `ROUND digits must be a whole number from 0 to 15, got ${places}`, at);
    return roundHalfAwayFromZero(value, places);
  }),
  define('FLOOR', 1, 1, 'FLOOR(number)', ([n], _host, at) => Math.floor(numberArg('FLOOR', 'FLOOR(number)', n!, at)) || 0),
  define('CEIL', 1, 1, 'CEIL(number)', ([n], _host, at) => Math.ceil(numberArg('CEIL', 'CEIL(number)', n!, at)) || 0),
  define('ABS', 1, 1, 'ABS(number)', ([n], _host, at) => Math.abs(numberArg('ABS', 'ABS(number)', n!, at))),
  define('MIN', 1, Infinity, 'MIN(a, b, ...) or MIN(list)', (args, _host, at) => minMax('MIN', 'MIN(a, b, ...) or MIN(list)', args, at)),
  define('MAX', 1, Infinity, 'MAX(a, b, ...) or MAX(list)', (args, _host, at) => minMax('MAX', 'MAX(a, b, ...) or MAX(list)', args, at)),
  define('TYPE', 1, 1, 'TYPE(value)', ([x]) => typeName(x!)),
];

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(BUILTIN_LIST.map((b) => [b.name, b]));
export const BUILTIN_NAMES: readonly string[] = BUILTIN_LIST.map((b) => b.name);
/** Built-ins called for what they do, not for their value: a statement may discard their result. */
export const EFFECT_BUILTINS: ReadonlySet<string> = new Set(['PRINT']);

export function arityError(builtin: Builtin, given: number, at: Position): NuwaError {
  const expected =
    builtin.minArgs === builtin.maxArgs
      ? `${builtin.minArgs} argument${builtin.minArgs === 1 ? '' : 's'}`
      : builtin.maxArgs === Infinity
        ? `at least ${builtin.minArgs} argument${builtin.minArgs === 1 ? '' : 's'}`
        : `${builtin.minArgs} to ${builtin.maxArgs} arguments`;
  return argumentError(builtin.usage, `${builtin.name} takes ${expected}, got ${given}`, at);
}
