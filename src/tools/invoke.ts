// One tool call, from name to checked result (TOOLS.md §2, §3, §6). Every way of calling a tool —
// a script's CALL, context.callTool, and later registry.execute — goes through invokeTool, so the
// guarantees hold the same everywhere.
//
// A tool is foreign code: what it returns or throws is looked at only through the guarded helpers of
// util/foreign.ts, read once, and what reaches the script is always our own copy, checked as copied.
import { isNuwaError, NuwaError } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, fromJson, NuwaList, NuwaObject, toJson, type Value, type ValueLimits } from '../values/values.js';
import { describeThrown, thenOf } from '../util/foreign.js';
import { CallContext, executionIdOf } from './context.js';
import { asToolFailure } from './envelope.js';
import { invalidArgumentsMessage, unknownToolMessage } from './hints.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { Waits } from './guard.js';
import { Pending, type Continuation } from '../util/pending.js';
import type { ApprovalHook, AskHook, ConfirmLevel, LlmHook, Logger } from './types.js';

/** How deep tools may call tools through context.callTool when the host sets no maxCallDepth. */
export const DEFAULT_MAX_CALL_DEPTH = 32;

/** What the run around a call provides: limits, output, approval, events, cancellation. */
export interface CallHost {
  readonly registry: ToolRegistry;
  readonly session: Session;
  /** Aborted when the run stops, with the NuwaError that stopped it as its reason. */
  readonly signal: AbortSignal;
  /** True once `signal` is aborted (read on every call: cheaper than the signal's own getter). */
  readonly stopped: boolean;
  readonly logger: Logger;
  readonly sandbox: Sandbox;
  /** The executionId of the run (script) the call belongs to. */
  readonly runId: string;
  readonly approve: ApprovalHook | undefined;
  /** The host's hooks for context.ask and context.llm (host-requests.ts); undefined when it gave none. */
  readonly ask: AskHook | undefined;
  readonly llm: LlmHook | undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel>;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
  /** True once the run is over: the contexts it handed out refuse callTool, print and setVar. */
  readonly ended: boolean;
  print(text: string): void;
  /**
   * Counts a call against the run's limits; throws LimitExceededError or AbortedError. `depth` is
   * how deeply the call is nested: 1 for a script's CALL, one more for each context.callTool.
   */
  beginCall(tool: RegisteredTool, depth: number): void;
  /** The waits for tools (and approvals) in flight, which a stopping run ends. */
  readonly waits: Waits;
  /** Numbers the calls of the run; a call's executionId is executionIdOf(runId, its number). */
  nextCallNumber(): number;
  /** True when a plan the host approved as a whole covers this call (it then asks no one). */
  coveredByPlan?(tool: RegisteredTool, site: CallSite): boolean;
  /** maxValueSize and maxStringLength for what tools return (the defaults when absent). */
  readonly valueLimits?: ValueLimits;
}

/** The script's variables as a tool sees them (getVar / setVar). */
export interface VariableAccess {
  get(name: string): JsonValue | undefined;
  set(name: string, value: JsonValue): void;
}

/** Where the call comes from: the CALL's position, its scope, and how deeply it is nested. */
export interface CallSite {
  line?: number;
  column?: number;
  fileName?: string;
  vars?: VariableAccess;
  /** 1 (the default) for a call made by a script or a host; one more for each context.callTool. */
  depth?: number;
}

function positioned(error: NuwaError, site: CallSite): NuwaError {
  return error.at(site.line === undefined ? undefined : { line: site.line, column: site.column ?? 1 }, site.fileName);
}

/** Run-level stops pass through unchanged: they are not the tool's failure. */
function isRunStop(error: unknown): error is NuwaError {
  return isNuwaError(error) && (error.kind === 'LimitExceededError' || error.kind === 'AbortedError');
}

/**
 * Calls a tool. `args` must be the caller's own fresh copy: it is coerced in place and handed to
 * the tool. The result is a Nuwa value (`form: 'value'`, for scripts) or plain JSON (`'json'`).
 */
export function invokeTool(host: CallHost, name: string, args: JsonObject, site: CallSite, form: 'value' | 'json'): Promise<Value | JsonValue> {
  try {
    const result = callTool(host, name, args, site, form);
    if (result instanceof Pending) return result.asPromise() as Promise<Value | JsonValue>;
    return result instanceof Promise ? (result as Promise<Value | JsonValue>) : Promise.resolve(result as Value | JsonValue);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * invokeTool without the promise where none is needed: a tool that returns a plain value (and
 * needs no approval) is called, checked and answered synchronously, and a failure is thrown. Only a
 * tool that returns a promise makes the answer wait: a Pending (util/pending.ts), or a promise while
 * an approval is asked for. A script's CALL goes this way, so a loop over a synchronous tool costs
 * no microtask per call (the run's time slices still give the event loop its turns), and
 * `andThen`, which gets the answer (and the site) and whose result is returned instead, runs in the very microtask
 * in which the tool's promise settles: the script goes on from a CALL (assigns its LET, say)
 * without a promise and a microtask of its own.
 */
export function callTool<R>(
  host: CallHost,
  name: string,
  args: JsonObject,
  site: CallSite,
  form: 'value' | 'json',
  andThen?: (result: Value | JsonValue, site: CallSite) => R,
): R | Pending | Promise<unknown>;
export function callTool(
  host: CallHost,
  name: string,
  args: JsonObject,
  site: CallSite,
  form: 'value' | 'json',
  andThen: (result: Value | JsonValue, site: CallSite) => unknown = same,
): unknown {
  const tool = host.registry.lookup(name);
  if (tool === undefined) {
    throw positioned(new NuwaError('ToolNotFoundError', unknownToolMessage(name, host.registry.names()), { toolName: name }), site);
  }

  const problems = tool.validateArguments(args);
  if (problems !== null) {
    const error = new NuwaError('ToolArgumentError', invalidArgumentsMessage(name, problems), { toolName: name });
    error.problems = problems;
    throw positioned(error, site);
  }

  if (host.needsApproval.has(tool.confirm)) {
    return requireApproval(host, tool, args, site).then((approvedBy) => runTool(host, tool, name, args, site, form, approvedBy, andThen));
  }
  return runTool(host, tool, name, args, site, form, undefined, andThen);
}

const same = <T>(value: T): T => value;

/** The call itself, once it may go ahead: counted, announced, made, and its answer checked. */
function runTool(
  host: CallHost,
  tool: RegisteredTool,
  name: string,
  args: JsonObject,
  site: CallSite,
  form: 'value' | 'json',
  approvedBy: 'plan' | 'hook' | undefined,
  andThen: (result: Value | JsonValue, site: CallSite) => unknown,
): unknown {
  try {
    host.beginCall(tool, site.depth ?? 1);
  } catch (error) {
    throw isRunStop(error) ? positioned(error, site) : error;
  }
  const callNumber = host.nextCallNumber();
  const emit = host.emit;
  const started = emit ? performance.now() : 0;
  emit?.({ type: 'tool:invoking', executionId: executionIdOf(host.runId, callNumber), runId: host.runId, timestamp: Date.now(), toolName: name, args: copyJson(args) as JsonObject, ...(approvedBy && { approvedBy }) });

  // A tool with its own timeout gets its own signal, aborted by the run or by the timeout. (Not
  // AbortSignal.any: on Node 20 every signal it makes stays in memory for good.)
  const toolController = tool.timeoutMs === undefined ? undefined : new AbortController();
  const unfollow = toolController && follow(host.signal, toolController);
  const context = new CallContext(host, site, name, callNumber, toolController?.signal ?? host.signal, invokeTool);

  let raw: unknown;
  try {
    const execute = tool.execute; // called bare: `this` in a tool is not the registry's record of it
    raw = execute(args, context);
    // Read once: a getter could answer differently on a second read. A promise gets its handlers
    // at once, so that it can never become an unhandled rejection of the host.
    const then = thenOf(raw);
    if (then !== undefined) {
      const call = new ToolCall(host, tool, name, site, form, callNumber, started, toolController, unfollow, andThen);
      host.waits.watch(raw, then, tool, toolController, call);
      return call.answer;
    }
    if (host.stopped) throw host.signal.reason;
  } catch (thrown) {
    unfollow?.();
    throw failed(host, name, site, callNumber, started, toolController, thrown);
  }
  unfollow?.();
  return andThen(finish(host, tool, name, site, form, callNumber, started, raw), site);
}

/**
 * A call whose tool returned a promise: the Continuation of the wait for it, and the Pending its
 * caller waits for (`answer`). The answer is checked, handed to `andThen` and passed on in the
 * microtask in which the tool's promise settled.
 */
class ToolCall implements Continuation {
  // Set in the constructor (`declare`d): class field initialisers would run as a function of their own per call.
  declare readonly answer: Pending;
  private declare readonly host: CallHost;
  private declare readonly tool: RegisteredTool;
  private declare readonly name: string;
  private declare readonly site: CallSite;
  private declare readonly form: 'value' | 'json';
  private declare readonly callNumber: number;
  private declare readonly started: number;
  private declare readonly toolController: AbortController | undefined;
  private declare readonly unfollow: (() => void) | undefined;
  private declare readonly andThen: (result: Value | JsonValue, site: CallSite) => unknown;

  constructor(
    host: CallHost,
    tool: RegisteredTool,
    name: string,
    site: CallSite,
    form: 'value' | 'json',
    callNumber: number,
    started: number,
    toolController: AbortController | undefined,
    unfollow: (() => void) | undefined,
    andThen: (result: Value | JsonValue, site: CallSite) => unknown,
  ) {
    this.answer = new Pending();
    this.host = host;
    this.tool = tool;
    this.name = name;
    this.site = site;
    this.form = form;
    this.callNumber = callNumber;
    this.started = started;
    this.toolController = toolController;
    this.unfollow = unfollow;
    this.andThen = andThen;
  }

  resume(raw: unknown): void {
    this.unfollow?.();
    let next: unknown;
    try {
      next = this.andThen(finish(this.host, this.tool, this.name, this.site, this.form, this.callNumber, this.started, raw), this.site);
    } catch (error) {
      this.answer.rejectWith(error);
      return;
    }
    this.answer.resolveWith(next);
  }

  fail(thrown: unknown): void {
    this.unfollow?.();
    this.answer.rejectWith(failed(this.host, this.name, this.site, this.callNumber, this.started, this.toolController, thrown));
  }
}

/** The error a call ends with, announced: the run's own stop, or the tool's failure. */
function failed(host: CallHost, name: string, site: CallSite, callNumber: number, started: number, toolController: AbortController | undefined, thrown: unknown): NuwaError {
  // Stopped by cancellation, a limit or the tool's own timeout: the call was aborted, not failed.
  const stop = stopOf(host, toolController);
  const error = stop ?? executionError(name, thrown);
  host.emit?.(failedEvent(host, executionIdOf(host.runId, callNumber), name, started, error, stop ? 'tool:aborted' : 'tool:failed'));
  return positioned(error, site);
}

/** The tool's answer, copied and checked: the caller's result. */
function finish(host: CallHost, tool: RegisteredTool, name: string, site: CallSite, form: 'value' | 'json', callNumber: number, started: number, raw: unknown): Value | JsonValue {
  const emit = host.emit;
  // The copy is the only read of what the tool returned; the check sees that very copy, which is
  // what the caller receives (a getter cannot show the check one value and the script another).
  let result: Value | JsonValue;
  try {
    result = form === 'value' ? fromJson(raw, host.valueLimits) : copyJson(raw, host.valueLimits);
  } catch (thrown) {
    const error = isRunStop(thrown) ? thrown : new NuwaError('ToolResultError', `tool \`${name}\` returned something that is not JSON: ${describeThrown(thrown)}`, { toolName: name });
    emit?.(failedEvent(host, executionIdOf(host.runId, callNumber), name, started, error));
    throw positioned(error, site);
  }
  const mismatch = form === 'value' ? checkValue(tool, result as Value) : tool.checkResult(result as JsonValue);
  if (mismatch !== null) {
    const error = new NuwaError('ToolResultError', `tool \`${name}\` returned the wrong type: ${mismatch}`, { toolName: name });
    emit?.(failedEvent(host, executionIdOf(host.runId, callNumber), name, started, error));
    throw positioned(error, site);
  }
  emit?.({ type: 'tool:completed', executionId: executionIdOf(host.runId, callNumber), runId: host.runId, timestamp: Date.now(), toolName: name, duration: performance.now() - started });
  return result;
}

/**
 * The `returns` check of a result already converted to a Nuwa value. A Nuwa type (`'array'`,
 * `'object'`, ...) names the top-level type only, which a value and its JSON form share, so a value
 * that passes needs no conversion (a list of a hundred thousand items is not copied to be looked
 * at); a JSON Schema, or a message about a mismatch, needs the JSON form.
 */
function checkValue(tool: RegisteredTool, value: Value): string | null {
  const returns = tool.returns;
  if (typeof returns === 'string') {
    if (value instanceof NuwaList) {
      if (returns === 'array' || returns === 'any') return null;
    } else if (value instanceof NuwaObject) {
      if (returns === 'object' || returns === 'any') return null;
    } else if (tool.checkResult(value) === null) {
      return null;
    }
  }
  return tool.checkResult(toJson(value));
}

/**
 * The run's own stop, when the run (or the tool's timeout) has stopped: then that, and not whatever
 * the tool threw, is why the call failed. Only errors we made are passed on, never the tool's objects.
 */
function stopOf(host: CallHost, toolController: AbortController | undefined): NuwaError | undefined {
  if (host.signal.aborted && isNuwaError(host.signal.reason)) return host.signal.reason;
  if (toolController?.signal.aborted && isNuwaError(toolController.signal.reason)) return toolController.signal.reason;
  return undefined;
}

/** Aborts `child` when `parent` aborts, until the returned function is called. */
function follow(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort(parent.reason);
    return () => {};
  }
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return () => parent.removeEventListener('abort', onAbort);
}

function executionError(name: string, thrown: unknown): NuwaError {
  const error = new NuwaError('ToolExecutionError', `tool \`${name}\` failed: ${describeThrown(thrown)}`, { toolName: name, cause: thrown });
  // A tool's own error code and details (an envelope's `error: { message, code, details }`) stay on it.
  const failure = asToolFailure(thrown);
  if (failure?.code !== undefined) error.code = failure.code;
  if (failure?.details !== undefined) error.details = failure.details;
  return error;
}

function failedEvent(host: CallHost, executionId: string, toolName: string, started: number, error: NuwaError, type: 'tool:failed' | 'tool:aborted' = 'tool:failed'): NuwaEvent {
  return {
    type,
    executionId,
    runId: host.runId,
    timestamp: Date.now(),
    toolName,
    duration: performance.now() - started,
    error: { kind: error.kind, message: error.message },
  };
}

/** Resolves to who approved the call: the plan the host approved, or the approve hook. */
async function requireApproval(host: CallHost, tool: RegisteredTool, args: JsonObject, site: CallSite): Promise<'plan' | 'hook'> {
  if (host.coveredByPlan?.(tool, site)) return 'plan';
  let approved = false;
  let why = 'no approval hook is configured';
  if (host.approve) {
    try {
      // Waited on like a tool: cancellation or the run's timeout end a hook that never answers.
      const answer: unknown = host.approve({ toolName: tool.name, confirm: tool.confirm, category: tool.category, args: copyJson(args) as JsonObject });
      const then = thenOf(answer);
      if (then === undefined) {
        approved = answer === true;
      } else {
        const wait = host.waits.begin(answer, then, undefined, undefined);
        try {
          approved = (await wait.promise) === true;
        } finally {
          host.waits.end(wait);
        }
      }
      why = 'the host did not approve it';
    } catch (error) {
      // A hook may refuse by throwing; its message is the reason the author sees.
      why = describeThrown(error);
    }
  }
  const stop = stopOf(host, undefined);
  if (stop) throw positioned(stop, site);
  if (approved) return 'hook';
  host.emit?.({ type: 'tool:denied', executionId: executionIdOf(host.runId, host.nextCallNumber()), runId: host.runId, timestamp: Date.now(), toolName: tool.name, confirm: tool.confirm });
  throw positioned(
    new NuwaError('ToolDeniedError', `the call to \`${tool.name}\` (a ${tool.confirm} action) was denied: ${why}`, { toolName: tool.name }),
    site,
  );
}
