// Durations are reported in milliseconds to a tenth, wherever they are shown (issue 20).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { elapsedMs } from '../../../src/util/elapsed.js';

afterEach(() => vi.restoreAllMocks());

describe('elapsedMs', () => {
  it.each([
    [1000, 1004.199583999999959, 4.2],
    [0, 0.04, 0],
    [0, 0.05000001, 0.1],
    [12.5, 1012.5, 1000],
    [100, 101.1, 1.1],
  ])('from %d to %d: %d', (since, now, expected) => {
    vi.spyOn(performance, 'now').mockReturnValue(now);
    const elapsed = elapsedMs(since);
    expect(elapsed).toBe(expected);
    expect(String(elapsed)).toMatch(/^\d+(\.\d)?$/);
  });
});
