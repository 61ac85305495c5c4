// Execution limits (TOOLS.md §7). The defaults are generous for any real plan but finite, so a
// runaway script written by a model ends with LimitExceededError instead of running forever.
import { DEFAULT_MAX_CALL_DEPTH } from './call-host.js';
import { DEFAULT_VALUE_LIMITS } from '../values/values.js';

export interface Limits {
  /** Statements and loop iterations executed. */
  maxSteps?: number;
  /** Tool functions invoked. */
  maxToolCalls?: number;
  /** Wall-clock time for the whole run. */
  timeoutMs?: number;
  /** Bytes printed (UTF-8, one newline counted per line). */
  maxOutputBytes?: number;
  /** How deeply tools may call tools through context.callTool (a script's CALL is depth 1). */
  maxCallDepth?: number;
  /** Items and entries in any one value, nested and shared ones counted each time they appear. */
  maxValueSize?: number;
  /** Characters in any one string, and in all the strings of any one list or object together. */
  maxStringLength?: number;
  /** Calls in flight at once in a list comprehension's elements (DURABLE.md §4). */
  maxConcurrentCalls?: number;
}

export const DEFAULT_LIMITS: Readonly<Required<Limits>> = Object.freeze({
  maxSteps: 10_000_000,
  maxToolCalls: 100_000,
  timeoutMs: 5 * 60_000,
  maxOutputBytes: 10 * 1024 * 1024,
  maxCallDepth: DEFAULT_MAX_CALL_DEPTH,
  // Why these two numbers: see DEFAULT_VALUE_LIMITS in src/values/model.ts.
  maxValueSize: DEFAULT_VALUE_LIMITS.maxValueSize,
  maxStringLength: DEFAULT_VALUE_LIMITS.maxStringLength,
  maxConcurrentCalls: 8,
});

export function resolveLimits(limits: Limits | undefined): Required<Limits> {
  const resolved = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) throw new TypeError(`limits.${key} must be a non-negative number, got ${String(value)}`);
    if (key === 'maxConcurrentCalls' && !(Number.isInteger(value) && value >= 1)) throw new TypeError(`limits.maxConcurrentCalls must be a whole number of at least 1, got ${String(value)}`);
    resolved[key] = value;
  }
  return resolved;
}
