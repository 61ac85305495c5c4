// Where durable runs are recorded as they happen (DURABLE.md §3), so that a run whose process died can
// be finished by another. A store keeps each run as a sequence of entries, appended in order: the
// run's header, a `started` entry before each call (what it is about to do) and a `finished` entry
// after it, NOW() values, and the run's pauses, resumptions and end. A run is read back by folding its
// entries (foldRun). Every store (memory, file, Postgres) keeps the same entries and leases a run to
// one driver at a time.
import { NuwaError } from '../errors.js';
import type { EventError, RunStats } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import type { ApprovedPlan } from '../check/approval.js';
import type { Decision, PendingCall, RecordedCall } from '../tools/journal.js';
import { CHECKPOINT_VERSION, type Checkpoint, type CheckpointStatus } from './checkpoint.js';

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed';

/** What a run starts with. */
export interface RunHeader {
  type: 'run';
  version: 1;
  runId: string;
  createdAt: number;
  sourceHash: string;
  source?: string;
  fileName?: string;
  variables: Record<string, JsonValue>;
  plan?: ApprovedPlan;
  /** What the host keeps with the run (the command line keeps the options that load its tools). */
  meta?: JsonObject;
}

/** What a finished run gives back. */
export interface StoredResult {
  variables: Record<string, JsonValue>;
  output: string[];
}

export type RunEntry =
  | RunHeader
  | { type: 'started'; callId: string; toolName: string; args: JsonObject; at: number }
  | ({ type: 'finished'; printed: number } & RecordedCall)
  | { type: 'now'; value: number }
  | { type: 'paused'; at: number; pending: PendingCall[]; printed: number; stats: RunStats; state?: Record<string, JsonValue> }
  // Decisions recorded for a paused run, to be applied when it is next resumed.
  | { type: 'decided'; at: number; decisions: Record<string, Decision> }
  | { type: 'resumed'; at: number; decisions: Record<string, Decision> }
  | { type: 'completed'; at: number; result: StoredResult; printed: number; stats: RunStats }
  | { type: 'failed'; at: number; error: EventError; printed: number; stats: RunStats };

/** A call started by a process that died before it ended. */
export interface UnfinishedCall {
  callId: string;
  toolName: string;
  args: JsonObject;
}

/** A run as a store holds it. */
export interface StoredRun {
  runId: string;
  status: RunStatus;
  createdAt: number;
  updatedAt: number;
  /** Resumable from (`interpreter.resume`), or the end state of a run that ended. */
  checkpoint: Checkpoint;
  /** Calls started after the last pause and never finished: the process died during them. */
  unfinished: UnfinishedCall[];
  /** Decisions recorded for the paused run since it paused (`decided` entries), not yet applied. */
  decisions: Record<string, Decision>;
  /** What the host keeps with the run. */
  meta?: JsonObject;
  result?: StoredResult;
  error?: EventError;
}

/** One line of an inbox of runs (`store.list`). */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  createdAt: number;
  updatedAt: number;
  fileName?: string;
  pending: PendingCall[];
}

/** A run leased to this process: appends go to its record, in order. */
export interface RunWriter {
  /**
   * Appends an entry. `durable`: it must be kept before the run goes on even if the machine stops
   * (the record of a call that may not be repeated); a returned promise is waited for.
   */
  append(entry: RunEntry, durable: boolean): void | Promise<void>;
  /** Waits until every entry is kept, then gives the lease up. */
  close(): Promise<void>;
}

export interface RunStore {
  /** Records a new run, leased to this process; ConflictError when a run with this id exists. */
  create(header: RunHeader): Promise<RunWriter>;
  /** Leases an existing run to this process; ConflictError while another process drives it. */
  open(runId: string): Promise<RunWriter>;
  load(runId: string): Promise<StoredRun | undefined>;
  list(filter?: { status?: RunStatus }): Promise<RunSummary[]>;
  /** Forgets a run; ConflictError while it is being driven. */
  delete(runId: string): Promise<void>;
  /** Lets go of what the store holds (a database pool it made); optional. */
  close?(): Promise<void>;
}

export function conflict(runId: string, why: string): NuwaError {
  return new NuwaError('ConflictError', `run ${runId} ${why}`);
}

const RUN_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Run ids name files and rows: letters, digits, `_`, `.` and `-`, at most 128, not starting with a dot. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    throw new NuwaError('TypeError', `runId must be 1 to 128 letters, digits, _ . or - (not starting with . or -), got ${JSON.stringify(runId)}`);
  }
}

/** The run its entries describe; undefined when they hold no header (nothing was recorded). */
export function foldRun(entries: readonly RunEntry[]): StoredRun | undefined {
  const header = entries[0];
  if (header === undefined || header.type !== 'run') return undefined;
  const log = new Map<string, RecordedCall>();
  const started = new Map<string, UnfinishedCall>();
  const now: number[] = [];
  let status: RunStatus = 'running';
  let updatedAt = header.createdAt;
  let printed = 0;
  let stats: RunStats = { steps: 0, toolCalls: 0, durationMs: 0 };
  let pending: PendingCall[] = [];
  let state: Record<string, JsonValue> | undefined;
  let decisions: Record<string, Decision> = {};
  let result: StoredResult | undefined;
  let error: EventError | undefined;
  for (const entry of entries) {
    switch (entry.type) {
      case 'started':
        started.set(entry.callId, { callId: entry.callId, toolName: entry.toolName, args: entry.args });
        updatedAt = entry.at;
        break;
      case 'finished': {
        const { type: _type, printed: count, ...call } = entry;
        log.set(call.callId, call);
        started.delete(call.callId);
        printed = Math.max(printed, count);
        updatedAt = entry.endedAt;
        break;
      }
      case 'now':
        now.push(entry.value);
        break;
      case 'paused':
        // Calls still open here were interrupted by the pause (a tool that asked): they run again on
        // resume, and are not calls a crash left unfinished.
        started.clear();
        ({ pending, printed, stats, state } = entry);
        decisions = {};
        status = 'paused';
        updatedAt = entry.at;
        break;
      case 'decided':
        decisions = { ...decisions, ...entry.decisions };
        updatedAt = entry.at;
        break;
      case 'resumed':
        status = 'running';
        pending = [];
        decisions = {};
        updatedAt = entry.at;
        break;
      case 'completed':
      case 'failed':
        status = entry.type;
        ({ printed, stats } = entry);
        pending = [];
        if (entry.type === 'completed') result = entry.result;
        else error = entry.error;
        updatedAt = entry.at;
        break;
    }
  }
  const checkpoint: Checkpoint = {
    version: CHECKPOINT_VERSION,
    runId: header.runId,
    status: (status === 'running' ? 'paused' : status) as CheckpointStatus,
    ...(header.source !== undefined && { source: header.source }),
    sourceHash: header.sourceHash,
    ...(header.fileName !== undefined && { fileName: header.fileName }),
    variables: header.variables,
    log: [...log.values()],
    now,
    printed,
    stats,
    ...(header.plan !== undefined && { plan: header.plan }),
    pending,
    ...(state !== undefined && status === 'paused' && { state }),
  };
  return {
    runId: header.runId,
    status,
    createdAt: header.createdAt,
    updatedAt,
    checkpoint,
    unfinished: status === 'running' ? [...started.values()] : [],
    decisions,
    ...(header.meta !== undefined && { meta: header.meta }),
    ...(result !== undefined && { result }),
    ...(error !== undefined && { error }),
  };
}

/** The inbox line of a stored run. */
export function summaryOf(run: StoredRun): RunSummary {
  return {
    runId: run.runId,
    status: run.status,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.checkpoint.fileName !== undefined && { fileName: run.checkpoint.fileName }),
    pending: run.checkpoint.pending,
  };
}

