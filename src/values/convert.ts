// The JSON boundary: Nuwa values out to plain JSON (tool arguments, variables, events), and any JS
// value in from a tool or host, checked to be JSON and within the limits. A host value may share
// structure as much as a script's can (an array holding the same array twice, forty levels deep),
// so the walk in counts what it expands and stops at the limit instead of expanding it all.
import type { JsonObject, JsonValue } from './json.js';
import { NuwaError } from '../errors.js';
import { DEFAULT_VALUE_LIMITS, MAX_VALUE_DEPTH, NuwaList, NuwaObject, tooDeep, Work, type Value, type ValueLimits } from './model.js';

/** Sets a key on a plain object; `__proto__` becomes an own property instead of a prototype change. */
export function setJsonKey(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Nuwa value → plain JSON value (always a fresh copy of lists and objects). */
export function toJson(value: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  return plain(value, 0, new Work(limits));
}

function plain(value: Value, depth: number, work: Work): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
  if (value instanceof NuwaList) {
    work.add(value.length);
    const out: JsonValue[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value.at(i);
      out[i] = typeof item === 'object' && item !== null ? plain(item, depth + 1, work) : item;
    }
    return out;
  }
  work.add(value.size);
  const out: JsonObject = {};
  // Entry by entry, by index: no iterator, no array per entry, no lookup of each key.
  for (let i = 0; i < value.size; i++) setJsonKey(out, value.keyAt(i), plain(value.valueAt(i), depth + 1, work));
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

/**
 * Any JS value → Nuwa value, refusing whatever is not JSON (NotJsonError, TOOLS.md §3) and whatever
 * is over the limits (a LimitExceededError NuwaError).
 */
export function fromJson(input: unknown, limits: ValueLimits = DEFAULT_VALUE_LIMITS): Value {
  if (isPlainScalar(input)) return scalar(input, limits); // the common case: no walker needed
  return walked(true, input, limits) as Value;
}

/** Any JS value → a checked, independent plain-JSON copy (state values, tool arguments). */
export function copyJson(input: unknown, limits: ValueLimits = DEFAULT_VALUE_LIMITS): JsonValue {
  if (isPlainScalar(input)) return scalar(input, limits);
  return walked(false, input, limits) as JsonValue;
}

/**
 * Walkers not in use. A walk is made for every tool's answer, so its walker is one used before
 * rather than a new one each time (garbage that, made for every call of thousands of waiting runs,
 * makes the young generation keep the objects of the calls in flight). A walk can run host code (a
 * getter, a proxy) that walks again: that walk takes another walker.
 */
const idleWalkers: JsonWalker[] = [];

function walked(toValues: boolean, input: unknown, limits: ValueLimits): Value | JsonValue {
  const walker = idleWalkers.pop() ?? new JsonWalker();
  walker.begin(toValues, limits);
  try {
    return walker.walk(input, 0);
  } finally {
    walker.end();
    if (idleWalkers.length < 8) idleWalkers.push(walker);
  }
}

function isPlainScalar(input: unknown): input is string | boolean | number | null | undefined {
  const type = typeof input;
  return type === 'string' || type === 'boolean' || input == null || (type === 'number' && Number.isFinite(input));
}

function scalar(input: string | boolean | number | null | undefined, limits: ValueLimits): string | boolean | number | null {
  if (typeof input === 'string' && input.length > limits.maxStringLength) throw stringTooLong('the value', input.length, limits);
  return input ?? null;
}

function stringTooLong(where: string, length: number, limits: ValueLimits): NuwaError {
  return new NuwaError('LimitExceededError', `${where} is a string of ${length} characters, more than maxStringLength (${limits.maxStringLength})`);
}

const hasOwn = Object.hasOwn;

/** A walker whose entries array grew past this many slots lets go of it at the end of the walk. */
const BIG_SLOTS = 4096;

/** How many ancestors of the object being walked are searched one by one; deeper ones go in a Set. */
const ANCESTORS_SCANNED = 32;

// A walker is made for every tool's answer and every state value that is a list or an object: most
// are one small object of scalars (`{ id, name, price }`), so the walker allocates nothing for them
// beyond itself (it is its own Work counter, and its path is made at the first nested value). A Set
// of ancestors and a path array grown on every entry cost more than the copy itself, in a host with
// thousands of runs waiting on tools, each making a walker per call.
class JsonWalker extends Work {
  /** Whether the copy is made of Nuwa values (fromJson) or plain JSON (copyJson). */
  private toValues = false;
  /** Keys and indexes from the root down to the item being walked; only nested lists and objects (and failures) push here. */
  private path: Array<string | number> | null = null;
  /** The list or object the walk started at, while it is walked (cycles). */
  private root: object | null = null;
  /** The lists and objects below the root enclosing the one being walked, outermost first: made at the first nested one. */
  private ancestors: object[] | null = null;
  /** Ancestors beyond the first ANCESTORS_SCANNED (a deep value), where a scan would cost too much. */
  private deepAncestors: Set<object> | null = null;
  // What the copy holds so far, expanded: stops a self-sharing input long before it fills memory.
  private items = 0;
  private chars = 0;
  /**
   * The entries (key, value...) of the objects being made (fromJson), innermost last: each object is
   * copied from here to an array of its own size once walked (pushing to its own array would leave
   * it room for sixteen).
   */
  private slots: Array<string | Value> = [];
  /** How many of `slots` are in use (setting an array's length lower would give up its room). */
  private slotsUsed = 0;
  /** A walk left `slots` big: it is let go of at the end rather than kept by an idle walker. */
  private bigSlots = false;

  constructor() {
    super(DEFAULT_VALUE_LIMITS);
  }

  begin(toValues: boolean, limits: ValueLimits): void {
    this.toValues = toValues;
    this.reset(limits);
  }

  /** Lets go of what the walk held (a failed walk leaves its place on the path and its ancestors). */
  end(): void {
    this.path = null;
    this.root = null;
    this.ancestors = null;
    this.deepAncestors = null;
    this.items = 0;
    this.chars = 0;
    if (this.bigSlots) this.slots = [];
    else this.slots.fill(null, 0, this.slotsUsed); // a failed walk's entries: not kept alive by an idle walker
    this.slotsUsed = 0;
    this.bigSlots = false;
    this.reset(DEFAULT_VALUE_LIMITS);
  }

  walk(input: unknown, depth: number): Value | JsonValue {
    switch (typeof input) {
      case 'string':
        this.countChars(input.length);
        return input;
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
    if (this.isAncestor(object)) throw this.fail('contains a cycle (a value that contains itself)');
    this.enter(object, depth);
    try {
      if (Array.isArray(object)) return this.walkArray(object, depth);
      const proto = Object.getPrototypeOf(object);
      if (proto !== Object.prototype && proto !== null) {
        const name = (proto?.constructor as { name?: string } | undefined)?.name || 'object';
        throw this.fail(`is a ${name}, which is not a JSON value (return plain objects, lists, strings, numbers, booleans or null)`);
      }
      return this.walkObject(object as Record<string, unknown>, depth);
    } finally {
      this.leave(object, depth);
    }
  }

  private isAncestor(object: object): boolean {
    if (object === this.root) return true;
    const ancestors = this.ancestors;
    if (ancestors === null) return false;
    const scanned = Math.min(ancestors.length, ANCESTORS_SCANNED);
    for (let i = 0; i < scanned; i++) if (ancestors[i] === object) return true;
    return this.deepAncestors !== null && this.deepAncestors.has(object);
  }

  private enter(object: object, depth: number): void {
    if (depth === 0) {
      this.root = object;
      return;
    }
    const ancestors = (this.ancestors ??= []);
    if (ancestors.length >= ANCESTORS_SCANNED) (this.deepAncestors ??= new Set()).add(object);
    ancestors.push(object);
  }

  private leave(object: object, depth: number): void {
    if (depth === 0) {
      this.root = null;
      return;
    }
    const ancestors = this.ancestors!;
    ancestors.pop();
    if (ancestors.length >= ANCESTORS_SCANNED) this.deepAncestors!.delete(object);
  }

  /** Counts the items or entries of a list or object as it is entered, before walking them. */
  private countItems(count: number): void {
    this.items += count;
    if (this.items > this.limits.maxValueSize) {
      throw new NuwaError(
        'LimitExceededError',
        `the value holds more than maxValueSize (${this.limits.maxValueSize}) items and entries (nested ones included, shared ones counted each time they appear)`,
      );
    }
    this.add(count);
  }

  private countChars(length: number): void {
    if (length > this.limits.maxStringLength) throw stringTooLong(this.where(), length, this.limits);
    this.chars += length;
    if (this.chars > this.limits.maxStringLength) {
      throw new NuwaError(
        'LimitExceededError',
        `the strings in the value add up to more than maxStringLength (${this.limits.maxStringLength}) characters (shared ones counted each time they appear)`,
      );
    }
  }

  private walkArray(items: unknown[], depth: number): NuwaList | JsonValue[] {
    this.countItems(items.length);
    const out = this.copyItems(items, depth);
    return this.toValues ? NuwaList.from(out as Value[], this.limits) : (out as JsonValue[]);
  }

  /**
   * The items, walked. (A function of its own: a long loop is optimised while it runs, and code
   * after it that had not run yet would throw that optimised code away at its end, on every call.)
   */
  private copyItems(items: unknown[], depth: number): Array<Value | JsonValue> {
    const out: Array<Value | JsonValue> = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      // Most items of a big list are scalars within the limits: no path bookkeeping for them.
      if ((typeof item === 'number' && Number.isFinite(item)) || typeof item === 'boolean' || item === null) {
        out[i] = item;
        continue;
      }
      if (typeof item === 'string' && this.chars + item.length <= this.limits.maxStringLength) {
        this.chars += item.length;
        out[i] = item;
        continue;
      }
      (this.path ??= []).push(i);
      out[i] = this.walk(item, depth + 1);
      this.path!.pop();
    }
    return out;
  }

  private walkObject(object: Record<string, unknown>, depth: number): NuwaObject | JsonObject {
    const toValues = this.toValues;
    const slots = this.slots;
    const start = this.slotsUsed;
    const plain: JsonObject | undefined = toValues ? undefined : {};
    // for...in, not Object.keys: no array of the keys for every object. Only own keys: the object's
    // prototype is Object.prototype or null (walk), and an enumerable key added to Object.prototype is no entry of it.
    for (const key in object) {
      if (!hasOwn(object, key)) continue;
      const item = object[key];
      if (item === undefined) continue; // as in JSON.stringify: an undefined property is absent
      this.countItems(1);
      let value: Value | JsonValue;
      // A scalar within the limits (most entries) needs no path: nothing about it can fail.
      if ((typeof item === 'number' && Number.isFinite(item)) || typeof item === 'boolean' || item === null) {
        if (this.chars + key.length > this.limits.maxStringLength) this.countKey(key);
        else this.chars += key.length;
        value = item;
      } else if (typeof item === 'string' && this.chars + key.length + item.length <= this.limits.maxStringLength && item.length <= this.limits.maxStringLength) {
        this.chars += key.length + item.length;
        value = item;
      } else {
        (this.path ??= []).push(key);
        this.countChars(key.length);
        value = this.walk(item, depth + 1);
        this.path!.pop();
      }
      // An object's own keys are each there once: no key is looked for before it is added.
      if (toValues) {
        slots[this.slotsUsed++] = key;
        slots[this.slotsUsed++] = value as Value;
      } else {
        setJsonKey(plain!, key, value as JsonValue);
      }
    }
    if (!toValues) return plain!;
    const end = this.slotsUsed;
    if (end > BIG_SLOTS) this.bigSlots = true;
    const own = slots.slice(start, end);
    slots.fill(null, start, end); // the values are the object's now: the walker keeps none alive
    this.slotsUsed = start;
    return NuwaObject.ofSlots(own).seal(this.limits);
  }

  /** countChars for a key, named in the message as the entry it is the key of. */
  private countKey(key: string): void {
    (this.path ??= []).push(key);
    this.countChars(key.length);
    this.path!.pop();
  }

  private where(): string {
    let path = '';
    for (const part of this.path ?? []) path += typeof part === 'number' ? `[${part}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? (path ? `.${part}` : part) : `[${JSON.stringify(part)}]`;
    return path === '' ? 'the value' : path;
  }

  private fail(problem: string): NotJsonError {
    const where = this.where();
    return new NotJsonError(where === 'the value' ? '' : where, problem);
  }
}
