// The built-ins that build lists from lists (LANGUAGE.md §5): SLICE (of a list or a string), SORT,
// REVERSE and RANGE, and SUM, which adds one up (§8). Their results are new values; the arguments
// are never changed. Each list-building one has steps too (runtime/suspend.ts): on a long list it
// reports its work as it goes and pauses between chunks, SORT included (sorted runs merged, instead
// of one sort call that cannot be paused).
import { NuwaError, type Position } from '../errors.js';
import { describe, formatKeys, NuwaList, NuwaObject, type Value } from '../values/values.js';
import { Args, chargeChars, CHUNK, define, Progress, withSteps, type Builtin, type BuiltinHost } from './builtin-support.js';
import type { FunctionCall } from '../syntax/ast.js';
import { printExpression } from '../syntax/print.js';

/** An index as JavaScript's `slice` reads it: fractions truncated, negatives counted from the end. */
function sliceIndex(index: number, length: number): number {
  const whole = Math.trunc(index);
  return whole < 0 ? Math.max(length + whole, 0) : Math.min(whole, length);
}

const SLICE_USAGE = 'SLICE(list | string, start, end?)';

/** SLICE's arguments checked: a string's slice at once, or the list and the bounds of its items to copy. */
function sliceInput(x: Value | undefined, start: Value | undefined, end: Value | undefined, host: BuiltinHost, at: Position): string | { list: NuwaList; first: number; last: number } {
  const args = new Args('SLICE', SLICE_USAGE, at);
  const from = args.number(start!, 'a start index second');
  const to = end === undefined ? undefined : args.number(end, 'an end index third');
  if (typeof x === 'string') {
    chargeChars(host, x.length);
    return x.slice(from, to);
  }
  const list = args.list(x!, 'a list or string first');
  const first = sliceIndex(from, list.length);
  const last = to === undefined ? list.length : sliceIndex(to, list.length);
  return { list, first, last };
}

function slice([x, start, end]: Value[], host: BuiltinHost, at: Position): Value {
  const input = sliceInput(x, start, end, host, at);
  if (typeof input === 'string') return input;
  const { list, first, last } = input;
  const items: Value[] = [];
  for (let i = first; i < last; i++) items.push(list.at(i));
  host.valueLimits.charge?.(items.length);
  return NuwaList.from(items, host.valueLimits, at);
}

function* sliceSteps([x, start, end]: Value[], host: BuiltinHost, at: Position): Generator<void, Value, void> {
  const input = sliceInput(x, start, end, host, at);
  if (typeof input === 'string') return input;
  const { list, first, last } = input;
  const items: Value[] = [];
  const progress = new Progress(host);
  for (let i = first; i < last; i++) {
    items.push(list.at(i));
    if (progress.add(1)) yield;
  }
  return NuwaList.from(items, host.valueLimits, at);
}

const SORT_USAGE = 'SORT(list) or SORT(list, key)';

/** What a list is sorted by: all numbers or all strings, else a FunctionArgumentError naming the culprits. */
function sortKind(keys: Value[], args: Args, itemName: (i: number) => string): 'number' | 'string' {
  let kind: 'number' | 'string' | undefined;
  let firstAt = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const type = typeof key;
    if (type !== 'number' && type !== 'string') {
      const hint = key instanceof NuwaObject && itemName(i).startsWith('item') ? ': to sort objects, name the key to sort by, e.g. SORT(items, "price")' : '';
      throw args.fail(`SORT sorts numbers or strings, but ${itemName(i)} is ${describe(key)}${hint}`);
    }
    if (kind === undefined) {
      kind = type as 'number' | 'string';
      firstAt = i;
    } else if (type !== kind) {
      throw args.fail(
        `SORT cannot order a mix of numbers and strings: ${itemName(firstAt)} is ${describe(keys[firstAt]!)} but ${itemName(i)} is ${describe(key)}; convert them with NUMBER(...) or STR(...) first`,
      );
    }
  }
  return kind ?? 'number';
}

/** SORT's arguments checked: the items, the keys they sort by (themselves, or a field of each), and their kind. */
function sortInput(x: Value | undefined, key: Value | undefined, at: Position): { items: Value[]; keys: Value[]; kind: 'number' | 'string' } {
  const args = new Args('SORT', SORT_USAGE, at);
  const list = args.list(x!, 'a list first');
  const items = list.toArray();
  let keys: Value[] = items;
  let itemName = (i: number) => `item ${i}`;
  if (key !== undefined) {
    const field = args.string(key, 'the key to sort by (a string) second');
    keys = items.map((item, i) => {
      if (!(item instanceof NuwaObject)) throw args.fail(`SORT with a key sorts a list of objects, but item ${i} is ${describe(item)}`);
      const value = item.get(field);
      if (value === undefined) throw args.fail(`SORT by "${field}": item ${i} has no key "${field}" (its keys: ${formatKeys([...item.keys()]) || 'none'})`);
      return value;
    });
    itemName = (i: number) => `item ${i}'s "${field}"`;
  }
  const kind = sortKind(keys, args, itemName);
  return { items, keys, kind };
}

function sort([x, key]: Value[], host: BuiltinHost, at: Position): NuwaList {
  const { items, keys, kind } = sortInput(x, key, at);
  // Sort positions by their keys; Array.prototype.sort is stable, so equal keys keep their order.
  const order = Array.from(keys, (_, i) => i);
  const limits = host.valueLimits;
  let comparisons = 0;
  const tally = () => {
    if (++comparisons === 4096) {
      comparisons = 0;
      limits.charge?.(4096);
    }
  };
  if (kind === 'number') {
    order.sort((a, b) => {
      tally();
      return (keys[a] as number) - (keys[b] as number);
    });
  } else {
    order.sort((a, b) => {
      tally();
      const left = keys[a] as string;
      const right = keys[b] as string;
      return left < right ? -1 : left > right ? 1 : 0;
    });
  }
  return NuwaList.from(
    order.map((i) => items[i]!),
    host.valueLimits,
    at,
  );
}

function* sortSteps([x, key]: Value[], host: BuiltinHost, at: Position): Generator<void, NuwaList, void> {
  const { items, keys, kind } = sortInput(x, key, at);
  const before =
    kind === 'number'
      ? (a: number, b: number) => (keys[a] as number) - (keys[b] as number)
      : (a: number, b: number) => {
          const left = keys[a] as string;
          const right = keys[b] as string;
          return left < right ? -1 : left > right ? 1 : 0;
        };
  const order = yield* sortPositions(keys.length, before, new Progress(host));
  return NuwaList.from(
    order.map((i) => items[i]!),
    host.valueLimits,
    at,
  );
}

/**
 * The positions 0..n-1 ordered by `compare`, stably, in steps: runs of CHUNK positions are sorted
 * by Array.prototype.sort (stable), then merged pairwise, a pause between chunks of work.
 */
function* sortPositions(n: number, compare: (a: number, b: number) => number, progress: Progress): Generator<void, number[], void> {
  let order = Array.from({ length: n }, (_, i) => i);
  for (let start = 0; start < n; start += CHUNK) {
    const run = order.slice(start, start + CHUNK).sort(compare);
    for (let i = 0; i < run.length; i++) order[start + i] = run[i]!;
    // A sort of k items is about k·log2(k) comparisons.
    if (progress.add(run.length * 16)) yield;
  }
  let other: number[] = new Array(n);
  for (let width = CHUNK; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) {
        // Equal keys keep their order: the left run goes first.
        other[k++] = compare(order[j]!, order[i]!) < 0 ? order[j++]! : order[i++]!;
        if (progress.add(1)) yield;
      }
      while (i < middle) other[k++] = order[i++]!;
      while (j < right) other[k++] = order[j++]!;
    }
    [order, other] = [other, order];
  }
  return order;
}

const RANGE_USAGE = 'RANGE(n) or RANGE(start, end)';

/** RANGE's arguments checked: where the numbers start and how many there are, within maxValueSize. */
function rangeBounds(a: Value | undefined, b: Value | undefined, host: BuiltinHost, at: Position): { start: number; count: number } {
  const args = new Args('RANGE', RANGE_USAGE, at);
  const start = b === undefined ? 0 : args.integer(a!, 'a whole number start');
  const end = b === undefined ? args.integer(a!, 'a whole number n') : args.integer(b, 'a whole number end');
  const count = Math.max(0, end - start);
  const { maxValueSize } = host.valueLimits;
  if (count > maxValueSize) {
    const call = b === undefined ? `RANGE(${end})` : `RANGE(${start}, ${end})`;
    throw new NuwaError('LimitExceededError', `${call} would hold ${count} items, more than maxValueSize (${maxValueSize})`, at);
  }
  return { start, count };
}

function range([a, b]: Value[], host: BuiltinHost, at: Position): NuwaList {
  const { start, count } = rangeBounds(a, b, host, at);
  const items: number[] = new Array(count);
  for (let i = 0; i < count; i++) items[i] = start + i;
  host.valueLimits.charge?.(count);
  return NuwaList.from(items, host.valueLimits, at);
}

function* rangeSteps([a, b]: Value[], host: BuiltinHost, at: Position): Generator<void, NuwaList, void> {
  const { start, count } = rangeBounds(a, b, host, at);
  const items: number[] = new Array(count);
  const progress = new Progress(host);
  for (let i = 0; i < count; i++) {
    items[i] = start + i;
    if (progress.add(1)) yield;
  }
  return NuwaList.from(items, host.valueLimits, at);
}

/** A list (or string, for SLICE) long enough for steps. */
const longList = (value: Value | undefined) => value instanceof NuwaList && value.length >= CHUNK;

const SUM_USAGE = 'SUM(list)';

/** Added left to right, as a FOR loop adding each item to a total would. */
/** SUM over texts or objects: the comprehension that makes numbers of them, with the list as written. */
function sumHint(item: Value, at: Position): string {
  const argument = (at as Partial<FunctionCall>).type === 'FunctionCall' ? (at as FunctionCall).arguments[0] : undefined;
  const list = (argument && printExpression(argument)) ?? 'items';
  if (typeof item === 'string') return `: convert text with NUMBER: write SUM([NUMBER(s) FOR s IN ${list}])`;
  if (!(item instanceof NuwaObject)) return '';
  const field = [...item.keys()].find((key) => typeof item.get(key) === 'number' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) ?? 'price';
  return `: to add a field of objects, write SUM([o.${field} FOR o IN ${list}])`;
}

function sum([x]: Value[], host: BuiltinHost, at: Position): number {
  const args = new Args('SUM', SUM_USAGE, at);
  if (typeof x === 'number') throw args.fail(`SUM adds the numbers of one list, got ${describe(x)}: write SUM([a, b, ...]), or a + b`);
  const list = args.list(x!, 'a list of numbers');
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const item = list.at(i);
    if (typeof item !== 'number') {
      const hint = sumHint(item, at);
      throw args.fail(`SUM adds numbers, but item ${i} is ${describe(item)}${hint}`);
    }
    total += item;
  }
  host.valueLimits.charge?.(list.length);
  if (!Number.isFinite(total)) throw new NuwaError('TypeError', 'the sum is too large to be a number (overflow)', at);
  return total;
}

export const LIST_BUILTINS: Builtin[] = [
  withSteps(
    define('SLICE', 2, 3, SLICE_USAGE, 'the part of a list or string from start up to (not including) end; negative indexes count from the end', slice),
    ([x]) => longList(x),
    sliceSteps,
  ),
  withSteps(
    define('SORT', 1, 2, SORT_USAGE, "a new list sorted ascending (numbers, or strings by code units); with key, objects sorted by that field; stable", sort),
    ([x]) => longList(x),
    sortSteps,
  ),
  withSteps(
    define('REVERSE', 1, 1, 'REVERSE(list)', 'a new list with the items in reverse order', ([x], host, at) => {
      const list = new Args('REVERSE', 'REVERSE(list)', at).list(x!);
      host.valueLimits.charge?.(list.length);
      return NuwaList.from(list.toArray().reverse(), host.valueLimits, at);
    }),
    ([x]) => longList(x),
    function* ([x], host, at) {
      const list = new Args('REVERSE', 'REVERSE(list)', at).list(x!);
      const items: Value[] = new Array(list.length);
      const progress = new Progress(host);
      for (let i = 0; i < list.length; i++) {
        items[i] = list.at(list.length - 1 - i);
        if (progress.add(1)) yield;
      }
      return NuwaList.from(items, host.valueLimits, at);
    },
  ),
  withSteps(
    define('RANGE', 1, 2, RANGE_USAGE, 'the list of whole numbers 0 .. n-1, or start .. end-1', range),
    ([a, b]) => {
      const count = b === undefined ? a : typeof a === 'number' && typeof b === 'number' ? b - a : 0;
      return typeof count === 'number' && count >= CHUNK;
    },
    rangeSteps,
  ),
  define('SUM', 1, 1, SUM_USAGE, 'the sum of a list of numbers (0 for an empty list)', sum),
];
