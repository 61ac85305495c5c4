// Durable runs (DURABLE.md §2–3): a run a host can stop where a person must decide, keep as JSON, and
// finish later in another process, without calling any tool twice. There is no snapshot of the
// interpreter: a checkpoint is the log of what came from outside, and resuming runs the script again
// from the start with the log answering (journal.ts), up to the call that waited, where the host's
// decision applies. start, resume and recover resolve to an outcome for whatever the script does, and
// reject only when the checkpoint, the store or the options cannot be used.
import { randomId } from '../util/platform.js';
import { isNuwaError, NuwaError } from '../errors.js';
import type { NuwaEvent, RunStats } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import type { CallJournal, Decision, PendingCall } from '../tools/journal.js';
import { CHECKPOINT_VERSION, readCheckpoint, sign, sourceHashOf, type Checkpoint, type CheckpointStatus } from './checkpoint.js';
import { RunJournal } from './journal.js';
import { checkRunId, type RunHeader, type RunStore, type RunWriter, type StoredRun } from './store.js';
import type { RecoverOptions, ResumeOptions, RunOptions, RunOutcome, RunResult, StartOptions } from './types.js';

/** What makes a run durable, given to the run itself. */
export interface DurableRunSettings {
  runId: string;
  journal: CallJournal;
  /** Time spent running before this process took the run up (timeoutMs counts across pauses). */
  elapsedMs: number;
  /** Overrides the interpreter's `onApproval: 'pause'` (an integration whose runs always wait). */
  pauseForApproval?: boolean;
  /** Overrides the interpreter's `maxConcurrentCalls` (an engine that replays calls in the order they start). */
  maxConcurrentCalls?: number;
}

/** How a run of a script ended (Interpreter.runScript). */
export type ScriptEnd =
  | { ok: true; result: RunResult; output: string[] }
  | { ok: false; paused?: undefined; error: NuwaError; stats: RunStats; output: string[] }
  | { ok: false; paused: true; stats: RunStats; output: string[]; state: Record<string, JsonValue> };

/** What the durable runs need of the Interpreter. */
export interface DurableHost {
  runScript(source: string, options: RunOptions, durable: DurableRunSettings): Promise<ScriptEnd>;
  /** Sets a paused run's session state in the session the resumed run uses. */
  restoreState(state: Record<string, JsonValue>): void;
  readonly checkpointKey: string | Uint8Array | undefined;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
}

/** What a run's checkpoint holds besides its log, fixed when it starts. */
interface RunBasis {
  runId: string;
  source: string;
  includeSource: boolean;
  fileName: string | undefined;
  variables: Record<string, JsonValue>;
  plan: RunOptions['approvedPlan'];
}

export async function startRun(host: DurableHost, source: unknown, options: StartOptions = {}): Promise<RunOutcome> {
  if (typeof source !== 'string') throw typeError('start(source): the source must be script text (a durable run is bound to its text by a hash)');
  const opts = readOptions(options, 'start', ['variables', 'signal', 'fileName', 'approvedPlan', 'runId', 'store', 'includeSource', 'meta']);
  const runId = opts.runId ?? randomId();
  checkRunId(runId);
  checkStore(opts.store, 'start');
  const basis: RunBasis = {
    runId,
    source,
    includeSource: opts.includeSource !== false,
    fileName: opts.fileName,
    variables: initialVariables(opts.variables),
    plan: opts.approvedPlan,
  };
  const header: RunHeader = {
    type: 'run',
    version: CHECKPOINT_VERSION,
    runId,
    createdAt: Date.now(),
    sourceHash: sourceHashOf(source),
    ...(basis.includeSource && { source }),
    ...(basis.fileName !== undefined && { fileName: basis.fileName }),
    variables: basis.variables,
    ...(basis.plan !== undefined && { plan: basis.plan }),
    ...(opts.meta !== undefined && { meta: readMeta(opts.meta) }),
  };
  const writer = opts.store === undefined ? undefined : await opts.store.create(header);
  return drive(host, basis, new RunJournal({ writer }), 0, opts.signal, writer);
}

export async function resumeRun(host: DurableHost, input: unknown, options: ResumeOptions = {}): Promise<RunOutcome> {
  const opts = readOptions(options, 'resume', ['decisions', 'signal', 'store', 'source']);
  checkStore(opts.store, 'resume');
  const checkpoint = readCheckpoint(input, host.checkpointKey, opts.source);
  if (checkpoint.status !== 'paused') throw new NuwaError('ReplayError', `run ${checkpoint.runId} has ${checkpoint.status}: there is nothing to resume`);
  const decisions = readDecisions(opts.decisions, checkpoint.pending);
  if (checkpoint.state !== undefined) host.restoreState(checkpoint.state);
  const writer = opts.store === undefined ? undefined : await opts.store.open(checkpoint.runId);
  // A call still uncertain (recover paused at it) stays so: only a decision lets it go ahead.
  const unfinished = checkpoint.pending.filter((pending) => pending.kind === 'approval' && pending.uncertain).map((pending) => pending.callId);
  const journal = new RunJournal({ log: checkpoint.log, now: checkpoint.now, printedBefore: checkpoint.printed, decisions, unfinished, writer });
  try {
    await journal.note({ type: 'resumed', at: Date.now(), decisions: Object.fromEntries(decisions) });
  } catch (error) {
    await writer?.close();
    throw error;
  }
  host.emit?.({ type: 'run:resumed', executionId: checkpoint.runId, timestamp: Date.now(), runId: checkpoint.runId, decisions: [...decisions.keys()] });
  return drive(host, basisOf(checkpoint), journal, checkpoint.stats.durationMs, opts.signal, writer);
}

export async function recoverRun(host: DurableHost, runId: unknown, options: RecoverOptions): Promise<RunOutcome> {
  const opts = readOptions(options, 'recover', ['store', 'signal']);
  checkRunId(runId);
  if (opts.store === undefined) throw typeError('recover(runId, { store }): store is the run store the run was recorded in');
  checkStore(opts.store, 'recover');
  const stored = await opts.store.load(runId);
  if (stored === undefined) throw typeError(`recover: there is no run ${runId} in the store`);
  if (stored.status !== 'running') return outcomeOf(stored, host.checkpointKey);
  const writer = await opts.store.open(runId);
  // Read again under the lease: the process that held it may have written more before it died.
  const current = (await opts.store.load(runId))!;
  const { checkpoint } = current;
  const text = checkpoint.source;
  if (text === undefined) {
    await writer.close();
    throw new NuwaError('ReplayError', `run ${runId} was recorded without its source (includeSource: false): it can only be resumed with the source given`);
  }
  const journal = new RunJournal({
    log: checkpoint.log,
    now: checkpoint.now,
    printedBefore: checkpoint.printed,
    unfinished: current.unfinished.map((call) => call.callId),
    writer,
  });
  host.emit?.({ type: 'run:resumed', executionId: runId, timestamp: Date.now(), runId, decisions: [] });
  return drive(host, basisOf({ ...checkpoint, source: text }), journal, checkpoint.stats.durationMs, opts.signal, writer);
}

/** Runs the script with its journal, and makes the outcome, the checkpoint and the record's last entry. */
async function drive(host: DurableHost, basis: RunBasis, journal: RunJournal, elapsedMs: number, signal: AbortSignal | undefined, writer: RunWriter | undefined): Promise<RunOutcome> {
  try {
    const ended = await host.runScript(
      basis.source,
      { variables: basis.variables, signal, fileName: basis.fileName, approvedPlan: basis.plan },
      { runId: basis.runId, journal, elapsedMs },
    );
    if (!ended.ok && !ended.paused && ended.error.kind === 'ReplayError') throw ended.error;
    if (journal.storeError) throw journal.storeError;
    const at = Date.now();
    const printed = ended.output.length;
    if (ended.ok) {
      const { result } = ended;
      const checkpoint = checkpointOf(host, basis, journal, 'completed', printed, result.stats);
      await journal.end({ type: 'completed', at, result: { variables: result.variables, output: result.output }, printed, stats: result.stats });
      return { status: 'completed', runId: basis.runId, result, checkpoint };
    }
    if (ended.paused) {
      const checkpoint = checkpointOf(host, basis, journal, 'paused', printed, ended.stats, ended.state);
      await journal.end({ type: 'paused', at, pending: checkpoint.pending, printed, stats: ended.stats, state: ended.state });
      return { status: 'paused', runId: basis.runId, pending: checkpoint.pending, checkpoint };
    }
    const { error } = ended;
    const checkpoint = checkpointOf(host, basis, journal, 'failed', printed, ended.stats);
    await journal.end({ type: 'failed', at, error: { kind: error.kind, message: error.message, line: error.line, column: error.column }, printed, stats: ended.stats });
    return { status: 'failed', runId: basis.runId, error, checkpoint };
  } finally {
    await writer?.close();
  }
}

function checkpointOf(host: DurableHost, basis: RunBasis, journal: RunJournal, status: CheckpointStatus, printed: number, stats: RunStats, state?: Record<string, JsonValue>): Checkpoint {
  const checkpoint: Checkpoint = {
    version: CHECKPOINT_VERSION,
    runId: basis.runId,
    status,
    ...(basis.includeSource && { source: basis.source }),
    sourceHash: sourceHashOf(basis.source),
    ...(basis.fileName !== undefined && { fileName: basis.fileName }),
    variables: basis.variables,
    log: journal.log,
    now: journal.nowValues,
    printed,
    stats,
    ...(basis.plan !== undefined && { plan: basis.plan }),
    pending: status === 'paused' ? journal.pending : [],
    ...(state !== undefined && { state }),
  };
  // A plain JSON value the host owns: nothing of it is shared with the run's own state.
  return sign(copyJson(checkpoint, UNBOUNDED) as unknown as Checkpoint, host.checkpointKey);
}

const UNBOUNDED = { maxValueSize: Number.MAX_SAFE_INTEGER, maxStringLength: Number.MAX_SAFE_INTEGER };

function basisOf(checkpoint: Checkpoint & { source: string }): RunBasis {
  return {
    runId: checkpoint.runId,
    source: checkpoint.source,
    includeSource: true,
    fileName: checkpoint.fileName,
    variables: checkpoint.variables,
    plan: checkpoint.plan,
  };
}

/** The outcome of a stored run that is not running: what it ended with, or where it waits. */
function outcomeOf(run: StoredRun, key: string | Uint8Array | undefined): RunOutcome {
  const checkpoint = sign(run.checkpoint, key);
  switch (run.status) {
    case 'paused':
      return { status: 'paused', runId: run.runId, pending: checkpoint.pending, checkpoint };
    case 'completed':
      return { status: 'completed', runId: run.runId, result: { variables: run.result?.variables ?? {}, output: run.result?.output ?? [], stats: checkpoint.stats }, checkpoint };
    default: {
      const recorded = run.error ?? { kind: 'TypeError' as const, message: 'the run failed' };
      const error = new NuwaError(recorded.kind, recorded.message, { line: recorded.line, column: recorded.column });
      return { status: 'failed', runId: run.runId, error, checkpoint };
    }
  }
}

function typeError(message: string): NuwaError {
  return new NuwaError('TypeError', message);
}

/** The options object, read once into a plain copy; an unknown option is named. */
function readOptions<T extends object>(options: T, method: string, known: string[]): T {
  if (options === null || typeof options !== 'object') throw typeError(`${method}: options must be an object`);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw typeError(`${method}: unknown option \`${key}\` (the options are ${known.join(', ')})`);
    copy[key] = (options as Record<string, unknown>)[key];
  }
  const signal = copy.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw typeError(`${method}: the signal option must be an AbortSignal`);
  return copy as T;
}

function checkStore(store: unknown, method: string): asserts store is RunStore | undefined {
  if (store === undefined) return;
  const candidate = store as Partial<RunStore> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.create !== 'function' || typeof candidate.open !== 'function' || typeof candidate.load !== 'function') {
    throw typeError(`${method}: store must be a run store (MemoryRunStore, FileRunStore, PostgresRunStore)`);
  }
}

function readMeta(meta: unknown): JsonObject {
  try {
    const copy = copyJson(meta);
    if (copy !== null && typeof copy === 'object' && !Array.isArray(copy)) return copy;
  } catch {
    // reported below
  }
  throw typeError('start: meta must be an object of JSON values');
}

/** A run's initial variables as a copy of JSON values, or a TypeError (its message after `where`, such as "enqueue: "). */
export function initialVariables(variables: unknown, where = ''): Record<string, JsonValue> {
  if (variables === undefined) return {};
  try {
    const copy = copyJson(variables);
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw new Error('they must be an object of name → JSON value');
    return copy;
  } catch (error) {
    throw isNuwaError(error) ? error : typeError(`${where}the initial variables are not JSON: ${describeThrown(error)}`);
  }
}

/** The decisions for a resume: each for a call the run waits at, of the kind that call needs. */
function readDecisions(input: unknown, pending: readonly PendingCall[]): Map<string, Decision> {
  const decisions = new Map<string, Decision>();
  if (input === undefined) return decisions;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw typeError('resume: decisions must be an object of callId → true, false or { answer }');
  for (const [callId, decision] of Object.entries(input)) {
    const waiting = pending.find((p) => p.callId === callId);
    if (waiting === undefined) {
      throw typeError(`resume: the run does not wait at call ${callId} (it waits at ${pending.map((p) => p.callId).join(', ') || 'no call'})`);
    }
    if (waiting.kind === 'approval') {
      if (typeof decision !== 'boolean') throw typeError(`resume: call ${callId} waits for approval: decide it with true or false`);
      decisions.set(callId, decision);
    } else {
      const answer = (decision as { answer?: unknown } | null)?.answer;
      if (typeof answer !== 'string') throw typeError(`resume: call ${callId} waits for an answer: give it as { answer: "..." }`);
      decisions.set(callId, { answer });
    }
  }
  return decisions;
}
