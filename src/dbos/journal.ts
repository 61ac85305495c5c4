// The journal of a Nuwa run on DBOS (tools/journal.ts is its contract with the call path).
//
// A run is a DBOS workflow, and DBOS's record of it is the run's record: each tool invocation is a
// DBOS step (record.ts), so a worker that takes the run over after a crash replays the script with
// DBOS answering the calls already made, without invoking their tools, and stops with a ReplayError
// where the script, a tool or its arguments changed. NOW() values are steps of their own.
//
// Where a run must wait for a person (an approval, a question, an uncertain write), it pauses as a
// durable run does (api/durable.ts): the pass of the script ends, the workflow waits in DBOS.recv for
// the decisions (workflow.ts), and the script runs again from its start in the same workflow, the calls of
// the earlier passes answered from this execution's own memory (api/journal.ts's RunJournal) and the
// decisions applied. One DbosExecution lives as long as one execution of the workflow (a worker taking
// the run up); each pass has its DbosJournal around a RunJournal.
//
// No write is repeated: DBOS runs a step again when its worker died during it. A tool that is not safe
// to repeat marks its call as begun (started-calls.ts) before it runs; a step that finds its mark made
// by a previous attempt of itself does not call the tool and pauses at the call, `uncertain`, for a
// person to decide whether to make it again.
import { DBOS, Error as DBOSErrors } from '@dbos-inc/dbos-sdk';
import { getExecutor } from '@dbos-inc/dbos-sdk/internal/dbos';
import { isNuwaError, NuwaError, type Position } from '../errors.js';
import type { JsonObject } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import { confirmOf, type RegisteredTool } from '../tools/build.js';
import { safeToRepeat, type CallJournal, type CallOutcome, type Decision, type PendingCall, type RecordedCall } from '../tools/journal.js';
import { RunJournal } from '../api/journal.js';
import { argumentsHash, callStepName, invocationOf, NOW_STEP, readRecord, recordedAnswer, thrownRecord, UNBOUNDED, type CallStep, type RunRecord, type StepOutcome } from './record.js';
import type { StartedCalls } from './started-calls.js';

/** A tool step running in this execution: the calls it paused at, and the calls the tool made that ended. */
interface ActiveStep {
  pauses: PendingCall[];
  nested: RecordedCall[];
}

/** What one pass of the script starts from: what the passes before it did in this execution. */
export interface PassStart {
  log: readonly RecordedCall[];
  now: readonly number[];
  printedBefore: number;
}

/** One execution of a run's workflow, from the worker taking it up to its end. */
export class DbosExecution {
  /** Every decision received in this execution, by callId (the latest for a call that waited twice). */
  readonly decisions = new Map<string, Decision>();
  /** Why a call that waited got no decision (it timed out, or what was sent was not a decision). */
  readonly refusals = new Map<string, string>();
  /** Calls a previous attempt of their step began and did not finish: only a new decision lets them run. */
  readonly uncertain = new Set<string>();
  /** Where each call stands in the script (an uncertain call's pending entry names it). */
  readonly positions = new Map<string, Position>();
  /** The tool steps running now, by DBOS step id. */
  readonly activeSteps = new Map<number, ActiveStep>();
  private readonly controller = new AbortController();
  private stop: unknown;
  private nowIndex = 0;
  private readonly nowWrites: Array<Promise<unknown>> = [];

  private constructor(
    readonly runId: string,
    /** What earlier executions of the workflow recorded: how NOW() answered, and which calls were made. */
    readonly record: RunRecord,
    /** The marks of begun calls that a previous attempt of a step left (step id and callId). */
    private readonly begunBefore: ReadonlySet<string>,
    readonly startedCalls: StartedCalls,
  ) {}

  /** Reads what earlier executions recorded (a plain read, not a step: it must see the record as it is now). */
  static async begin(runId: string, startedCalls: StartedCalls): Promise<DbosExecution> {
    const [steps, begun] = await Promise.all([getExecutor().listWorkflowSteps(runId, true), startedCalls.marks(runId)]);
    return new DbosExecution(runId, readRecord(steps ?? []), new Set(begun.map(({ stepId, callId }) => markKey(stepId, callId))), startedCalls);
  }

  /** Aborted when the run must stop at once (see `fail`); the run's signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run had to stop: a ReplayError, or an error of DBOS's own that ends the workflow. */
  get stopped(): unknown {
    return this.stop;
  }

  /** A journal for the next pass of the script. */
  pass(start: PassStart): DbosJournal {
    const inner = new RunJournal({
      log: start.log,
      now: start.now,
      printedBefore: start.printedBefore,
      decisions: this.decisions,
      unfinished: this.uncertain,
      clock: () => this.now(),
    });
    return new DbosJournal(this, inner);
  }

  /**
   * A new NOW() value: the one an earlier execution recorded at this point, else the clock. Each is a
   * DBOS step; the step is reserved at once (DBOS numbers steps synchronously) and written in the
   * background, and every later step waits for the writes (`settleNow`), so that no call is
   * recorded with arguments made from a NOW() value that is not.
   */
  now(): number {
    const value = this.record.now[this.nowIndex] ?? Date.now();
    this.nowIndex++;
    const written = DBOS.runStep(async () => value, { name: NOW_STEP }).then(undefined, (error: unknown) => {
      this.fail(error);
    });
    this.nowWrites.push(written);
    return value;
  }

  /** Waits until every NOW() value taken so far is recorded. */
  async settleNow(): Promise<void> {
    await Promise.all(this.nowWrites.splice(0));
  }

  /**
   * A DBOS operation failed: the run stops at once. A step that is not the one recorded at its place
   * is the run diverging from its record (ReplayError); anything else (the workflow cancelled, the
   * database gone, another worker owning the run) is DBOS's to handle, and the workflow rethrows it.
   */
  fail(error: unknown): unknown {
    const stop = error instanceof DBOSErrors.DBOSUnexpectedStepError ? divergence(error) : error;
    if (this.stop === undefined) {
      this.stop = stop;
      this.controller.abort(isNuwaError(stop) ? stop : new NuwaError('AbortedError', `the run's workflow stopped: ${messageOf(stop)}`));
    }
    return stop;
  }

  /** Checks a call against the call recorded under its callId by an earlier execution. */
  checkRecorded(callId: string, toolName: string, args: JsonObject, at: Position | undefined): void {
    const recorded = this.record.calls.get(callId)?.[0];
    if (recorded === undefined || (recorded.toolName === toolName && argumentsHash(recorded.args) === argumentsHash(args))) return;
    const where = at === undefined ? '' : ` (line ${at.line}, column ${at.column})`;
    throw new NuwaError(
      'ReplayError',
      `the run no longer matches its record at call ${callId}${where}: it was CALL ${recorded.toolName} ${brief(recorded.args)}, and is now CALL ${toolName} ${brief(args)}; the script, a tool or the tools loaded changed since the run was recorded`,
      { toolName, ...(at !== undefined && { line: at.line, column: at.column }) },
    );
  }

  /** Whether a previous attempt of step `stepId` began call `callId` (the step runs again: the call may have happened). */
  begunByEarlierAttempt(stepId: number, callId: string): boolean {
    return this.begunBefore.has(markKey(stepId, callId));
  }

  /** The call may have happened: earlier decisions for it no longer count, only one made knowing that. */
  markUncertain(callId: string): void {
    this.uncertain.add(callId);
    this.decisions.delete(callId);
    this.refusals.delete(callId);
  }
}

/** The journal of one pass: the pass's RunJournal, with DBOS standing around each tool invocation. */
export class DbosJournal implements CallJournal {
  private printed: () => number;

  constructor(
    private readonly execution: DbosExecution,
    private readonly inner: RunJournal,
  ) {
    this.printed = () => inner.printedBefore;
  }

  get printedBefore(): number {
    return this.inner.printedBefore;
  }

  get pending(): readonly PendingCall[] {
    return this.inner.pending;
  }

  /** Every call that ended, in this pass and the passes before it. */
  get log(): readonly RecordedCall[] {
    return this.inner.log;
  }

  /** Every NOW() value, in this pass and the passes before it. */
  get nowValues(): readonly number[] {
    return this.inner.nowValues;
  }

  /** How many lines the run has printed so far. */
  printedLines(): number {
    return this.printed();
  }

  countPrintedBy(printed: () => number): void {
    this.printed = printed;
    this.inner.countPrintedBy(printed);
  }

  replayed(callId: string, toolName: string, args: JsonObject, at: Position | undefined): RecordedCall | undefined {
    if (at !== undefined) this.execution.positions.set(callId, at);
    const recorded = this.inner.replayed(callId, toolName, args, at);
    if (recorded === undefined) this.execution.checkRecorded(callId, toolName, args, at);
    return recorded;
  }

  decision(callId: string): Decision | undefined {
    return this.inner.decision(callId);
  }

  refused(callId: string): string | undefined {
    return this.execution.refusals.get(callId);
  }

  unfinished(callId: string): boolean {
    if (this.inner.unfinished(callId)) return true;
    // A tool's own call in a step that runs again: if the step's previous attempt began it, it may
    // have happened (the step as a whole is not recorded, so neither is the call).
    if (DBOS.isInStep() && this.execution.begunByEarlierAttempt(DBOS.stepID!, callId)) {
      this.execution.markUncertain(callId);
      return true;
    }
    return false;
  }

  started(callId: string, tool: RegisteredTool, args: JsonObject): void | Promise<void> {
    return this.inner.started(callId, tool, args);
  }

  finished(callId: string, outcome: CallOutcome): void {
    // A call that paused (an uncertain one) ended by pausing: it is made when it is decided.
    if (this.inner.pending.some((pending) => pending.callId === callId)) return;
    const before = this.inner.log.length;
    this.inner.finished(callId, outcome);
    this.keptInStep(before);
  }

  settled(callId: string, toolName: string, args: JsonObject, outcome: CallOutcome): void {
    const before = this.inner.log.length;
    this.inner.settled(callId, toolName, args, outcome);
    this.keptInStep(before);
  }

  /** A call that ended inside a tool's step (the tool's own call, question or completion) is kept in the step's record. */
  private keptInStep(before: number): void {
    if (this.inner.log.length === before || !DBOS.isInStep()) return;
    this.execution.activeSteps.get(DBOS.stepID!)?.nested.push(...this.inner.log.slice(before));
  }

  pause(pending: PendingCall): NuwaError {
    if (DBOS.isInStep()) this.execution.activeSteps.get(DBOS.stepID!)?.pauses.push(pending);
    if (pending.kind === 'approval' && pending.uncertain) this.execution.markUncertain(pending.callId);
    return this.inner.pause(pending);
  }

  now(): number {
    return this.inner.now();
  }

  /**
   * A tool's invocation. The script's own call is a DBOS step (a tool's own calls run inside its
   * step, where DBOS allows no step of their own): DBOS answers it from the record when an earlier
   * execution made it, else runs the tool and records how it ended.
   */
  invoke(callId: string, tool: RegisteredTool, args: JsonObject, invoke: () => unknown): unknown {
    const mayRepeat = safeToRepeat({ confirm: confirmOf(tool, args), idempotent: tool.idempotent });
    if (DBOS.isInStep()) return mayRepeat ? invoke() : this.invokeInStep(callId, tool, args, invoke);
    const execution = this.execution;
    // Copied before the tool runs: it gets the arguments object itself, and may change it.
    const recordedArgs = copyJson(args, UNBOUNDED) as JsonObject;
    // Set when the step ran here rather than being answered from the record: what the tool threw,
    // then, is thrown again as it was (a replay throws its record).
    let ranHere: { threw?: { error: unknown } } | undefined;
    const step = DBOS.runStep(
      async (): Promise<CallStep> => {
        const stepId = DBOS.stepID!;
        const here: { threw?: { error: unknown } } = {};
        ranHere = here;
        const active: ActiveStep = { pauses: [], nested: [] };
        execution.activeSteps.set(stepId, active);
        const startedAt = Date.now();
        let outcome: StepOutcome;
        try {
          await execution.settleNow();
          const begun = mayRepeat ? { fresh: true } : await execution.startedCalls.begin(execution.runId, stepId, callId).then((fresh) => ({ fresh }), (error: unknown) => ({ error }));
          if ('error' in begun) {
            outcome = { thrown: { message: `the worker could not record that the call began, so it did not make it: ${describeThrown(begun.error)}` } };
          } else if (!begun.fresh) {
            // A previous attempt of this very step began the call and did not live to record its end.
            this.pause(this.uncertainCall(callId, tool, recordedArgs));
            outcome = { paused: [] };
          } else {
            const answer = await invocationOf(invoke);
            if ('threw' in answer) here.threw = { error: answer.threw };
            outcome = 'threw' in answer ? { thrown: thrownRecord(answer.threw) } : answer.outcome;
          }
        } finally {
          execution.activeSteps.delete(stepId);
        }
        // Calls this invocation paused at (its own, a question, a call of the tool's): it is made again once decided.
        if (active.pauses.length > 0) outcome = { paused: active.pauses };
        return { callId, toolName: tool.name, args: recordedArgs, outcome, nested: active.nested, startedAt, endedAt: Date.now() };
      },
      { name: callStepName(callId, tool.name, args) },
    );
    return step.then(
      (recorded) => this.answer(recorded, ranHere),
      (error: unknown) => {
        throw execution.fail(error);
      },
    );
  }

  /** A tool's own call that may not be repeated, inside its step: marked as begun under that step. */
  private invokeInStep(callId: string, tool: RegisteredTool, args: JsonObject, invoke: () => unknown): unknown {
    const { runId, startedCalls } = this.execution;
    return startedCalls.begin(runId, DBOS.stepID!, callId).then((begun) => {
      // Already marked by this very attempt of the step: cannot happen, but a doubt is for a person to decide.
      if (!begun) throw this.pause(this.uncertainCall(callId, tool, copyJson(args, UNBOUNDED) as JsonObject));
      return invoke();
    });
  }

  /** What the call path gets for a step: the answer recorded (or just made), or what the tool threw. */
  private answer(step: CallStep, ranHere: { threw?: { error: unknown } } | undefined): unknown {
    const { outcome } = step;
    if (ranHere === undefined) {
      // Answered from the record: the calls the tool made inside it are this execution's record too,
      // and the calls it paused at wait again.
      this.inner.log.push(...step.nested);
      if ('paused' in outcome) for (const pending of outcome.paused) this.pause(pending);
    }
    if ('paused' in outcome) throw new NuwaError('AbortedError', `the run paused at call ${outcome.paused[0]?.callId ?? step.callId}`);
    if ('thrown' in outcome && ranHere?.threw !== undefined) throw ranHere.threw.error;
    return recordedAnswer(outcome);
  }

  /** The pending entry of a call that may have happened: a person decides whether to make it again. */
  private uncertainCall(callId: string, tool: RegisteredTool, args: JsonObject): PendingCall {
    const at = this.execution.positions.get(callId) ?? { line: 0, column: 0 };
    return { callId, kind: 'approval', toolName: tool.name, confirm: confirmOf(tool, args), category: tool.category, args, line: at.line, column: at.column, uncertain: true };
  }
}

function markKey(stepId: number, callId: string): string {
  return `${stepId} ${callId}`;
}

/** DBOS found another step recorded where the run now makes this one: a ReplayError naming both. */
export function divergence(error: InstanceType<typeof DBOSErrors.DBOSUnexpectedStepError>): NuwaError {
  const recorded = /function (.*) was recorded when/.exec(error.message)?.[1] ?? 'another step';
  return new NuwaError(
    'ReplayError',
    `the run no longer matches its record at its step ${error.stepID}: ${describeStep(recorded)} was recorded there, and the run now makes ${describeStep(error.expectedName)}; the script, a tool or the tools loaded changed since the run was recorded`,
  );
}

/** A DBOS step name, as the script's author knows it. */
function describeStep(name: string): string {
  if (name === NOW_STEP) return 'NOW()';
  const call = /^nuwa\.call (\S+) (\S+) /.exec(name);
  if (call !== null) return `the call ${call[1]} (CALL ${call[2]})`;
  if (name === 'DBOS.recv' || name === 'DBOS.setEvent') return 'a wait for a decision';
  return name;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Arguments in a message: their JSON, cut short. */
function brief(args: JsonObject): string {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
