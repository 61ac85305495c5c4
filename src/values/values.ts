// Nuwa values inside the interpreter, and the JSON boundary to hosts and tools: the one module the
// rest of the code imports values from.
//
// Objects are Maps, not plain JS objects: the language promises insertion order for every key
// (a plain object would move "2024" before "b") and treats `__proto__` as an ordinary key. Values
// are never mutated once built (there is no assignment into a list or object), so the evaluator
// shares them freely and copies only where they cross into or out of a tool or host. What that
// sharing means for sizes and limits is explained in model.ts.
import { DEFAULT_VALUE_LIMITS, MAX_VALUE_DEPTH, NuwaList, NuwaObject, tooDeep, Work, type TypeName, type Value, type ValueLimits } from './model.js';

export {
  checkStringLength,
  checkTotals,
  charsIn,
  DEFAULT_VALUE_LIMITS,
  depthOf,
  itemsIn,
  listOf,
  MAX_VALUE_DEPTH,
  NuwaList,
  NuwaObject,
  objectOf,
  type TypeName,
  type Value,
  type ValueLimits,
} from './model.js';
export { displayStringSteps, toDisplayString, toJsonText } from './text.js';
export { copyJson, fromJson, NotJsonError, setJsonKey, toJson } from './convert.js';

export function typeName(value: Value): TypeName {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      return value instanceof NuwaList ? 'list' : 'object';
  }
}

/** Structural equality without coercion; object key order does not matter. */
export function equals(a: Value, b: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return same(a, b, 0, new Work(limits));
}

function same(a: Value, b: Value, depth: number, work: Work): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // Equal values have equal totals: most unequal pairs differ here without a walk.
  if (a.totalItems !== b.totalItems || a.totalChars !== b.totalChars) return false;
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
  if (a instanceof NuwaList) {
    if (!(b instanceof NuwaList) || a.length !== b.length) return false;
    // The work is reported as it is done (every 4,096 items), so that a deadline is seen mid-walk.
    for (let i = 0; i < a.length; i++) {
      if ((i & 4095) === 4095) work.add(4096);
      if (!same(a.at(i), b.at(i), depth + 1, work)) return false;
    }
    work.add(a.length & 4095);
    return true;
  }
  if (b instanceof NuwaList || a.size !== b.size) return false;
  for (let i = 0; i < a.size; i++) {
    if ((i & 4095) === 4095) work.add(4096);
    const other = b.get(a.keyAt(i));
    if (other === undefined || !same(a.valueAt(i), other, depth + 1, work)) return false;
  }
  work.add(a.size & 4095);
  return true;
}

/** A short description for error messages: `string "abc"`, `number 42`, `list of 3 items`. */
export function describe(value: Value): string {
  switch (typeName(value)) {
    case 'string': {
      const text = value as string;
      return `string ${JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text)}`;
    }
    case 'number':
    case 'boolean':
      return `${typeName(value)} ${String(value)}`;
    case 'null':
      return 'null';
    case 'list': {
      const n = (value as NuwaList).length;
      return `list of ${n} item${n === 1 ? '' : 's'}`;
    }
    default: {
      const object = value as NuwaObject;
      return object.size === 0 ? 'empty object' : `object with keys ${objectKeys(object)}`;
    }
  }
}

/** The first `max` keys of an object for a message, and how many there are when some are left out. */
export function objectKeys(object: NuwaObject, max = 8): string {
  return formatKeys(firstKeys(object, max + 1), max, object.size);
}

function firstKeys(object: NuwaObject, n: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < object.size && i < n; i++) keys.push(object.keyAt(i));
  return keys;
}

/** Up to `max` keys for a message, and how many there are in all when some are left out. */
export function formatKeys(keys: string[], max = 8, total = keys.length): string {
  const shown = keys.slice(0, max).join(', ');
  return total > max ? `${shown}, ... (${total} in all)` : shown;
}
