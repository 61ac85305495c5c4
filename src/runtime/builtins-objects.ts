// The built-ins that read and build objects by a key held in a value (LANGUAGE.md §8): GET and SET,
// so that counting by a label is `LET counts = SET(counts, label, GET(counts, label, 0) + 1)`. Keys
// are data: `__proto__` and `constructor` are keys like any other (objects are Maps). SET makes a
// new object and leaves the original unchanged, as every built-in does.
import { NuwaError, type Position } from '../errors.js';
import { didYouMean } from '../util/suggest.js';
import { describe, formatKeys, NuwaList, NuwaObject, type Value } from '../values/values.js';
import { Args, define, type Builtin, type BuiltinHost } from './builtin-support.js';

const GET_USAGE = 'GET(object, key) or GET(object, key, default)';
const SET_USAGE = 'SET(object, key, value)';

/** The object a GET or SET works on: for a list, the message says how lists are read or built instead. */
function objectArgument(args: Args, name: 'GET' | 'SET', value: Value): NuwaObject {
  if (value instanceof NuwaList) {
    throw args.fail(
      name === 'GET'
        ? `GET reads an entry of an object, got ${describe(value)}: for an item of a list write list[index]`
        : `SET sets an entry of an object, got ${describe(value)}: to change a list build a new one (APPEND, SLICE or [... FOR x IN list])`,
    );
  }
  return args.object(value, 'an object first');
}

function get([object, key, fallback]: Value[], _host: BuiltinHost, at: Position): Value {
  const args = new Args('GET', GET_USAGE, at);
  const entries = objectArgument(args, 'GET', object!);
  const name = args.string(key!, 'a string key second');
  const value = entries.get(name);
  if (value !== undefined) return value;
  if (fallback !== undefined) return fallback;
  const keys = [...entries.keys()];
  throw new NuwaError(
    'MemberAccessError',
    `the object has no key "${name}"${didYouMean(name, keys.slice(0, 5000))} (its keys: ${keys.length ? formatKeys(keys) : 'none'}): give GET a default for a missing key, e.g. GET(obj, key, 0)`,
    at,
  );
}

function set([object, key, value]: Value[], host: BuiltinHost, at: Position): NuwaObject {
  const args = new Args('SET', SET_USAGE, at);
  const entries = objectArgument(args, 'SET', object!);
  const name = args.string(key!, 'a string key second');
  // A copy: an existing key keeps its place, a new one comes last.
  const copy = new NuwaObject(entries);
  copy.set(name, value!);
  host.valueLimits.charge?.(copy.size);
  return copy.seal(host.valueLimits, at);
}

export const OBJECT_BUILTINS: Builtin[] = [
  define('GET', 2, 3, GET_USAGE, 'the entry of the object named by the string key; default (if given) when there is none', get),
  define('SET', 3, 3, SET_USAGE, 'a new object: the object with the entry key set to value (the original is unchanged)', set),
];
