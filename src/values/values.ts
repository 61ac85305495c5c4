// Nuwa values inside the interpreter, and the JSON boundary to hosts and tools.
//
// Objects are Maps, not plain JS objects: the language promises insertion order for every key
// (a plain object would move "2024" before "b") and treats `__proto__` as an ordinary key. Values
// are never mutated once built (APPEND copies; there is no assignment into a list or object), so
// the evaluator shares them freely and copies only where they cross into or out of a tool or host.
import type { JsonObject, JsonValue } from './json.js';
import { NuwaError } from '../errors.js';

export type NuwaObject = Map<string, Value>;
export type Value = null | boolean | number | string | Value[] | NuwaObject;
export type TypeName = 'number' | 'string' | 'boolean' | 'null' | 'list' | 'object';

/** Lists and objects may nest this deep; deeper values are refused at every boundary. */
export const MAX_VALUE_DEPTH = 1000;

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
      return Array.isArray(value) ? 'list' : 'object';
  }
}

function tooDeep(): NuwaError {
  return new NuwaError('LimitExceededError', `value nested deeper than ${MAX_VALUE_DEPTH} levels`);
}

/** Structural equality without coercion; object key order does not matter. */
export function equals(a: Value, b: Value, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equals(a[i]!, b[i]!, depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || a.size !== b.size) return false;
  for (const [key, value] of a) {
    const other = b.get(key);
    if (other === undefined || !equals(value, other, depth + 1)) return false;
  }
  return true;
}

/** The string form used by PRINT, FORMAT and STR (LANGUAGE.md §2). */
export function toDisplayString(value: Value): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : toJsonText(value);
  }
}

/** Compact JSON text of a value, keys in insertion order. */
export function toJsonText(value: Value, depth = 0): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value === null) return 'null';
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + toJsonText(value[i]!, depth + 1);
    return text + ']';
  }
  let text = '{';
  let first = true;
  for (const [key, item] of value) {
    text += (first ? '' : ',') + JSON.stringify(key) + ':' + toJsonText(item, depth + 1);
    first = false;
  }
  return text + '}';
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
      const n = (value as Value[]).length;
      return `list of ${n} item${n === 1 ? '' : 's'}`;
    }
    default: {
      const keys = [...(value as NuwaObject).keys()];
      return keys.length === 0 ? 'empty object' : `object with keys ${formatKeys(keys)}`;
    }
  }
}

export function formatKeys(keys: string[], max = 8): string {
  const shown = keys.slice(0, max).join(', ');
  return keys.length > max ? `${shown}, ... (${keys.length} in all)` : shown;
}

/** Sets a key on a plain object; `__proto__` becomes an own property instead of a prototype change. */
export function setJsonKey(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Nuwa value → plain JSON value (always a fresh copy of lists and objects). */
export function toJson(value: Value, depth = 0): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toJson(value[i]!, depth + 1);
    return out;
  }
  const out: JsonObject = {};
  for (const [key, item] of value) setJsonKey(out, key, toJson(item, depth + 1));
  return out;
}

/** Raised by the JSON walkers; callers turn it into the error kind of their boundary. */
export class NotJsonError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path === '' ? 'the value' : path} ${problem}`);
  }
}

/** Any JS value → Nuwa value, refusing whatever is not JSON (TOOLS.md §3). */
export function fromJson(input: unknown): Value {
  if (isPlainScalar(input)) return input ?? null; // the common case: no walker needed
  return new JsonWalker(true).walk(input, 0) as Value;
}

function isPlainScalar(input: unknown): input is string | boolean | number | null | undefined {
  const type = typeof input;
  return type === 'string' || type === 'boolean' || input == null || (type === 'number' && Number.isFinite(input));
}

/** Any JS value → a checked, independent plain-JSON copy (state values, tool arguments). */
export function copyJson(input: unknown): JsonValue {
  if (isPlainScalar(input)) return input ?? null;
  return new JsonWalker(false).walk(input, 0) as JsonValue;
}

class JsonWalker {
  private readonly path: Array<string | number> = [];
  private readonly ancestors = new Set<object>();

  constructor(private readonly toMaps: boolean) {}

  walk(input: unknown, depth: number): Value | JsonValue {
    switch (typeof input) {
      case 'string':
      case 'boolean':
        return input;
      case 'number':
        if (Number.isFinite(input)) return input;
        throw this.fail(`is ${String(input)}, which is not a JSON number`);
      case 'undefined':
        return null;
      case 'bigint':
        throw this.fail('is a BigInt, which is not a JSON value (convert it to a number or string)');
      case 'function':
        throw this.fail('is a function, which is not a JSON value');
      case 'symbol':
        throw this.fail('is a symbol, which is not a JSON value');
    }
    if (input === null) return null;
    const object = input as object;
    if (depth >= MAX_VALUE_DEPTH) throw this.fail(`nests deeper than ${MAX_VALUE_DEPTH} levels`);
    if (this.ancestors.has(object)) throw this.fail('contains a cycle (a value that contains itself)');
    this.ancestors.add(object);
    try {
      if (Array.isArray(object)) return this.walkArray(object, depth);
      const proto = Object.getPrototypeOf(object);
      if (proto !== Object.prototype && proto !== null) {
        const name = (proto?.constructor as { name?: string } | undefined)?.name || 'object';
        throw this.fail(`is a ${name}, which is not a JSON value (return plain objects, lists, strings, numbers, booleans or null)`);
      }
      return this.walkObject(object as Record<string, unknown>, depth);
    } finally {
      this.ancestors.delete(object);
    }
  }

  private walkArray(items: unknown[], depth: number): Value[] | JsonValue[] {
    const out: Array<Value | JsonValue> = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (isPlainScalar(item)) {
        out[i] = item ?? null; // most items of a big list: no path bookkeeping needed
        continue;
      }
      this.path.push(i);
      out[i] = this.walk(item, depth + 1);
      this.path.pop();
    }
    return out as Value[] | JsonValue[];
  }

  private walkObject(object: Record<string, unknown>, depth: number): NuwaObject | JsonObject {
    const map: NuwaObject | undefined = this.toMaps ? new Map() : undefined;
    const plain: JsonObject | undefined = this.toMaps ? undefined : {};
    for (const key of Object.keys(object)) {
      const item = object[key];
      if (item === undefined) continue; // as in JSON.stringify: an undefined property is absent
      this.path.push(key);
      const value = this.walk(item, depth + 1);
      this.path.pop();
      if (map) map.set(key, value as Value);
      else setJsonKey(plain!, key, value as JsonValue);
    }
    return map ?? plain!;
  }

  private fail(problem: string): NotJsonError {
    let path = '';
    for (const part of this.path) path += typeof part === 'number' ? `[${part}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? (path ? `.${part}` : part) : `[${JSON.stringify(part)}]`;
    return new NotJsonError(path, problem);
  }
}
