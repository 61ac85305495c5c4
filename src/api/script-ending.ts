// How a script's run ends (Interpreter.runScript): the state it keeps from its start to its end, and
// while its program waits; its result (variables as JSON, output, stats), its error (positioned, with
// the variables at the stop and the checker's findings beside a mistake), or its pause.
import { NuwaError, isNuwaError } from '../errors.js';
import type { RunStats } from '../events.js';
import type { JsonValue } from '../values/json.js';
import type { Program } from '../syntax/ast.js';
import type { ToolRegistry } from '../tools/registry.js';
import { compileProgram } from '../runtime/evaluator.js';
import type { ScriptRun } from '../runtime/script-run.js';
import type { Scope } from '../runtime/scope.js';
import { asFindings, findingsBesideRunError } from '../check/findings.js';
import { charsIn, checkTotals, itemsIn, setJsonKey, toJson, type Value, type ValueLimits } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import type { RunOptions, RunResult } from './types.js';
import type { DurableRunSettings, ScriptEnd } from './durable.js';
import { follow, type Continuation, type Waiting } from '../util/pending.js';

/**
 * The errors a script's own text causes, beside which the checker's findings in the rest of the
 * script are worth reporting; not a limit, a cancellation, a refusal or a durable run's conflict.
 */
const SCRIPT_MISTAKES: ReadonlySet<string> = new Set([
  'UndefinedVariableError', 'TypeError', 'DivisionByZeroError', 'MemberAccessError', 'IndexOutOfBoundsError', 'InvalidConditionError',
  'InvalidIterableError', 'UnknownFunctionError', 'FunctionArgumentError', 'CalcError', 'ToolNotFoundError', 'ToolArgumentError',
]);

/**
 * What a script's run needs from its start to its end (runScript), and, when the program waits,
 * what it goes on with once that wait is over (a Continuation): its end, settled into the promise
 * runScript returned. One object for both, kept for as long as the run waits.
 */
export class ScriptState<T> implements Continuation {
  /** Once parsed. */
  declare program: Program | undefined;
  /** The program was parsed for this run alone (long text, not kept): its compiled statements need not be kept either. */
  declare runOnce: boolean;
  /** The promise's, once the program waits (runProgram). */
  declare resolve: ((value: T) => void) | undefined;
  declare reject: ((error: unknown) => void) | undefined;

  constructor(
    readonly registry: ToolRegistry,
    readonly run: ScriptRun,
    readonly top: Scope,
    /** maxValueSize and maxStringLength, without the run's clock (the variables are read after it stopped too). */
    readonly limits: ValueLimits,
    readonly options: RunOptions,
    readonly durable: DurableRunSettings | undefined,
    /** What the promise settles with: the ScriptEnd itself, or (run()) the result or the error thrown. */
    readonly settle: (end: ScriptEnd) => T,
  ) {
    this.program = undefined;
    this.runOnce = false;
    this.resolve = undefined;
    this.reject = undefined;
  }

  resume(): void {
    this.end(NOT_FAILED);
  }

  fail(error: unknown): void {
    this.end(error);
  }

  private end(thrown: unknown): void {
    let settled: T;
    try {
      settled = this.settle(endScript(this, thrown));
    } catch (error) {
      this.reject!(error);
      return;
    }
    this.resolve!(settled);
  }
}


/** Runs the parsed program; settles with how the run ended. */
export function runProgram<T>(state: ScriptState<T>): Promise<T> {
  let pending: Waiting | undefined;
  try {
    pending = compileProgram(state.program!, { once: state.runOnce })(state.run, state.top);
  } catch (thrown) {
    return endedScript(state, thrown);
  }
  if (pending === undefined) return endedScript(state, NOT_FAILED);
  const waiting = pending;
  return new Promise((resolve, reject) => {
    state.resolve = resolve;
    state.reject = reject;
    follow(waiting, state);
  });
}

/** endScript, settled, as a promise: a failure to report the end (an internal error) rejects it, as it would an async function's. */
export function endedScript<T>(state: ScriptState<T>, thrown: unknown): Promise<T> {
  try {
    return Promise.resolve(state.settle(endScript(state, thrown)));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** endScript's `thrown` for a program that ran to its end. */
export const NOT_FAILED: unique symbol = Symbol('not failed');

/**
 * How a run ended (its result, error or pause), announced; its timers and listeners released.
 * `thrown` is what stopped it, or NOT_FAILED when the program ran to its end.
 */
export function endScript<T>(state: ScriptState<T>, thrown: unknown): ScriptEnd {
  const { run } = state;
  try {
    if (thrown === NOT_FAILED) {
      try {
        return completedScript(state);
      } catch (error) {
        return failedScript(state, error);
      }
    }
    return failedScript(state, thrown);
  } finally {
    run.finish();
  }
}

function completedScript<T>(state: ScriptState<T>): ScriptEnd {
  const { run, top, limits, durable } = state;
  const variables = compact(scopeVariables(top, limits));
  const output = compact(run.output);
  const result = resultOf(variables, limits, output, runStats(run));
  // A tool may have swallowed the pause of a call it made: the run still waits there.
  if (durable !== undefined && durable.journal.pending.length > 0) return pausedScript(run, durable, runStats(run));
  run.emit?.({ type: 'script:completed', executionId: run.runId, timestamp: Date.now(), sessionId: run.session.id, fileName: state.options.fileName, stats: result.stats });
  return { ok: true, result, output };
}

function failedScript<T>(state: ScriptState<T>, thrown: unknown): ScriptEnd {
  const { registry, run, top, limits, durable, program, options } = state;
  const { fileName } = options;
  if (durable !== undefined && durable.journal.pending.length > 0) return pausedScript(run, durable, runStats(run));
  const error = asNuwaError(thrown).at(run.current, fileName);
  error.variables = safeVariables(() => jsonVariables(scopeVariables(top, limits, true), limits));
  if (program !== undefined && SCRIPT_MISTAKES.has(error.kind) && error.findings === undefined) {
    const findings = findingsBesideRunError(error, program, registry, Object.keys(options.variables ?? {}));
    if (findings.length > 0) error.findings = asFindings(findings);
  }
  run.emit?.({
    type: 'script:failed',
    executionId: run.runId,
    timestamp: Date.now(),
    sessionId: run.session.id,
    fileName,
    stats: runStats(run),
    error: { kind: error.kind, message: error.message, line: error.line, column: error.column },
  });
  return { ok: false, error, stats: runStats(run), output: run.output };
}

function pausedScript(run: ScriptRun, durable: DurableRunSettings, stats: RunStats): ScriptEnd {
  run.emit?.({ type: 'run:paused', executionId: run.runId, timestamp: Date.now(), runId: durable.runId, pending: [...durable.journal.pending] });
  return { ok: false, paused: true, stats, output: run.output, state: run.session.toJSON() };
}

/** What run() resolves to: the result of a run that completed, else its error, thrown. */
export function resultOfRun(ended: ScriptEnd): RunResult {
  if (ended.ok) return ended.result;
  if (ended.paused) throw new NuwaError('TypeError', 'internal: a run without a journal paused');
  throw ended.error;
}

/**
 * The top-level variables, to be handed to the host as plain JSON (jsonVariables). Together they are
 * one value going out to the host, so together they must be within the limits: a thousand names for
 * one big shared list would expand into a thousand copies of it. The run fails when they are not; an
 * error report (`partial`) keeps the variables that fit, in order, and leaves out the rest.
 */
export function scopeVariables(scope: Scope, limits: ValueLimits, partial = false): Array<[string, Value]> {
  const out: Array<[string, Value]> = [];
  let items = 0;
  let chars = 0;
  for (const entry of scope.entries()) {
    const moreItems = items + itemsIn(entry[1]);
    const moreChars = chars + charsIn(entry[1]);
    if (moreItems > limits.maxValueSize || moreChars > limits.maxStringLength) {
      if (partial) continue;
      checkTotals(moreItems, moreChars, 0, limits, "the script's variables together");
    }
    items = moreItems;
    chars = moreChars;
    out.push(entry);
  }
  return out;
}

/**
 * A short array as a copy of its own length. One that grew by push keeps room for 16 more items
 * (136 bytes), and a result's output and variables live as long as the host keeps the result: a
 * host holding 10,000 results of one line each would keep 2.7 MB of that room. Long ones are kept
 * as they are (a copy would cost more than the room, which is small beside them).
 */
function compact<T>(items: T[]): T[] {
  return items.length <= 16 ? items.slice() : items;
}

/** A run's figures so far. (A function, not a closure in runScript: one fewer object for every run while it waits.) */
export function runStats(run: ScriptRun): RunStats {
  return { steps: run.steps, toolCalls: run.toolCalls, durationMs: run.durationMs };
}

export function jsonVariables(variables: Array<[string, Value]>, limits: ValueLimits): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  // setJsonKey: a variable named __proto__ must be a key, not the prototype of the host's object.
  for (const [name, value] of variables) setJsonKey(out, name, toJson(value, limits));
  return out;
}

/**
 * A finished run's result. The variables are checked against the limits now (a run whose variables
 * are over them fails), but copied out to JSON only when the host first reads them: a host that
 * never looks at them does not pay for a copy of every list the script built.
 */
export function resultOf(variables: Array<[string, Value]>, limits: ValueLimits, output: string[], stats: RunStats): RunResult {
  const result = {} as RunResult;
  Object.defineProperty(result, 'variables', VARIABLES_LATER);
  result.output = output;
  result.stats = stats;
  Object.defineProperty(result, LATER, { value: new LaterVariables(variables, limits), writable: true, configurable: true });
  return result;
}

/**
 * Where a result keeps its variables until they are first read: a property no one else names, not
 * enumerable (a copy, JSON or a deep equality of the result does not see it). Not a WeakMap by
 * result: thousands of results a second would each be an entry the collector must visit apart.
 */
const LATER = Symbol('variables not yet read');

/**
 * A result's `variables` until first read or set: then a plain property of the result. One getter
 * and one setter for every result, which find their result's variables by `this`: results then share
 * one shape and keep their properties in the object (functions of their own would put each result
 * in dictionary mode, with two bound functions and a property table: a host may keep thousands).
 */
const VARIABLES_LATER: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: RunResult): Record<string, JsonValue> | undefined {
    const later = (this as unknown as { [LATER]?: LaterVariables })[LATER];
    return later === undefined ? undefined : settleVariables(this, jsonVariables(later.variables, later.limits));
  },
  set(this: RunResult, variables: Record<string, JsonValue>): void {
    settleVariables(this, variables);
  },
};

function settleVariables(result: RunResult, variables: Record<string, JsonValue>): Record<string, JsonValue> {
  delete (result as unknown as { [LATER]?: LaterVariables })[LATER];
  Object.defineProperty(result, 'variables', { value: variables, enumerable: true, configurable: true, writable: true });
  return variables;
}

class LaterVariables {
  constructor(
    readonly variables: Array<[string, Value]>,
    readonly limits: ValueLimits,
  ) {}
}

/** The variables for an error report; a value that cannot be converted is left out rather than lost. */
export function safeVariables(read: () => Record<string, JsonValue>): Record<string, JsonValue> {
  try {
    return read();
  } catch {
    return {};
  }
}

/**
 * Anything that escapes the evaluator becomes a NuwaError: hosts see one error type. What escapes
 * may be foreign (a host's print hook threw it), so it is only looked at through guarded helpers.
 */
export function asNuwaError(thrown: unknown): NuwaError {
  if (isNuwaError(thrown)) return thrown;
  const message = describeThrown(thrown);
  if (isStackOverflow(thrown)) {
    return new NuwaError('LimitExceededError', 'the script nests too deeply for the host stack: split deep expressions with LET', { cause: thrown });
  }
  return new NuwaError('TypeError', `internal error: ${message}`, { cause: thrown });
}

export function isStackOverflow(thrown: unknown): boolean {
  try {
    return thrown instanceof RangeError && /call stack/i.test(describeThrown(thrown));
  } catch {
    return false; // a Proxy whose getPrototypeOf trap throws is no RangeError of ours
  }
}

/** The host's logger, or stderr for warnings and errors; a logger that throws is not the run's failure. */
