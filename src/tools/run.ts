// The state of one run: step and call budgets, output, cancellation, approval and events — what
// every tool call is counted against and announced through (the CallHost of call-host.ts). A
// script's run hands it to the evaluator's closures as their first argument; function calling
// (execute.ts) makes one per call.
import { nextTurn, randomId, utf8Length } from '../util/platform.js';
import { NuwaError, type Position } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import { Waits } from './guard.js';
import type { CallerContext, CallHost, CallSite } from './call-host.js';
import { executionIdOf } from './context.js';
import type { RegisteredTool } from './build.js';
import type { ToolCatalog } from './catalog.js';
import type { Sandbox, SandboxSource } from './sandbox.js';
import type { Session } from './session.js';
import type { ApprovalHook, AskHook, ConfirmLevel, LlmHook, Logger } from './types.js';
import type { Limits } from './limits.js';
import type { CallJournal } from './journal.js';
import { CallSlots } from './concurrency.js';
import type { ValueLimits } from '../values/values.js';
import { callHook, describeThrown } from '../util/foreign.js';
import { elapsedMs } from '../util/elapsed.js';
import { RunTrace, type TraceOptions } from './tracing.js';
import { watchDeadline, type DeadlineList, type Timed } from '../util/deadlines.js';

/**
 * The calls a plan approved as a whole still covers (check/approval.ts makes one from a plan): each
 * call it covers takes one from its tool's count.
 */
export interface CallBudget {
  take(toolName: string): boolean;
}

export interface RunSettings extends TraceOptions {
  registry: ToolCatalog;
  session: Session;
  limits: Required<Limits>;
  print: (line: string) => void;
  approve: ApprovalHook | undefined;
  /** The host's hooks for context.ask and context.llm. */
  ask?: AskHook;
  llm?: LlmHook;
  needsApproval: ReadonlySet<ConfirmLevel>;
  onEvent: ((event: NuwaEvent) => void) | undefined;
  logger: Logger;
  /** The sandbox, or who makes it when a tool first asks (an Interpreter). */
  sandbox: SandboxSource;
  fileName: string | undefined;
  signal: AbortSignal | undefined;
  /** What the messages call it: a script's `run` (the default), or a function-calling `call`. */
  noun?: 'run' | 'call';
  /** A durable run's record of its calls (journal.ts). */
  journal?: CallJournal;
  /** Pause a durable run where a call needs approval and no hook is given (`onApproval: 'pause'`). */
  pauseForApproval?: boolean;
  /** Time the run already spent running before this process took it up (a resumed durable run). */
  elapsedMs?: number;
  /** The run's id (default: a random UUID): a durable run keeps its own across processes. */
  runId?: string;
  /** What the caller of a function call said of itself (CallHost.caller). */
  caller?: CallerContext;
}

// Responsiveness (TOOLS.md §7). A script that never calls a tool would otherwise run to its end
// without letting the event loop in, so the run's timer, the host's AbortSignal and Ctrl-C could not
// act. Every CLOCK_CHECK_INTERVAL units of work (a step, or about a value node of a long walk) the run
// looks at the clock; once a slice of SLICE_MS has passed it sets `yieldDue`, and the next loop
// iteration or statement boundary waits for a macrotask (setImmediate), in which timers, signals and
// I/O run. A check costs a counter decrement; a turn costs a few microseconds every SLICE_MS.
const CLOCK_CHECK_INTERVAL = 1024;
const SLICE_MS = 10;

/**
 * What most runs are not given (hooks, a journal, a tracer, a signal...): one object, made only for a
 * run that is given any of them, rather than ten fields of every run (a host may have thousands
 * waiting).
 */
interface RunExtras {
  readonly approve: ApprovalHook | undefined;
  readonly ask: AskHook | undefined;
  readonly llm: LlmHook | undefined;
  readonly journal: CallJournal | undefined;
  readonly pauseForApproval: boolean;
  readonly caller: CallerContext | undefined;
  readonly trace: RunTrace | undefined;
  readonly hostSignal: AbortSignal | undefined;
  /** Stops the run when the host's signal aborts. */
  onHostAbort: (() => void) | undefined;
  /** Lines printed before this process took the run up: not given to the print hook again. */
  readonly printedBefore: number;
}

/**
 * The run is also the list of its waits for tools in flight (Waits, guard.ts), which stop() ends:
 * one object fewer for every run.
 */
export class Run extends Waits implements CallHost, Timed {
  readonly registry: ToolCatalog;
  readonly session: Session;
  readonly logger: Logger;
  private readonly sandboxSource: SandboxSource;
  get sandbox(): Sandbox {
    return this.sandboxSource.sandbox;
  }
  readonly needsApproval: ReadonlySet<ConfirmLevel>;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
  readonly fileName: string | undefined;
  /** The lines printed so far: made at the first (a run waiting on a tool has usually printed none). */
  private lines: string[] | null = null;
  get output(): string[] {
    return (this.lines ??= []);
  }
  /** How many lines were printed (without making the array of them). */
  get printed(): number {
    return this.lines === null ? 0 : this.lines.length;
  }
  readonly startedAt: number;
  private readonly extras: RunExtras | undefined;
  get approve(): ApprovalHook | undefined {
    return this.extras?.approve;
  }
  get ask(): AskHook | undefined {
    return this.extras?.ask;
  }
  get llm(): LlmHook | undefined {
    return this.extras?.llm;
  }
  get journal(): CallJournal | undefined {
    return this.extras?.journal;
  }
  get pauseForApproval(): boolean {
    return this.extras?.pauseForApproval ?? false;
  }
  get caller(): CallerContext | undefined {
    return this.extras?.caller;
  }
  /** The run's spans, when the host gave a tracer (tracing.ts); fed by `emit`. */
  get trace(): RunTrace | undefined {
    return this.extras?.trace;
  }
  get waits(): Waits {
    return this;
  }
  steps = 0;
  toolCalls = 0;
  /** The run is over: the contexts it handed out refuse callTool, print and setVar. */
  ended = false;
  /** Set when the current time slice is spent: the evaluator then awaits `yieldTurn()`. */
  yieldDue = false;
  private untilClockCheck = CLOCK_CHECK_INTERVAL;
  /** Whole milliseconds, as `deadline`: kept as small integers, not as a boxed number each. */
  private sliceEnd: number;
  private outputBytes = 0;
  private callCounter = 0;
  private readonly limits: RunSettings['limits'];
  private readonly maxSteps: number;
  /** When the run's timeoutMs is over (performance.now() time, rounded up to the millisecond). */
  readonly deadline: number;
  private readonly printLine: (line: string) => void;
  /** Made when something first asks for `signal` (a tool that looks at it, a tool with a timeout...). */
  private controller: AbortController | undefined;
  /** Why the run stopped (its signal is aborted with it). */
  private stopError: NuwaError | null = null;
  /** What the run ends with at its next step: the stop, or a durable run's pause (no abort). */
  private haltError: NuwaError | null = null;
  /** The list of deadlines the run is in until it finishes (util/deadlines.ts), and its links there. */
  private readonly deadlineList: DeadlineList;
  prevTimed: Timed | null = null;
  nextTimed: Timed | null = null;
  private readonly noun: 'run' | 'call';
  #runId: string | undefined;

  /**
   * maxValueSize and maxStringLength, and the clock for long walks over values (`charge`): the run
   * itself, not an object and a bound `charge` of its own for every run. Who keeps the limits
   * calls `charge` on them, never detached from them.
   */
  get valueLimits(): ValueLimits {
    return this;
  }
  get maxValueSize(): number {
    return this.limits.maxValueSize;
  }
  get maxStringLength(): number {
    return this.limits.maxStringLength;
  }

  /**
   * The run's executionId (events, contexts, durable runs): a random UUID made when first read, as
   * most runs never show it to anyone, and making one costs more than the rest of starting a run.
   */
  get runId(): string {
    return (this.#runId ??= randomId());
  }

  /** The number of the first call the run made, once it has made one. */
  private firstCall: number | undefined;

  constructor(settings: RunSettings) {
    super();
    this.#runId = settings.runId;
    this.startedAt = performance.now() - (settings.elapsedMs ?? 0);
    this.registry = settings.registry;
    this.session = settings.session;
    this.logger = settings.logger;
    this.sandboxSource = settings.sandbox;
    this.needsApproval = settings.needsApproval;
    this.fileName = settings.fileName;
    this.noun = settings.noun ?? 'run';
    this.limits = settings.limits;
    this.maxSteps = settings.limits.maxSteps;
    this.printLine = settings.print;
    const listener = settings.onEvent && safeListener(settings.onEvent, settings.logger);
    const trace = settings.tracer && new RunTrace({ tracer: settings.tracer, traceContent: settings.traceContent }, settings.logger);
    // Without a tracer or a listener there is no emit at all: the call path then builds no event.
    this.emit = trace === undefined ? listener : tracedEmit(trace, listener);
    this.deadline = Math.ceil(this.startedAt + this.limits.timeoutMs);
    this.sliceEnd = Math.ceil(this.startedAt + SLICE_MS);
    const hostSignal = settings.signal;
    const { approve, ask, llm, journal, caller } = settings;
    this.extras =
      approve === undefined && ask === undefined && llm === undefined && journal === undefined && caller === undefined && trace === undefined && hostSignal === undefined && settings.pauseForApproval !== true
        ? undefined
        : { approve, ask, llm, journal, caller, trace, hostSignal, onHostAbort: undefined, pauseForApproval: settings.pauseForApproval ?? false, printedBefore: journal?.printedBefore ?? 0 };
    // Watched by the timer every run shares, not one of its own. While a run waits on a tool that
    // never settles, that timer keeps the process alive until the timeout ends the run. finish()
    // takes the run out.
    this.deadlineList = watchDeadline(this);
    if (hostSignal !== undefined) {
      const onHostAbort = hostAbortListener(this, hostSignal, this.noun);
      this.extras!.onHostAbort = onHostAbort;
      if (hostSignal.aborted) onHostAbort();
      else hostSignal.addEventListener('abort', onHostAbort, { once: true });
    }
  }

  /** The run's timeoutMs has passed. */
  timeOut(): void {
    this.stop(this.timeoutError());
  }

  /**
   * Aborted when the run stops, with the NuwaError that stopped it as its reason. Most runs' tools
   * never look at it, so the controller is made on the first read (already aborted if the run has
   * stopped), not for every run.
   */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort((this.stopError ??= this.finishedError()));
    }
    return this.controller.signal;
  }

  /** True once the run has stopped (and its signal is aborted), finishing included. */
  get stopped(): boolean {
    return this.stopError !== null || this.ended;
  }

  /** True once a durable run is pausing: its calls in flight finish, nothing new begins. */
  get pausing(): boolean {
    return this.haltError !== null && this.stopError === null;
  }

  /** A finished call's object, for the next call to use again (CallHost.spareCall). */
  spareCall: object | undefined = undefined;

  /** How many list comprehensions of this run evaluate their elements concurrently just now. */
  concurrentComprehensions = 0;
  private callSlots: CallSlots | undefined;

  /** The slots of the calls that may overlap (maxConcurrentCalls), made when first needed. */
  get slots(): CallSlots {
    return (this.callSlots ??= new CallSlots(this.limits.maxConcurrentCalls));
  }

  /** The statement being executed: where an error raised without a position of its own points. */
  current: Position | undefined;

  /** Counts one step (a statement or a loop iteration) and stops the run when it must. */
  tick(at: Position): void {
    this.current = at;
    if (++this.steps > this.maxSteps) {
      this.stop(new NuwaError('LimitExceededError', `the script ran more than maxSteps (${this.limits.maxSteps}) statements and loop iterations`));
    } else if (--this.untilClockCheck <= 0) {
      this.checkClock();
    }
    if (this.haltError !== null) throw this.haltError.at(at, this.fileName);
  }

  /** Counts work other than steps (long walks, big strings); throws once the run must stop. */
  charge(units: number): void {
    this.untilClockCheck -= units;
    if (this.untilClockCheck <= 0) this.checkClock();
    if (this.haltError !== null) throw this.haltError.at(this.current, this.fileName);
  }

  private checkClock(): void {
    this.untilClockCheck = CLOCK_CHECK_INTERVAL;
    const now = performance.now();
    if (now > this.deadline) this.stop(this.timeoutError());
    else if (now >= this.sliceEnd) this.yieldDue = true;
  }

  /** Gives the event loop a turn (timers, signals, I/O), then goes on unless the run was stopped. */
  async yieldTurn(): Promise<void> {
    this.yieldDue = false;
    await nextTurn();
    this.sliceEnd = Math.ceil(performance.now() + SLICE_MS);
    if (this.haltError !== null) throw this.haltError.at(this.current, this.fileName);
  }

  /**
   * A point where the run may be stopped or give a turn outside the evaluator (after parsing):
   * throws if the deadline has passed or the run was stopped; returns a promise if it yields.
   */
  checkpoint(): Promise<void> | undefined {
    this.checkClock();
    if (this.haltError !== null) throw this.haltError.at(this.current, this.fileName);
    return this.yieldDue ? this.yieldTurn() : undefined;
  }

  /** Stops the run: aborts the signal tools hold and ends every wait for a tool. */
  stop(error: NuwaError): void {
    if (this.stopError !== null) return;
    this.stopError = error;
    this.haltError = error;
    this.controller?.abort(error);
    this.endAll(error);
  }

  /**
   * A durable run pauses (DURABLE.md §2): nothing more of the script runs (its next step, print or
   * call throws `error`), but the run is not cancelled: calls in flight finish and are recorded.
   */
  pause(error: NuwaError): void {
    this.haltError ??= error;
  }

  /** NOW(): the clock, or in a durable run what its journal says (the recorded value on replay). */
  now(): number {
    return this.journal === undefined ? Date.now() : this.journal.now();
  }

  /**
   * Releases timers and listeners; call once the run is over. Aborts the signal tools hold and ends
   * the waits of calls a tool started without awaiting them: nothing of the run goes on after it.
   */
  finish(): void {
    this.ended = true;
    this.deadlineList.remove(this);
    const extras = this.extras;
    if (extras?.onHostAbort !== undefined) extras.hostSignal?.removeEventListener('abort', extras.onHostAbort);
    // Most runs end with no tool holding their signal and no call in flight: nothing can see the
    // error they end with then, and it is made only if something asks for the signal later (a tool
    // that kept its context). No part of the script runs after this, so nothing steps into it.
    if (this.stopError === null && (this.controller !== undefined || !this.idle)) this.stop(this.finishedError());
  }

  private finishedError(): NuwaError {
    return withoutStack(() => new NuwaError('AbortedError', `the ${this.noun} has finished`));
  }

  get durationMs(): number {
    return elapsedMs(this.startedAt);
  }

  private timeoutError(): NuwaError {
    return new NuwaError('LimitExceededError', `the ${this.noun} took longer than timeoutMs (${this.limits.timeoutMs} ms)`);
  }

  // --- output -----------------------------------------------------------------------------------
  print(text: string, at?: Position): void {
    if (this.haltError !== null) throw this.haltError.at(at, this.fileName);
    this.outputBytes += utf8Length(text) + 1;
    if (this.outputBytes > this.limits.maxOutputBytes) {
      const error = new NuwaError('LimitExceededError', `the script printed more than maxOutputBytes (${this.limits.maxOutputBytes} bytes)`);
      this.stop(error);
      throw error.at(at, this.fileName);
    }
    const lines = this.output;
    lines.push(text);
    if (this.extras !== undefined && lines.length <= this.extras.printedBefore) return; // given to the host before a pause
    const answer: unknown = this.printLine(text);
    // An async print hook that rejects must not become an unhandled rejection of the host.
    if (answer !== undefined) callHook(() => answer, [], (error) => this.logger.error(`the print hook failed: ${describeThrown(error)}`));
  }

  // --- tools ------------------------------------------------------------------------------------
  hasTool(name: string): boolean {
    return this.registry.has(name);
  }

  /**
   * Marks a call as one of the script's own CALLs (not a tool's callTool): with an approved plan,
   * only those count against it.
   */
  markScriptCall(site: CallSite, toolName: string): void {
    this.plan?.pending.set(site, toolName);
  }

  /** With `approvedPlan`: its remaining calls, and the script's CALLs not yet counted against it. */
  private plan: { budget: CallBudget; pending: WeakMap<CallSite, string> } | undefined;

  usePlan(budget: CallBudget): void {
    this.plan = { budget, pending: new WeakMap() };
  }

  coveredByPlan(tool: RegisteredTool, site: CallSite): boolean {
    if (this.plan === undefined || this.plan.pending.get(site) !== tool.name) return false;
    // Counted once: a tool calling tools through this CALL's context asks as usual.
    this.plan.pending.delete(site);
    return this.plan.budget.take(tool.name);
  }

  beginCall(_tool: RegisteredTool | undefined, depth: number): void {
    if (this.haltError !== null) throw this.haltError;
    if (depth > this.limits.maxCallDepth) {
      const error = new NuwaError('LimitExceededError', `tools called tools more than maxCallDepth (${this.limits.maxCallDepth}) levels deep`);
      this.stop(error);
      throw error;
    }
    if (++this.toolCalls > this.limits.maxToolCalls) {
      const error = new NuwaError('LimitExceededError', `the script made more than maxToolCalls (${this.limits.maxToolCalls}) tool calls`);
      this.stop(error);
      throw error;
    }
  }

  nextCallNumber(): number {
    const number = ++this.callCounter;
    this.firstCall ??= number;
    return number;
  }

  /** The id of the first call the run made (a function call's own id), once it has made one. */
  get firstExecutionId(): string | undefined {
    return this.firstCall === undefined ? undefined : executionIdOf(this.runId, this.firstCall);
  }
}

/** Stops `run` when the host's signal aborts. */
function hostAbortListener(run: Run, hostSignal: AbortSignal, noun: string): () => void {
  return () => run.stop(new NuwaError('AbortedError', abortMessage(noun, hostSignal.reason)));
}

/** A run's emit when it is traced: the tracer sees each event, then the host's listener. */
function tracedEmit(trace: RunTrace, listener: ((event: NuwaEvent) => void) | undefined): (event: NuwaEvent) => void {
  return (event) => {
    trace.event(event);
    listener?.(event);
  };
}

/** The host's reason for cancelling, read without trusting it (it is whatever the host passed to abort()). */
function abortMessage(noun: string, reason: unknown): string {
  if (reason === undefined || reason === null || reason === '') return `the ${noun} was cancelled by the host`;
  let isDomAbort = false;
  try {
    isDomAbort = (reason as { name?: unknown }).name === 'AbortError'; // abort() without a reason
  } catch {
    // a name getter that throws: describe the reason itself
  }
  return isDomAbort ? `the ${noun} was cancelled by the host` : `the ${noun} was cancelled: ${describeThrown(reason)}`;
}

const noop = () => {};
/** The logger of a host that gives none: one for every Interpreter (tools see it only through context.logger's own wrapper). */
const QUIET_LOGGER: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/**
 * The logger tools' context.logger writes to: the host's methods, each guarded (a logger that throws
 * or rejects changes nothing). A method the host does not give writes nowhere: a library writes
 * nothing to the process's stdout or stderr (API.md v1.1), which may be a protocol's stream.
 */
export function hostLogger(logger: Partial<Logger> | undefined): Logger {
  if (logger === undefined) return QUIET_LOGGER;
  const guarded = (method: ((message: string, meta?: unknown) => void) | undefined) => {
    if (typeof method !== 'function') return noop;
    return (message: string, meta?: unknown) => callHook(method.bind(logger), [message, meta], noop);
  };
  return { debug: guarded(logger?.debug), info: guarded(logger?.info), warn: guarded(logger?.warn), error: guarded(logger?.error) };
}

/** A listener that throws (or rejects) must not break the run; its failure is logged instead. */
function safeListener(listener: (event: NuwaEvent) => void, logger: Logger): (event: NuwaEvent) => void {
  return (event) => callHook(listener, [event], (error) => logger.warn(`an onEvent listener threw on ${event.type}: ${describeThrown(error)}`));
}

/**
 * `make()`'s error without a stack trace. For the error every run ends with ("the run has finished":
 * the reason of a signal a tool may still hold): its stack would always point here, and capturing
 * one, on every run, cost more than the rest of finishing it.
 */
function withoutStack<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return make(); // a host that froze Error (a hardened realm): with its stack, then
  }
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
