// One tool call, from name to checked result (TOOLS.md §2, §3, §6). Every way of calling a tool —
// a script's CALL, context.callTool, and later registry.execute — goes through invokeTool, so the
// guarantees hold the same everywhere.
//
// A tool is foreign code: what it returns or throws is looked at only through the guarded helpers of
// util/foreign.ts, read once, and what reaches the script is always our own copy, checked as copied.
// A call that needs approval first waits for it (call-approval.ts).
import { isNuwaError, NuwaError } from '../errors.js';
import type { EventError, NuwaEvent } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, fromJson, NuwaList, NuwaObject, toJson, type Value } from '../values/values.js';
import { describeThrown, thenOf } from '../util/foreign.js';
import { CallContext } from './context.js';
import { confirmOf, type RegisteredTool } from './build.js';
import { asToolFailure } from './envelope.js';
import { invalidArgumentsMessage, unknownToolMessage } from './hints.js';
import type { CallHost, CallSite } from './call-host.js';
import { safeToRepeat, type CallJournal, type RecordedCall } from './journal.js';
import { Pending } from '../util/pending.js';
import { WaitInFlight } from './guard.js';
import { elapsedMs } from '../util/elapsed.js';
import { callIdOf, eventBase, positioned, positionOf, stopOf } from './call-facts.js';
import { requireApproval, type ApprovedBy } from './call-approval.js';

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

// Contexts call tools through invokeTool (context.ts cannot import this module, which imports it).
CallContext.invoke = invokeTool;

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

  const journal = host.journal;
  if (journal !== undefined) {
    // A durable run taken up again: a call it already made is answered from its record. The record
    // holds the arguments as checked (coerced, defaults filled in), so they are compared so.
    const recorded = journal.replayed(callIdOf(site), name, args, positionOf(site));
    if (recorded !== undefined) return replay(host, recorded, site, form, andThen);
  }

  const confirm = tool.confirmFor === undefined ? tool.confirm : confirmOf(tool, args);
  // A call that a process died in the middle of, and that may not be repeated blindly, waits for a
  // person to say whether it happened (DURABLE.md §3), whatever the approval policy.
  const uncertain = journal !== undefined && !safeToRepeat({ confirm, idempotent: tool.idempotent }) && journal.unfinished(callIdOf(site));
  if (uncertain || host.needsApproval.has(confirm)) {
    return runOnceApproved(requireApproval(host, tool, confirm, args, site, uncertain), host, tool, name, args, site, form, andThen);
  }
  return runTool(host, tool, name, args, site, form, undefined, andThen);
}

// The closures that wait (an approval, a journal's record, a journal around the tool) are made in
// functions of their own: a closure in callTool, runTool or startTool would make V8 keep their
// arguments in a context object made at every call, waiting or not (a host may have thousands).

function runOnceApproved(
  approval: Promise<ApprovedBy>,
  host: CallHost,
  tool: RegisteredTool,
  name: string,
  args: JsonObject,
  site: CallSite,
  form: 'value' | 'json',
  andThen: (result: Value | JsonValue, site: CallSite) => unknown,
): Promise<unknown> {
  return approval.then((approvedBy) => runTool(host, tool, name, args, site, form, approvedBy, andThen));
}

/**
 * A recorded call, answered from its record: counted like the call it was, announced as replayed,
 * and neither invoked nor approved again.
 */
function replay(host: CallHost, recorded: RecordedCall, site: CallSite, form: 'value' | 'json', andThen: (result: Value | JsonValue, site: CallSite) => unknown): unknown {
  const name = recorded.toolName;
  try {
    host.beginCall(undefined, site.depth ?? 1);
  } catch (error) {
    throw isRunStop(error) ? positioned(error, site) : error;
  }
  const callNumber = host.nextCallNumber();
  const { outcome } = recorded;
  // An approved plan is counted down as the first time: the calls it covered then, it covers again.
  const tool = host.registry.lookup(name);
  if (tool !== undefined && host.needsApproval.has(tool.confirm)) host.coveredByPlan?.(tool, site);
  host.emit?.({
    ...eventBase(host, callNumber, site, name, tool),
    type: 'tool:replayed',
    ...('value' in outcome ? { payload: outcome.value } : { payload: outcome.error, error: outcome.error }),
  });
  if ('error' in outcome) throw positioned(new NuwaError(outcome.error.kind, outcome.error.message, { toolName: name }), site);
  return andThen(form === 'value' ? fromJson(outcome.value, host.valueLimits) : copyJson(outcome.value, host.valueLimits), site);
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
  approvedBy: ApprovedBy | undefined,
  andThen: (result: Value | JsonValue, site: CallSite) => unknown,
): unknown {
  try {
    host.beginCall(tool, site.depth ?? 1);
  } catch (error) {
    throw isRunStop(error) ? positioned(error, site) : error;
  }
  const callNumber = host.nextCallNumber();
  const kept = host.journal?.started(callIdOf(site), tool, args);
  if (kept === undefined) return startTool(host, tool, name, args, site, form, approvedBy, andThen, callNumber);
  return startOnceKept(kept, host, tool, name, args, site, form, approvedBy, andThen, callNumber);
}

/** The record of what the call is about to do is kept before the tool runs (a durable store): then startTool. */
function startOnceKept(kept: Promise<void>, ...call: Parameters<typeof startTool>): Promise<unknown> {
  return kept.then(() => {
    const answer = startTool(...call);
    return answer instanceof Pending ? answer.asPromise() : answer;
  });
}

/** A journal's own way of invoking the tool (CallJournal.invoke), around the invocation itself. */
function invokeAround(host: CallHost, around: NonNullable<CallJournal['invoke']>, site: CallSite, tool: RegisteredTool, args: JsonObject, context: CallContext): unknown {
  const execute = tool.execute;
  return around.call(host.journal, callIdOf(site), tool, args, () => execute(args, context));
}

/** The tool invoked: announced, given its context and its signal, and its answer checked. */
function startTool(
  host: CallHost,
  tool: RegisteredTool,
  name: string,
  args: JsonObject,
  site: CallSite,
  form: 'value' | 'json',
  approvedBy: ApprovedBy | undefined,
  andThen: (result: Value | JsonValue, site: CallSite) => unknown,
  callNumber: number,
): unknown {
  const emit = host.emit;
  const started = emit ? performance.now() : 0;
  if (emit !== undefined) {
    const payload = copyJson(args) as JsonObject;
    emit({ ...eventBase(host, callNumber, site, name, tool), type: 'tool:invoking', args: payload, payload, ...(approvedBy && { approvedBy }) });
  }

  // A tool with its own timeout gets its own signal, aborted by the run or by the timeout. (Not
  // AbortSignal.any: on Node 20 every signal it makes stays in memory for good.)
  const toolController = tool.timeoutMs === undefined && site.signal === undefined ? undefined : new AbortController();
  const unfollow = toolController && follow(site.signal ?? host.signal, toolController);
  const context = new CallContext(host, site, name, callNumber, toolController?.signal);

  let raw: unknown;
  try {
    const execute = tool.execute; // called bare: `this` in a tool is not the registry's record of it
    const around = host.journal?.invoke;
    raw = around === undefined ? execute(args, context) : invokeAround(host, around, site, tool, args, context);
    // Read once: a getter could answer differently on a second read. A promise gets its handlers
    // at once, so that it can never become an unhandled rejection of the host.
    const then = thenOf(raw);
    if (then !== undefined) {
      const call = ToolCall.for(host, tool, name, site, form, callNumber, started, toolController, unfollow, andThen, then === PROMISE_THEN);
      host.waits.watch(raw, then, tool, toolController, call);
      return call;
    }
    if (host.stopped) throw host.signal.reason;
    if (emit !== undefined) emit({ ...eventBase(host, callNumber, site, name, tool), type: 'tool:invoked', payload: null });
  } catch (thrown) {
    unfollow?.();
    throw failed(host, tool, name, site, callNumber, started, toolController, thrown);
  }
  unfollow?.();
  return andThen(finish(host, tool, name, site, form, callNumber, started, raw), site);
}

/** The promises' own `then`, which calls each handler at most once, and only one of them. */
const PROMISE_THEN = Promise.prototype.then;

/**
 * A call whose tool returned a promise: itself the wait for it (guard.ts) and the Pending its caller
 * waits for (one object, not three). The answer is checked, handed to `andThen` and passed on in the
 * microtask in which the tool's promise settled.
 *
 * Once a call is done, the run's next call uses the same object again (CallHost.spareCall), with the
 * handlers bound to it: a host with thousands of runs waiting on tools then makes one a run, not one
 * and two bound functions for every call (each would outlive its wait, and so the young generation). Only a wait that the tool's own promise ended through `then` is used again:
 * such a promise calls back once, and no other handler of ours is left on it; a wait that a stop or a
 * timeout ended may still hear from its tool, and a thenable of the tool's may call back at any time.
 * Whoever waits for a call attaches at once (the evaluator's continuations, asPromise), so that a
 * call that has told its caller is not looked at again.
 */
class ToolCall extends WaitInFlight {
  // Set in `for` (`declare`d): class field initialisers would run as a function of their own per call.
  private declare host: CallHost;
  private declare tool: RegisteredTool;
  private declare name: string;
  private declare site: CallSite;
  private declare form: 'value' | 'json';
  private declare callNumber: number;
  private declare started: number;
  private declare toolController: AbortController | undefined;
  private declare unfollow: (() => void) | undefined;
  private declare andThen: ((result: Value | JsonValue, site: CallSite) => unknown) | undefined;
  /** The tool's `then` is the promises' own (see above). */
  private declare nativeThen: boolean;

  // Every field set here first, so that V8 keeps them all inside the object (fields first set in
  // `for` went to a second, out-of-object array of properties: one more object for every run).
  private constructor() {
    super();
    this.host = undefined as unknown as CallHost;
    this.tool = undefined as unknown as RegisteredTool;
    this.name = '';
    this.site = undefined as unknown as CallSite;
    this.form = 'value';
    this.callNumber = 0;
    this.started = 0;
    this.toolController = undefined;
    this.unfollow = undefined;
    this.andThen = undefined;
    this.nativeThen = false;
  }

  /** The run's spare call, or a new one, for this call. */
  static for(
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
    nativeThen: boolean,
  ): ToolCall {
    let call = host.spareCall as ToolCall | undefined;
    if (call === undefined) call = new ToolCall();
    else host.spareCall = undefined;
    call.host = host;
    call.tool = tool;
    call.name = name;
    call.site = site;
    call.form = form;
    call.callNumber = callNumber;
    call.started = started;
    call.toolController = toolController;
    call.unfollow = unfollow;
    call.andThen = andThen;
    call.nativeThen = nativeThen;
    return call;
  }

  protected settled(raw: unknown): void {
    this.unfollow?.();
    const { host, site, name, tool, callNumber } = this;
    if (host.emit !== undefined) host.emit({ ...eventBase(host, callNumber, site, name, tool), type: 'tool:invoked', payload: null });
    let next: unknown;
    try {
      next = this.andThen!(finish(host, tool, name, site, this.form, callNumber, this.started, raw), site);
    } catch (error) {
      this.tellFailure(error);
      return;
    }
    if (next instanceof Pending || next instanceof Promise || !this.reusable()) {
      this.resolveWith(next);
      return;
    }
    // Done, offered to the run's next call, and only then is the caller told: the script goes on
    // from here (to that next call, often) with this object free, so a run needs only one.
    const waiting = this.doneWith(next)!;
    this.offer();
    waiting.resume(next);
  }

  protected failed(thrown: unknown): void {
    this.unfollow?.();
    this.tellFailure(failed(this.host, this.tool, this.name, this.site, this.callNumber, this.started, this.toolController, thrown));
  }

  private tellFailure(error: unknown): void {
    if (!this.reusable()) {
      this.rejectWith(error);
      return;
    }
    const waiting = this.failedWith(error)!;
    this.offer();
    waiting.fail(error);
  }

  /** Whether the run's next call may use this object once the caller is told (see above). */
  private reusable(): boolean {
    return this.awaited && this.endedByAnswer && this.nativeThen;
  }

  /** Offers this call to the run's next one. What it pointed to is let go of: the spare keeps no scope or value of the script alive. */
  private offer(): void {
    this.reopen();
    this.site = undefined as unknown as CallSite;
    this.andThen = undefined;
    this.toolController = undefined;
    this.unfollow = undefined;
    this.host.spareCall = this;
  }
}

/** The error a call ends with, announced: the run's own stop, or the tool's failure. */
function failed(host: CallHost, tool: RegisteredTool, name: string, site: CallSite, callNumber: number, started: number, toolController: AbortController | undefined, thrown: unknown): NuwaError {
  // Stopped by cancellation, a limit or the tool's own timeout: the call was aborted, not failed.
  const stop = stopOf(host, toolController);
  const error = stop ?? executionError(name, thrown);
  // An aborted call is not recorded: whether it did its work is unknown (after a crash, recover
  // treats it as unfinished).
  if (stop === undefined) host.journal?.finished(callIdOf(site), { error: { kind: error.kind, message: error.message } });
  host.emit?.(failedEvent(host, tool, name, site, callNumber, started, error, stop ? 'tool:aborted' : 'tool:failed'));
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
    if (!isRunStop(thrown)) host.journal?.finished(callIdOf(site), { error: { kind: error.kind, message: error.message } });
    emit?.(failedEvent(host, tool, name, site, callNumber, started, error));
    throw positioned(error, site);
  }
  const mismatch = form === 'value' ? checkValue(tool, result as Value) : tool.checkResult(result as JsonValue);
  if (mismatch !== null) {
    const error = new NuwaError('ToolResultError', `tool \`${name}\` returned the wrong type: ${mismatch}`, { toolName: name });
    host.journal?.finished(callIdOf(site), { error: { kind: error.kind, message: error.message } });
    emit?.(failedEvent(host, tool, name, site, callNumber, started, error));
    throw positioned(error, site);
  }
  const journal = host.journal;
  if (journal !== undefined || emit !== undefined) {
    const value = form === 'value' ? toJson(result as Value, host.valueLimits) : (result as JsonValue);
    journal?.finished(callIdOf(site), { value });
    emit?.({ ...eventBase(host, callNumber, site, name, tool), type: 'tool:completed', duration: elapsedMs(started), payload: value });
  }
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

function failedEvent(host: CallHost, tool: RegisteredTool, toolName: string, site: CallSite, callNumber: number, started: number, error: NuwaError, type: 'tool:failed' | 'tool:aborted' = 'tool:failed'): NuwaEvent {
  const described: EventError = { kind: error.kind, message: error.message };
  // The payload keeps a tool's own error code and details (an envelope's `error: { code, details }`).
  const payload: EventError = { ...described, ...(error.code !== undefined && { code: error.code }), ...(error.details !== undefined && { details: error.details as JsonValue }) };
  return { ...eventBase(host, callNumber, site, toolName, tool), type, duration: elapsedMs(started), error: described, payload };
}
