// The built-ins that build lists from lists (LANGUAGE.md §5): SLICE (of a list or a string), SORT,
// REVERSE and RANGE, and SUM, which adds one up (§8). Their results are new values; the arguments
// are never changed.
import { NuwaError, type Position } from '../errors.js';
import { describe, formatKeys, NuwaList, NuwaObject, type Value } from '../values/values.js';
import { Args, chargeChars, define, type Builtin, type BuiltinHost } from './builtin-support.js';

/** An index as JavaScript's `slice` reads it: fractions truncated, negatives counted from the end. */
function sliceIndex(index: number, length: number): number {
  const whole = Math.trunc(index);
  return whole < 0 ? Math.max(length + whole, 0) : Math.min(whole, length);
}

const SLICE_USAGE = 'SLICE(list | string, start, end?)';

function slice([x, start, end]: Value[], host: BuiltinHost, at: Position): Value {
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
  const items: Value[] = [];
  for (let i = first; i < last; i++) items.push(list.at(i));
  host.valueLimits.charge?.(items.length);
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

function sort([x, key]: Value[], host: BuiltinHost, at: Position): NuwaList {
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
  // Sort positions by their keys; Array.prototype.sort is stable, so equal keys keep their order.
  const order = Array.from(keys, (_, i) => i);
  const charge = host.valueLimits.charge;
  let comparisons = 0;
  const tally = () => {
    if (++comparisons === 4096) {
      comparisons = 0;
      charge?.(4096);
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

const RANGE_USAGE = 'RANGE(n) or RANGE(start, end)';

function range([a, b]: Value[], host: BuiltinHost, at: Position): NuwaList {
  const args = new Args('RANGE', RANGE_USAGE, at);
  const start = b === undefined ? 0 : args.integer(a!, 'a whole number start');
  const end = b === undefined ? args.integer(a!, 'a whole number n') : args.integer(b, 'a whole number end');
  const count = Math.max(0, end - start);
  const { maxValueSize } = host.valueLimits;
  if (count > maxValueSize) {
    const call = b === undefined ? `RANGE(${end})` : `RANGE(${start}, ${end})`;
    throw new NuwaError('LimitExceededError', `${call} would hold ${count} items, more than maxValueSize (${maxValueSize})`, at);
  }
  const items: number[] = new Array(count);
  for (let i = 0; i < count; i++) items[i] = start + i;
  host.valueLimits.charge?.(count);
  return NuwaList.from(items, host.valueLimits, at);
}

const SUM_USAGE = 'SUM(list)';

/** Added left to right, as a FOR loop adding each item to a total would. */
function sum([x]: Value[], host: BuiltinHost, at: Position): number {
  const args = new Args('SUM', SUM_USAGE, at);
  if (typeof x === 'number') throw args.fail(`SUM adds the numbers of one list, got ${describe(x)}: write SUM([a, b, ...]), or a + b`);
  const list = args.list(x!, 'a list of numbers');
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const item = list.at(i);
    if (typeof item !== 'number') {
      const hint = typeof item === 'string' ? ': convert text with NUMBER(...), e.g. SUM([NUMBER(s) FOR s IN texts])' : item instanceof NuwaObject ? ': to add a field of objects, write SUM([o.price FOR o IN items])' : '';
      throw args.fail(`SUM adds numbers, but item ${i} is ${describe(item)}${hint}`);
    }
    total += item;
  }
  host.valueLimits.charge?.(list.length);
  if (!Number.isFinite(total)) throw new NuwaError('TypeError', 'the sum is too large to be a number (overflow)', at);
  return total;
}

export const LIST_BUILTINS: Builtin[] = [
  define('SLICE', 2, 3, SLICE_USAGE, 'the part of a list or string from start up to (not including) end; negative indexes count from the end', slice),
  define('SORT', 1, 2, SORT_USAGE, "a new list sorted ascending (numbers, or strings by code units); with key, objects sorted by that field; stable", sort),
  define('REVERSE', 1, 1, 'REVERSE(list)', 'a new list with the items in reverse order', ([x], host, at) => {
    const list = new Args('REVERSE', 'REVERSE(list)', at).list(x!);
    host.valueLimits.charge?.(list.length);
    return NuwaList.from(list.toArray().reverse(), host.valueLimits, at);
  }),
  define('RANGE', 1, 2, RANGE_USAGE, 'the list of whole numbers 0 .. n-1, or start .. end-1', range),
  define('SUM', 1, 1, SUM_USAGE, 'the sum of a list of numbers (0 for an empty list)', sum),
];
