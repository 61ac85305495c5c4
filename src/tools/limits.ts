// Execution limits (TOOLS.md §7). The defaults are generous for any real plan but finite, so a
// runaway script written by a model ends with LimitExceededError instead of running forever.
import { DEFAULT_MAX_CALL_DEPTH } from './call-host.js';
import { DEFAULT_VALUE_LIMITS } from '../values/values.js';
import { Options } from '../util/options.js';

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
  /** Bytes (UTF-8) of a script's text given to run: a longer one is refused before it is parsed. */
  maxSourceBytes?: number;
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
  // 4 MiB: four times the largest scripts the project parses on purpose (the 1 MB parse benchmark,
  // 150,000-statement scripts of about 1.5 MB), and some hundred times a long model-written plan.
  // Parsing is cancellable at any size (parseInSlices); the cap bounds the memory a parse takes
  // (about 130 MB of tokens and tree per megabyte at its peak) and the time a host gives to one.
  maxSourceBytes: 4 * 1024 * 1024,
});

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>;

/** The limits with the defaults filled in; a bad one is a NuwaError of kind TypeError naming it. */
export function resolveLimits(limits: unknown, where = 'resolveLimits'): Required<Limits> {
  return { ...limitsFrom(Options.of(where, { limits }).nested('limits')) }; // the caller's own copy
}

/**
 * The limits of a host's options (`options.nested('limits')`), each read once and checked. Without
 * any, DEFAULT_LIMITS itself (frozen): not a copy for every Interpreter, of which a host may make one
 * per run. The result is read, never changed.
 */
export function limitsFrom(given: Options): Readonly<Required<Limits>> {
  if (given.absent) return DEFAULT_LIMITS;
  let resolved: Required<Limits> | undefined;
  for (const key of LIMIT_KEYS) {
    const value = given.nonNegative(key);
    if (value === undefined) continue;
    if (key === 'maxConcurrentCalls' && !(Number.isInteger(value) && value >= 1)) throw given.bad(key, 'a whole number of at least 1', value);
    (resolved ??= { ...DEFAULT_LIMITS })[key] = value;
  }
  return resolved ?? DEFAULT_LIMITS;
}
