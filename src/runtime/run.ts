// The state of one script run: step and call budgets, output, cancellation, and the bridge from the
// evaluator to the tool registry. The evaluator's closures receive it as their first argument.
import { randomUUID } from 'node:crypto';
import { isNuwaError, NuwaError, type Position } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { Waits } from '../tools/guard.js';
import { callTool, type CallHost, type CallSite, type VariableAccess } from '../tools/invoke.js';
import { executionIdOf } from '../tools/context.js';
import type { Pending } from '../util/pending.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import type { Sandbox } from '../tools/sandbox.js';
import type { Session } from '../tools/session.js';
import type { ApprovalHook, ConfirmLevel, Logger } from '../tools/types.js';
import type { BuiltinHost } from './builtins.js';
import { MAX_SUSPENSIONS, Replay, type SuspendHost, type Suspension } from './suspend.js';
import type { Scope } from './scope.js';
import type { Limits } from './limits.js';
import type { PlanBudget } from '../check/approval.js';
import { fromJson, toJson, type Value, type ValueLimits } from '../values/values.js';
import { callHook, describeThrown } from '../util/foreign.js';

export interface RunSettings {
  registry: ToolRegistry;
  session: Session;
  limits: Required<Limits>;
  print: (line: string) => void;
  approve: ApprovalHook | undefined;
  needsApproval: ReadonlySet<ConfirmLevel>;
  onEvent: ((event: NuwaEvent) => void) | undefined;
  logger: Logger;
  sandbox: Sandbox;
  fileName: string | undefined;
  signal: AbortSignal | undefined;
  /** What the messages call it: a script's `run` (the default), or a function-calling `call`. */
  noun?: 'run' | 'call';
}

// Responsiveness (TOOLS.md §7). A script that never calls a tool would otherwise run to its end
// without letting the event loop in, so the run's timer, the host's AbortSignal and Ctrl-C could not
// act. Every CLOCK_CHECK_INTERVAL units of work (a step, or about a value node of a long walk) the run
// looks at the clock; once a slice of SLICE_MS has passed it sets `yieldDue`, and the next loop
// iteration or statement boundary waits for a macrotask (setImmediate), in which timers, signals and
// I/O run. A check costs a counter decrement; a turn costs a few microseconds every SLICE_MS.
const CLOCK_CHECK_INTERVAL = 1024;
const SLICE_MS = 10;

export class Run implements CallHost, BuiltinHost, SuspendHost {
  readonly runId = randomUUID();
  readonly registry: ToolRegistry;
  readonly session: Session;
  readonly logger: Logger;
  readonly sandbox: Sandbox;
  readonly approve: ApprovalHook | undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel>;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
  readonly fileName: string | undefined;
  readonly output: string[] = [];
  readonly startedAt = performance.now();
  steps = 0;
  toolCalls = 0;
  /** The run is over: the contexts it handed out refuse callTool, print and setVar. */
  ended = false;
  /** Set when the current time slice is spent: the evaluator then awaits `yieldTurn()`. */
  yieldDue = false;
  /** maxValueSize and maxStringLength, and the clock for long walks over values. */
  readonly valueLimits: ValueLimits;
  private untilClockCheck = CLOCK_CHECK_INTERVAL;
  private sliceEnd: number;
  private outputBytes = 0;
  private callCounter = 0;
  private readonly limits: RunSettings['limits'];
  private readonly maxSteps: number;
  private readonly deadline: number;
  private readonly printLine: (line: string) => void;
  private readonly controller = new AbortController();
  readonly waits = new Waits();
  private stopError: NuwaError | null = null;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly hostSignal: AbortSignal | undefined;
  private readonly noun: 'run' | 'call';
  private readonly onHostAbort = () => this.stop(new NuwaError('AbortedError', abortMessage(this.noun, this.hostSignal?.reason)));
  /** The number of the first call the run made, once it has made one. */
  private firstCall: number | undefined;

  constructor(settings: RunSettings) {
    this.registry = settings.registry;
    this.session = settings.session;
    this.logger = settings.logger;
    this.sandbox = settings.sandbox;
    this.approve = settings.approve;
    this.needsApproval = settings.needsApproval;
    this.fileName = settings.fileName;
    this.noun = settings.noun ?? 'run';
    this.limits = settings.limits;
    this.maxSteps = settings.limits.maxSteps;
    this.printLine = settings.print;
    this.emit = settings.onEvent && safeListener(settings.onEvent, settings.logger);
    this.deadline = this.startedAt + this.limits.timeoutMs;
    this.sliceEnd = this.startedAt + SLICE_MS;
    this.valueLimits = { maxValueSize: this.limits.maxValueSize, maxStringLength: this.limits.maxStringLength, charge: (units) => this.charge(units) };
    // Not unref'd: while a run waits on a tool that never settles, this timer is what keeps the
    // process alive until the timeout ends the run. finish() clears it.
    this.timer = setTimeout(() => this.stop(this.timeoutError()), Math.min(this.limits.timeoutMs, 2 ** 31 - 1));
    this.hostSignal = settings.signal;
    if (this.hostSignal?.aborted) this.onHostAbort();
    else this.hostSignal?.addEventListener('abort', this.onHostAbort, { once: true });
  }

  /** Aborted when the run stops, with the NuwaError that stopped it as its reason. */
  readonly signal: AbortSignal = this.controller.signal;

  /** True once the run has stopped (and its signal is aborted). */
  get stopped(): boolean {
    return this.stopError !== null;
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
    if (this.stopError !== null) throw this.stopError.at(at, this.fileName);
  }

  /** Counts work other than steps (long walks, big strings); throws once the run must stop. */
  charge(units: number): void {
    this.untilClockCheck -= units;
    if (this.untilClockCheck <= 0) this.checkClock();
    if (this.stopError !== null) throw this.stopError.at(this.current, this.fileName);
  }

  private checkClock(): void {
    this.untilClockCheck = CLOCK_CHECK_INTERVAL;
    const now = performance.now();
    if (now > this.deadline) this.stop(this.timeoutError());
    else if (now >= this.sliceEnd) this.yieldDue = true;
  }

  // --- suspending heavy built-ins (suspend.ts) ------------------------------------------------
  /** Results of heavy calls for the statement being run again after a suspension. */
  replay: Replay | undefined = undefined;
  private statementQuiet = false;
  private outputMark = 0;
  private stepsMark = 0;

  /**
   * A block's runner is about to run a statement: whether it has no CALL (`quiet`), and whether it
   * is the statement a suspension is running again (whose remembered results then stay).
   */
  enterStatement(quiet: boolean, again: boolean): void {
    this.statementQuiet = quiet;
    this.outputMark = this.output.length;
    this.stepsMark = this.steps;
    if (this.replay !== undefined && !again) this.replay = undefined;
  }

  maySuspend(): boolean {
    return this.statementQuiet && this.output.length === this.outputMark && (this.replay === undefined || this.replay.suspensions < MAX_SUSPENSIONS);
  }

  /**
   * Finishes a suspended built-in call a time slice at a time, with a turn of the event loop before
   * each (where a timeout or a cancellation stops the run), and remembers its result for the
   * statement, which its runner then runs again. The statement's steps are counted once.
   */
  async finishSuspended(suspension: Suspension): Promise<void> {
    this.steps = this.stepsMark;
    const { steps } = suspension;
    for (;;) {
      await this.yieldTurn();
      let step = steps.next();
      while (!step.done && !this.yieldDue) step = steps.next();
      if (step.done) {
        const replay = (this.replay ??= new Replay());
        replay.suspensions++;
        replay.remember(suspension.node, suspension.args, step.value);
        return;
      }
    }
  }

  /** Gives the event loop a turn (timers, signals, I/O), then goes on unless the run was stopped. */
  async yieldTurn(): Promise<void> {
    this.yieldDue = false;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceEnd = performance.now() + SLICE_MS;
    if (this.stopError !== null) throw this.stopError.at(this.current, this.fileName);
  }

  /**
   * A point where the run may be stopped or give a turn outside the evaluator (after parsing):
   * throws if the deadline has passed or the run was stopped; returns a promise if it yields.
   */
  checkpoint(): Promise<void> | undefined {
    this.checkClock();
    if (this.stopError !== null) throw this.stopError.at(this.current, this.fileName);
    return this.yieldDue ? this.yieldTurn() : undefined;
  }

  /** Stops the run: aborts the signal tools hold and ends every wait for a tool. */
  stop(error: NuwaError): void {
    if (this.stopError !== null) return;
    this.stopError = error;
    this.controller.abort(error);
    this.waits.stop(error);
  }

  /**
   * Releases timers and listeners; call once the run is over. Aborts the signal tools hold and ends
   * the waits of calls a tool started without awaiting them: nothing of the run goes on after it.
   */
  finish(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.hostSignal?.removeEventListener('abort', this.onHostAbort);
    this.stop(new NuwaError('AbortedError', `the ${this.noun} has finished`));
  }

  get durationMs(): number {
    return performance.now() - this.startedAt;
  }

  private timeoutError(): NuwaError {
    return new NuwaError('LimitExceededError', `the ${this.noun} took longer than timeoutMs (${this.limits.timeoutMs} ms)`);
  }

  // --- output -----------------------------------------------------------------------------------
  print(text: string, at?: Position): void {
    if (this.stopError !== null) throw this.stopError.at(at, this.fileName);
    this.outputBytes += Buffer.byteLength(text, 'utf8') + 1;
    if (this.outputBytes > this.limits.maxOutputBytes) {
      const error = new NuwaError('LimitExceededError', `the script printed more than maxOutputBytes (${this.limits.maxOutputBytes} bytes)`);
      this.stop(error);
      throw error.at(at, this.fileName);
    }
    this.output.push(text);
    const answer: unknown = this.printLine(text);
    // An async print hook that rejects must not become an unhandled rejection of the host.
    if (answer !== undefined) callHook(() => answer, [], (error) => this.logger.error(`the print hook failed: ${describeThrown(error)}`));
  }

  // --- tools ------------------------------------------------------------------------------------
  hasTool(name: string): boolean {
    return this.registry.has(name);
  }

  /**
   * A script's CALL: `andThen` of the tool's checked answer, at once when the tool returned a plain
   * value, else a promise of it (callTool in tools/invoke.ts).
   */
  callTool<R>(name: string, args: JsonObject, at: Position, scope: Scope, andThen: (value: Value, site: ScriptCallSite) => R): R | Pending | Promise<unknown> {
    const site = new ScriptCallSite(at, this, scope);
    this.plan?.pending.set(site, name);
    return callTool(this, name, args, site, 'value', andThen as (result: Value | JsonValue, site: CallSite) => R);
  }

  /** With `approvedPlan`: its remaining calls, and the script's CALLs not yet counted against it. */
  private plan: { budget: PlanBudget; pending: WeakMap<CallSite, string> } | undefined;

  usePlan(budget: PlanBudget): void {
    this.plan = { budget, pending: new WeakMap() };
  }

  coveredByPlan(tool: RegisteredTool, site: CallSite): boolean {
    if (this.plan === undefined || this.plan.pending.get(site) !== tool.name) return false;
    // Counted once: a tool calling tools through this CALL's context asks as usual.
    this.plan.pending.delete(site);
    return this.plan.budget.take(tool.name);
  }

  beginCall(_tool: RegisteredTool, depth: number): void {
    if (this.stopError !== null) throw this.stopError;
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

/**
 * A CALL in a script: its position, its run and scope (where the script goes on from it), and the
 * tool's view of the variables at that scope.
 */
export class ScriptCallSite implements CallSite, VariableAccess {
  constructor(
    private readonly at: Position,
    readonly run: Run,
    readonly scope: Scope,
  ) {}

  // Read from the CALL node when asked (one is made per call; most are never asked).
  get line(): number {
    return this.at.line;
  }
  get column(): number {
    return this.at.column;
  }
  get fileName(): string | undefined {
    return this.run.fileName;
  }
  get vars(): VariableAccess {
    return this;
  }

  get(name: string): JsonValue | undefined {
    const value = this.scope.lookup(name);
    return value === undefined ? undefined : toJson(value, this.run.valueLimits);
  }

  set(name: string, value: JsonValue): void {
    try {
      this.scope.assign(name, fromJson(value, this.run.valueLimits));
    } catch (error) {
      // A value over the run's limits stops the run, whatever the tool does with the error.
      if (isNuwaError(error) && error.kind === 'LimitExceededError') {
        this.run.stop(error);
        throw error;
      }
      throw new TypeError(`setVar("${name}"): ${describeThrown(error)}`);
    }
  }
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

/**
 * The logger tools' context.logger writes to: the host's methods, each guarded (a logger that throws
 * or rejects changes nothing), and by default warnings and errors on stderr.
 */
export function hostLogger(logger: Partial<Logger> | undefined): Logger {
  const toStderr = (level: string) => (message: string) => void process.stderr.write(`nuwa ${level}: ${message}\n`);
  const noop = () => {};
  const guarded = (method: ((message: string, meta?: unknown) => void) | undefined, fallback: (message: string) => void) => {
    if (typeof method !== 'function') return fallback;
    return (message: string, meta?: unknown) => callHook(method.bind(logger), [message, meta], noop);
  };
  return {
    debug: guarded(logger?.debug, noop),
    info: guarded(logger?.info, noop),
    warn: guarded(logger?.warn, toStderr('warning')),
    error: guarded(logger?.error, toStderr('error')),
  };
}

/** A listener that throws (or rejects) must not break the run; its failure is logged instead. */
function safeListener(listener: (event: NuwaEvent) => void, logger: Logger): (event: NuwaEvent) => void {
  return (event) => callHook(listener, [event], (error) => logger.warn(`an onEvent listener threw on ${event.type}: ${describeThrown(error)}`));
}

