// The body of the `nuwa.run` workflow: one run of a script, in passes (journal.ts says why). Each pass
// runs the script with the execution's journal; a pass that pauses publishes the calls it waits at
// (the DBOS event `nuwa.waiting`), waits in DBOS.recv for a decision on each (decisions.ts), with the
// host's timeout, and the next pass applies them. The run ends when a pass completes or fails; the
// workflow returns its outcome (outcome.ts), which DBOS keeps as the workflow's output.
import { DBOS, Error as DBOSErrors } from '@dbos-inc/dbos-sdk';
import { isNuwaError, NuwaError } from '../errors.js';
import type { CallJournal, Decision, PendingCall, RecordedCall } from '../tools/journal.js';
import type { JournaledOutcome, RunOptions } from '../api/types.js';
import { waitForDecision } from './decisions.js';
import { DbosExecution, type DbosJournal } from './journal.js';
import { asRunError, checkpointOf, emptyStats, errorRecord, WAITING_EVENT, type RunInput, type StoredOutcome, type Waiting } from './outcome.js';
import type { StartedCalls } from './started-calls.js';

/** What the workflow needs of an Interpreter. */
export interface RunsScripts {
  runWithJournal(source: string, journal: CallJournal, options: RunOptions & { runId: string; elapsedMs?: number; onApproval?: 'deny' | 'pause'; maxConcurrentCalls?: number }): Promise<JournaledOutcome>;
}

export interface WorkflowSettings {
  createInterpreter: (run: { runId: string }) => RunsScripts;
  decisionTimeoutMs: number;
  startedCalls: StartedCalls;
  /** Told of failures that do not change the run's outcome (the marks of begun calls not deleted). */
  onError: (error: unknown) => void;
}

export async function runScriptWorkflow(settings: WorkflowSettings, input: RunInput): Promise<StoredOutcome> {
  const runId = DBOS.workflowID!;
  let interpreter: RunsScripts;
  try {
    interpreter = settings.createInterpreter({ runId });
    if (interpreter === null || typeof interpreter !== 'object' || typeof interpreter.runWithJournal !== 'function') throw new Error('it did not return an Interpreter');
  } catch (error) {
    const problem = isNuwaError(error) ? error : new NuwaError('TypeError', `nuwaDbos: createInterpreter failed: ${error instanceof Error ? error.message : String(error)}`);
    return ended(settings, runId, input, { status: 'failed', error: problem, stats: emptyStats() }, { log: [], now: [], printed: 0 });
  }
  const execution = await DbosExecution.begin(runId, settings.startedCalls);
  let start = { log: [] as readonly RecordedCall[], now: [] as readonly number[], printedBefore: 0 };
  let elapsedMs = 0;
  // How many times each call has waited so far in this run (each wait has its own topic).
  const waits = new Map<string, number>();
  let journal: DbosJournal | undefined;
  try {
    for (;;) {
      journal = execution.pass(start);
      const outcome = await interpreter.runWithJournal(input.source, journal, {
        runId,
        variables: input.variables,
        ...(input.fileName !== undefined && { fileName: input.fileName }),
        signal: execution.signal,
        elapsedMs,
        onApproval: 'pause',
        // DBOS replays a workflow's steps by the order they started in: calls are made one at a
        // time, so that the order is the same in every execution.
        maxConcurrentCalls: 1,
      });
      await execution.settleNow();
      const stopped = execution.stopped;
      if (stopped !== undefined) {
        if (!isNuwaError(stopped)) throw stopped;
        return ended(settings, runId, input, { status: 'failed', error: stopped, stats: 'stats' in outcome ? outcome.stats : outcome.result.stats }, recordOf(journal));
      }
      if (outcome.status !== 'paused') return ended(settings, runId, input, outcome, recordOf(journal));

      const waiting: Waiting = { pending: outcome.pending, waits: outcome.pending.map((pending) => nextWait(waits, pending.callId)) };
      await DBOS.setEvent(WAITING_EVENT, waiting);
      for (const [index, pending] of outcome.pending.entries()) {
        const received = await waitForDecision<unknown>(pending.callId, settings.decisionTimeoutMs, waiting.waits[index]);
        decide(execution, pending, received, settings.decisionTimeoutMs);
      }
      await DBOS.setEvent(WAITING_EVENT, null);
      start = { log: journal.log, now: journal.nowValues, printedBefore: journal.printedLines() };
      elapsedMs = outcome.stats.durationMs;
    }
  } catch (error) {
    // A wait or an event that is not the one recorded at its place: the run diverged from its record.
    const stop = error instanceof DBOSErrors.DBOSUnexpectedStepError ? execution.fail(error) : error;
    if (!isNuwaError(stop)) throw stop;
    return ended(settings, runId, input, { status: 'failed', error: stop, stats: emptyStats() }, journal === undefined ? { log: [], now: [], printed: 0 } : recordOf(journal));
  }
}

/** The next wait number of a call. */
function nextWait(waits: Map<string, number>, callId: string): number {
  const wait = waits.get(callId) ?? 0;
  waits.set(callId, wait + 1);
  return wait;
}

/** Applies what came for a call that waited: a decision of the kind it needs, or a refusal saying why not. */
function decide(execution: DbosExecution, pending: PendingCall, received: { decision: unknown } | { timedOut: true }, timeoutMs: number): void {
  const { callId } = pending;
  execution.refusals.delete(callId);
  let decision: Decision | undefined;
  let refusal: string | undefined;
  if ('timedOut' in received) refusal = `no decision came within ${timeoutMs} ms (decisionTimeoutMs)`;
  else if (pending.kind === 'approval') {
    if (typeof received.decision === 'boolean') decision = received.decision;
    else refusal = `the decision sent for it was not true or false: ${describe(received.decision)}`;
  } else {
    const answer = (received.decision as { answer?: unknown } | null)?.answer;
    if (typeof answer === 'string') decision = { answer };
    else refusal = `the decision sent for it was not { answer: "..." }: ${describe(received.decision)}`;
  }
  if (refusal !== undefined) {
    execution.refusals.set(callId, refusal);
    // An approval refused is denied; a question refused fails (host-requests.ts reads the refusal).
    execution.decisions.set(callId, false);
  } else execution.decisions.set(callId, decision!);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function recordOf(journal: DbosJournal): { log: readonly RecordedCall[]; now: readonly number[]; printed: number } {
  return { log: journal.log, now: journal.nowValues, printed: journal.printedLines() };
}

/** The run's end: its outcome with its checkpoint, and the marks of its begun calls forgotten. */
async function ended(
  settings: WorkflowSettings,
  runId: string,
  input: RunInput,
  outcome: Exclude<JournaledOutcome, { status: 'paused' }>,
  record: { log: readonly RecordedCall[]; now: readonly number[]; printed: number },
): Promise<StoredOutcome> {
  // Every step is recorded by now: no step function runs again, and no mark is read again.
  await settings.startedCalls.forget(runId).catch(settings.onError);
  const worker = DBOS.executorID;
  if (outcome.status === 'completed') {
    const checkpoint = checkpointOf(runId, input, 'completed', { ...record, printed: outcome.result.output.length, stats: outcome.result.stats });
    return { status: 'completed', result: outcome.result, checkpoint, worker };
  }
  const checkpoint = checkpointOf(runId, input, 'failed', { ...record, stats: outcome.stats });
  return { status: 'failed', error: errorRecord(asRunError(outcome.error, 'the run failed')), checkpoint, worker };
}
