// What a Nuwa value is, and how big it is.
//
// Values are immutable and shared: `LET x = [x, x]` puts the same list in two places. Forty such
// statements make a value of 2^40 items in a few kilobytes of memory, and whatever expands it
// (printing, comparing, handing it to a tool or a host) would run out of memory. So every list and
// object records, when it is built, its totals as if it were fully expanded — items and entries,
// characters of its strings and keys, nesting depth — computed from its parts' totals in constant
// work per part. A value over the limits is refused where it would be built, and every expansion of
// a value that exists is bounded by them.
//
// Lists are views: a backing array and a length. APPEND pushes onto the backing array when the list
// is the newest version over it and copies only when an older version is appended to, so building
// a list in a loop is linear while every version stays unchanged for whoever holds it.
import { NuwaError, type Position } from '../errors.js';

export type Value = null | boolean | number | string | NuwaList | NuwaObject;
export type TypeName = 'number' | 'string' | 'boolean' | 'null' | 'list' | 'object';

/** Lists and objects may nest this deep; deeper values are refused at every boundary. */
export const MAX_VALUE_DEPTH = 1000;

/** The limits values are built under (TOOLS.md §7), and the run's clock for long walks. */
export interface ValueLimits {
  /** Items and entries in any one value, nested ones included and shared ones counted each time. */
  readonly maxValueSize: number;
  /** Characters in any one string, and in all the strings of any one value together. */
  readonly maxStringLength: number;
  /**
   * Told about work done in units of about one value node each, every few thousand nodes of a long
   * walk (equality, printing, conversion); may throw to stop it, as a run past its deadline does.
   */
  readonly charge?: (units: number) => void;
}

export const DEFAULT_VALUE_LIMITS: ValueLimits = Object.freeze({
  maxValueSize: 1_000_000,
  maxStringLength: 10_000_000,
});

/** How many nodes a walk visits between two calls of `charge`. */
export const WORK_CHUNK = 4096;

export function tooDeep(): NuwaError {
  return new NuwaError('LimitExceededError', `value nested deeper than ${MAX_VALUE_DEPTH} levels`);
}

/** A string of `length` characters would be over the limit: refuse it before or after building it. */
export function checkStringLength(length: number, limits: ValueLimits, what = 'the string', at?: Position): void {
  if (length > limits.maxStringLength) {
    throw new NuwaError('LimitExceededError', `${what} would be ${length} characters long, more than maxStringLength (${limits.maxStringLength})`).at(at);
  }
}

/** Refuses a list or object whose totals are over the limits. */
export function checkTotals(items: number, chars: number, depth: number, limits: ValueLimits, noun: string, at?: Position): void {
  if (items > limits.maxValueSize) {
    throw new NuwaError(
      'LimitExceededError',
      `${noun} would hold ${items} items and entries (nested ones included, shared ones counted each time they appear), more than maxValueSize (${limits.maxValueSize})`,
    ).at(at);
  }
  if (chars > limits.maxStringLength) {
    throw new NuwaError(
      'LimitExceededError',
      `the strings in ${noun} would add up to ${chars} characters (shared ones counted each time they appear), more than maxStringLength (${limits.maxStringLength}): its string form could not be built either`,
    ).at(at);
  }
  if (depth > MAX_VALUE_DEPTH) throw tooDeep().at(at);
}

/** Items and entries in a value, fully expanded (0 for a scalar). */
export function itemsIn(value: Value): number {
  return typeof value === 'object' && value !== null ? value.totalItems : 0;
}

/** Characters of the strings (and keys) in a value, fully expanded. */
export function charsIn(value: Value): number {
  if (typeof value === 'string') return value.length;
  return typeof value === 'object' && value !== null ? value.totalChars : 0;
}

/** Nesting depth: 0 for a scalar, 1 for a list of scalars. */
export function depthOf(value: Value): number {
  return typeof value === 'object' && value !== null ? value.depth : 0;
}

export class NuwaList {
  private constructor(
    // Items 0 .. length-1 are this list's. A newer list made by APPEND may share the array and use
    // more of it; nothing ever changes an item below this list's length.
    private readonly backing: Value[],
    readonly length: number,
    readonly totalItems: number,
    readonly totalChars: number,
    readonly depth: number,
  ) {}

  /** A list of `items`, which it takes over: the caller must not change the array afterwards. */
  static from(items: Value[], limits: ValueLimits = DEFAULT_VALUE_LIMITS, at?: Position): NuwaList {
    let total = items.length;
    let chars = 0;
    let depth = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (typeof item === 'string') chars += item.length;
      else if (typeof item === 'object' && item !== null) {
        total += item.totalItems;
        chars += item.totalChars;
        if (item.depth > depth) depth = item.depth;
      }
    }
    checkTotals(total, chars, depth + 1, limits, 'the list', at);
    return new NuwaList(items, items.length, total, chars, depth + 1);
  }

  /**
   * A list every run of a script shares (a list literal of literals, made once when the script is
   * compiled): its array has one slot more than its items, so that APPEND copies it rather than add
   * to an array the compiled script keeps. Throws when the items are over the default limits.
   */
  static shared(items: readonly Value[]): NuwaList {
    const list = NuwaList.from(items.slice());
    list.backing.push(null); // past its length: never one of its items
    return list;
  }

  static empty(): NuwaList {
    return new NuwaList([], 0, 0, 0, 1);
  }

  /** The item at `index`, which the caller has checked is within 0 .. length-1. */
  at(index: number): Value {
    return this.backing[index]!;
  }

  /** A new list: this one followed by `value`. Amortised O(1) when this is the newest version. */
  append(value: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS, at?: Position): NuwaList {
    const total = this.totalItems + 1 + itemsIn(value);
    const chars = this.totalChars + charsIn(value);
    const depth = Math.max(this.depth, depthOf(value) + 1);
    checkTotals(total, chars, depth, limits, 'the list', at);
    let backing = this.backing;
    if (backing.length !== this.length) backing = backing.slice(0, this.length); // an older version: copy
    backing.push(value);
    return new NuwaList(backing, this.length + 1, total, chars, depth);
  }

  /** A fresh array of the items. */
  toArray(): Value[] {
    return this.backing.slice(0, this.length);
  }

  *[Symbol.iterator](): IterableIterator<Value> {
    for (let i = 0; i < this.length; i++) yield this.backing[i]!;
  }
}

/**
 * An object: string keys in insertion order (not a JavaScript object's order, so `__proto__` is an
 * ordinary key and "2024" keeps its place). Whoever builds one sets its entries, then calls `seal`
 * once, before anyone else sees it; from then on it never changes.
 *
 * The entries are one array of key, value, key, value... A tool's answer becomes one of these on
 * every call, and a Map's table of four entries, made for every object however small, was twice
 * the size of the array: for a host with thousands of runs waiting on tools, garbage made at every
 * answer is what keeps the young generation full. Past INDEXED entries, a Map from each key to its
 * place is made at the first lookup, so that a big object is not searched from its start.
 */
export class NuwaObject implements Iterable<[string, Value]> {
  private slots: Array<string | Value>;
  /** Where each key's slot is, once the object has more than INDEXED entries and was looked up. */
  private index: Map<string, number> | null;
  totalItems: number;
  totalChars: number;
  depth: number;

  /** An object of `entries`, in their order (a key given twice keeps its first place and its last value). */
  constructor(entries?: Iterable<readonly [string, Value]>, slots: Array<string | Value> = []) {
    this.slots = slots;
    this.index = null;
    this.totalItems = 0;
    this.totalChars = 0;
    this.depth = 1;
    if (entries !== undefined) for (const [key, value] of entries) this.set(key, value);
  }

  /**
   * An object of `slots` (key, value, key, value...; no key twice), which it takes over: the caller
   * must not change the array afterwards. Not sealed yet.
   */
  static ofSlots(slots: Array<string | Value>): NuwaObject {
    return new NuwaObject(undefined, slots);
  }

  get size(): number {
    return this.slots.length >> 1;
  }

  /** The slot of `key`'s name, or -1. */
  private find(key: string): number {
    const slots = this.slots;
    if (slots.length <= 2 * INDEXED) {
      for (let i = 0; i < slots.length; i += 2) if (slots[i] === key) return i;
      return -1;
    }
    let index = this.index;
    if (index === null) {
      index = new Map();
      for (let i = 0; i < slots.length; i += 2) if (!index.has(slots[i] as string)) index.set(slots[i] as string, i);
      this.index = index;
    }
    return index.get(key) ?? -1;
  }

  get(key: string): Value | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : (this.slots[at + 1] as Value);
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  /** While it is being built: sets `key` (a key set again keeps its place). */
  set(key: string, value: Value): this {
    const at = this.find(key);
    if (at >= 0) {
      this.slots[at + 1] = value;
    } else {
      this.slots.push(key, value);
      this.index?.set(key, this.slots.length - 2);
    }
    return this;
  }

  forEach(each: (value: Value, key: string) => void): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) each(slots[i + 1] as Value, slots[i] as string);
  }

  *keys(): IterableIterator<string> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) yield slots[i] as string;
  }

  *values(): IterableIterator<Value> {
    const slots = this.slots;
    for (let i = 1; i < slots.length; i += 2) yield slots[i] as Value;
  }

  *entries(): IterableIterator<[string, Value]> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) yield [slots[i] as string, slots[i + 1] as Value];
  }

  [Symbol.iterator](): IterableIterator<[string, Value]> {
    return this.entries();
  }

  /** The key of entry `i` (0 .. size-1), and its value: a walk without an iterator. */
  keyAt(i: number): string {
    return this.slots[2 * i] as string;
  }
  valueAt(i: number): Value {
    return this.slots[2 * i + 1] as Value;
  }

  /** Records the totals of the entries set so far and checks them against the limits. */
  seal(limits: ValueLimits = DEFAULT_VALUE_LIMITS, at?: Position): this {
    const slots = this.slots;
    let chars = 0;
    let items = slots.length >> 1;
    let depth = 0;
    for (let i = 0; i < slots.length; i += 2) {
      chars += (slots[i] as string).length;
      const item = slots[i + 1] as Value;
      if (typeof item === 'string') chars += item.length;
      else if (typeof item === 'object' && item !== null) {
        items += item.totalItems;
        chars += item.totalChars;
        if (item.depth > depth) depth = item.depth;
      }
    }
    checkTotals(items, chars, depth + 1, limits, 'the object', at);
    this.totalItems = items;
    this.totalChars = chars;
    this.depth = depth + 1;
    return this;
  }
}

/** Objects of up to this many entries are searched key by key; bigger ones get an index. */
const INDEXED = 8;

/** A sealed object of the given entries. */
export function objectOf(entries: Iterable<readonly [string, Value]>, limits: ValueLimits = DEFAULT_VALUE_LIMITS): NuwaObject {
  const object = new NuwaObject();
  for (const [key, value] of entries) object.set(key, value);
  return object.seal(limits);
}

/** A list of the given items (copied). */
export function listOf(items: Iterable<Value>, limits: ValueLimits = DEFAULT_VALUE_LIMITS): NuwaList {
  return NuwaList.from([...items], limits);
}

/**
 * Counts work for a walk over a value — each list or object adds its items or entries as it is
 * entered — and reports it to `limits.charge` every WORK_CHUNK units or so. Small values (the
 * common case) never reach a report.
 */
export class Work {
  private pending = 0;

  // The limits, not their `charge` read off them: a run's charge is its method (tools/run.ts).
  constructor(protected limits: ValueLimits) {}

  /** Counts from nothing, against `limits` (a Work used again). */
  protected reset(limits: ValueLimits): void {
    this.limits = limits;
    this.pending = 0;
  }

  add(units: number): void {
    this.pending += units;
    if (this.pending >= WORK_CHUNK) {
      const units = this.pending;
      this.pending = 0;
      this.limits.charge?.(units);
    }
  }
}
