// Unit tests for the value limits (src/values): maxValueSize and maxStringLength refuse a value
// where it would be built — literals and built-ins through NuwaList/NuwaObject, host and tool values
// through fromJson/copyJson — and every walk over a value (equality, text, conversion) reports its
// work to the run's clock, which may stop it.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import {
  checkTotals,
  copyJson,
  DEFAULT_VALUE_LIMITS,
  equals,
  fromJson,
  listOf,
  NuwaObject,
  objectOf,
  toDisplayString,
  toJson,
  toJsonText,
  type Value,
  type ValueLimits,
} from '../../../src/values/values.js';
import { thrownBy } from '../../support/thrown.js';

function limitError(run: () => unknown): NuwaError {
  const error = thrownBy(run, NuwaError);
  if (error.kind !== 'LimitExceededError') throw error;
  return error;
}

/** A host value holding the same array twice, `times` levels deep: 2^(times+1) - 2 items expanded. */
function selfSharing(times: number): unknown {
  let value: unknown = [1];
  for (let i = 0; i < times; i++) value = [value, value];
  return value;
}

describe('the defaults', () => {
  it('are finite and generous: a million items, ten million characters', () => {
    expect(DEFAULT_VALUE_LIMITS).toEqual({ maxValueSize: 1_000_000, maxStringLength: 10_000_000 });
  });
});

describe('checkTotals', () => {
  const limits: ValueLimits = { maxValueSize: 5, maxStringLength: 8 };

  it('accepts totals up to the limits and names the limit and the total beyond them', () => {
    expect(() => checkTotals(5, 8, 1000, limits, 'the list')).not.toThrow();
    expect(limitError(() => checkTotals(6, 0, 1, limits, 'the list')).message).toBe(
      'the list would hold 6 items and entries (nested ones included, shared ones counted each time they appear), more than maxValueSize (5)',
    );
    expect(limitError(() => checkTotals(1, 9, 1, limits, 'the object')).message).toMatch(/^the strings in the object would add up to 9 characters .* more than maxStringLength \(8\)/);
    expect(limitError(() => checkTotals(1, 1, 1001, limits, 'the list')).message).toBe('value nested deeper than 1000 levels');
  });

  it('attaches the position it is given', () => {
    const error = limitError(() => checkTotals(6, 0, 1, limits, 'the list', { line: 2, column: 5 }));
    expect([error.line, error.column]).toEqual([2, 5]);
  });
});

describe('building lists and objects', () => {
  const limits: ValueLimits = { maxValueSize: 4, maxStringLength: 6 };

  it('refuses a list or object over maxValueSize, counting nested and shared items', () => {
    const pair = listOf([1, 2], limits);
    expect(listOf([pair], limits).totalItems).toBe(3);
    expect(limitError(() => listOf([pair, pair], limits)).message).toMatch(/^the list would hold 6 items/);
    expect(limitError(() => objectOf([['a', pair], ['b', 1], ['c', 2]], limits)).message).toMatch(/^the object would hold 5 items/);
  });

  it('counts the characters of keys and strings, shared ones each time', () => {
    expect(objectOf([['ab', 'cd']], limits).totalChars).toBe(4);
    const roomy = { ...limits, maxValueSize: 100 };
    const three = listOf(['abc'], roomy);
    expect(listOf([three, three], roomy).totalChars).toBe(6);
    expect(limitError(() => listOf([three, three, 'x'], roomy)).message).toMatch(/would add up to 7 characters/);
  });

  it('seals an object once it is built: its totals cover the entries that were set', () => {
    const object = new NuwaObject();
    object.set('a', listOf([1, 2]));
    object.set('a', 3); // a repeated key: the last value wins, as in a literal
    object.seal();
    expect([object.totalItems, object.totalChars, object.depth]).toEqual([1, 1, 1]);
  });
});

describe('fromJson and copyJson: values from hosts and tools', () => {
  const limits: ValueLimits = { maxValueSize: 1000, maxStringLength: 50 };

  it('stop at maxValueSize while walking a self-sharing value, instead of expanding it all', () => {
    // 2^13 - 2 items expanded; hostile.test.ts tries 2^40 in a child process with a memory cap.
    const shared = selfSharing(12);
    expect(limitError(() => fromJson(shared, limits)).message).toBe(
      'the value holds more than maxValueSize (1000) items and entries (nested ones included, shared ones counted each time they appear)',
    );
    expect(limitError(() => copyJson(shared, limits)).message).toMatch(/maxValueSize \(1000\)/);
    expect(() => fromJson(shared)).not.toThrow();
  });

  it('accept a shared value within the limit, expanded', () => {
    expect(toJsonText(fromJson(selfSharing(3), limits))).toBe('[[[[1],[1]],[[1],[1]]],[[[1],[1]],[[1],[1]]]]');
    expect(copyJson(selfSharing(2), limits)).toEqual([[[1], [1]], [[1], [1]]]);
  });

  it('refuse a string longer than maxStringLength, saying where it is', () => {
    const long = 'x'.repeat(51);
    expect(limitError(() => fromJson(long, limits)).message).toBe('the value is a string of 51 characters, more than maxStringLength (50)');
    expect(limitError(() => fromJson({ rows: [{ text: long }] }, limits)).message).toBe('rows[0].text is a string of 51 characters, more than maxStringLength (50)');
    expect(limitError(() => copyJson([long], limits)).message).toMatch(/^\[0\] is a string of 51 characters/);
    expect(limitError(() => fromJson({ [long]: 1 }, limits)).message).toMatch(/is a string of 51 characters/);
  });

  it('refuse strings that add up past maxStringLength, shared ones counted each time', () => {
    const thirty = 'y'.repeat(30);
    expect(limitError(() => fromJson([thirty, thirty], limits)).message).toMatch(/the strings in the value add up to more than maxStringLength \(50\)/);
    expect(limitError(() => copyJson({ a: thirty, b: { c: thirty } }, limits)).message).toMatch(/add up to more than maxStringLength/);
  });

  it('give lists and objects the same totals as building them in a script', () => {
    const value = fromJson({ a: [1, 'xy', { b: null }] }) as NuwaObject;
    const built = objectOf([['a', listOf([1, 'xy', objectOf([['b', null]])])]]);
    expect([value.totalItems, value.totalChars, value.depth]).toEqual([built.totalItems, built.totalChars, built.depth]);
  });
});

describe('walks over values report their work to the clock', () => {
  function big(): Value {
    return listOf(Array.from({ length: 20_000 }, (_, i) => listOf([i])));
  }

  it('equals, toJsonText, toDisplayString and toJson charge the clock as they go', () => {
    const x = big();
    const y = big();
    for (const walk of [
      (l: ValueLimits) => equals(x, y, l),
      (l: ValueLimits) => toJsonText(x, l),
      (l: ValueLimits) => toDisplayString(x, l),
      (l: ValueLimits) => toJson(x, l),
    ]) {
      let charged = 0;
      walk({ ...DEFAULT_VALUE_LIMITS, charge: (units) => void (charged += units) });
      expect(charged).toBeGreaterThanOrEqual(20_000);
    }
  });

  it('stop when the clock says the run is over', () => {
    const stop: ValueLimits = {
      ...DEFAULT_VALUE_LIMITS,
      charge: () => {
        throw new NuwaError('LimitExceededError', 'the run took longer than timeoutMs (5 ms)');
      },
    };
    const x = big();
    expect(limitError(() => equals(x, big(), stop)).message).toMatch(/timeoutMs/);
    expect(limitError(() => toJsonText(x, stop)).message).toMatch(/timeoutMs/);
    expect(limitError(() => toJson(x, stop)).message).toMatch(/timeoutMs/);
    expect(limitError(() => fromJson(toJson(x), stop)).message).toMatch(/timeoutMs/);
  });

  it('never build text past maxStringLength, however much the value shares', () => {
    let x: Value = listOf(['z'.repeat(1000)]);
    for (let i = 0; i < 9; i++) x = listOf([x, x]); // 512 copies of 1,000 characters
    expect(limitError(() => toDisplayString(x, { maxValueSize: 1e6, maxStringLength: 100_000 })).message).toBe(
      'the string form of the value would be longer than maxStringLength (100000 characters)',
    );
    expect(toDisplayString(x).length).toBe(512 * 1004 + 511 * 3); // 512 times ["z..."], 511 times [ , ]
  });
});
