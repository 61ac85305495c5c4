// Unit tests for src/tools/limits.ts: default limits and their validation.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveLimits } from '../../../src/tools/limits.js';

describe('resolveLimits', () => {
  it('returns the defaults when nothing is given', () => {
    expect(resolveLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({})).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits(undefined)).not.toBe(DEFAULT_LIMITS);
  });

  it('has finite, generous defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxSteps: 10_000_000,
      maxToolCalls: 100_000,
      timeoutMs: 300_000,
      maxOutputBytes: 10 * 1024 * 1024,
      maxValueSize: 1_000_000,
      maxStringLength: 10_000_000,
      maxCallDepth: 32,
      maxConcurrentCalls: 8,
      maxSourceBytes: 4 * 1024 * 1024,
    });
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
  });

  it('overrides only the given limits, zero included', () => {
    expect(resolveLimits({ maxSteps: 5, timeoutMs: 0 })).toEqual({ ...DEFAULT_LIMITS, maxSteps: 5, timeoutMs: 0 });
  });

  it('refuses negative, NaN and non-number limits', () => {
    expect(() => resolveLimits({ maxSteps: -1 })).toThrow('`limits.maxSteps` must be a non-negative number, got -1');
    expect(() => resolveLimits({ timeoutMs: NaN })).toThrow(/`limits\.timeoutMs` must be a non-negative number, got NaN/);
    expect(() => resolveLimits({ maxToolCalls: '5' as unknown as number })).toThrow(/limits\.maxToolCalls/);
  });
});
