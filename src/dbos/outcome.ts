// A run on DBOS as plain data: what its workflow is given, what it publishes while it waits, what it
// returns (DBOS keeps it as the workflow's output), and how the helpers give that back to a host — a
// NuwaError again, a checkpoint (DURABLE.md §2) of the run as far as its record goes.
import type { RunStats } from '../events.js';
import { isNuwaError, NuwaError, type ErrorKind, type SyntaxProblem } from '../errors.js';
import type { JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import type { PendingCall, RecordedCall } from '../tools/journal.js';
import { CHECKPOINT_VERSION, sourceHashOf, type Checkpoint, type CheckpointStatus } from '../api/checkpoint.js';
import type { RunResult } from '../api/types.js';
import { UNBOUNDED } from './record.js';

/** The name of the DBOS workflow that runs scripts. */
export const WORKFLOW_NAME = 'nuwa.run';

/** The DBOS event a run sets while it waits for decisions (and clears when it goes on). */
export const WAITING_EVENT = 'nuwa.waiting';

/** The workflow's input. */
export interface RunInput {
  source: string;
  variables: Record<string, JsonValue>;
  fileName?: string;
}

/** What a waiting run publishes: the calls it waits at, and which wait of each call it is (decisions.ts). */
export interface Waiting {
  pending: PendingCall[];
  waits: number[];
}

/** A NuwaError as JSON. */
export interface ErrorRecord {
  kind: ErrorKind;
  message: string;
  line?: number;
  column?: number;
  fileName?: string;
  toolName?: string;
  errors?: SyntaxProblem[];
  problems?: Array<{ path: string; message: string }>;
  code?: string;
  details?: JsonValue;
  variables?: Record<string, JsonValue>;
}

/** The workflow's output: how the run ended, and which worker (DBOS executor) ended it. */
export type StoredOutcome =
  | { status: 'completed'; result: RunResult; checkpoint: Checkpoint; worker: string }
  | { status: 'failed'; error: ErrorRecord; checkpoint: Checkpoint; worker: string };

/** How a run on DBOS ended (DURABLE.md §2's RunOutcome; a run on DBOS never returns `paused`: it waits). */
export type DbosRunOutcome =
  | { status: 'completed'; runId: string; result: RunResult; checkpoint: Checkpoint; worker?: string }
  | { status: 'failed'; runId: string; error: NuwaError; checkpoint: Checkpoint; worker?: string };

/** Where a run stands (`status(runId)`). `worker` is the DBOS executor id of the worker that runs or ran it. */
export type DbosRunStatus =
  | { status: 'queued'; runId: string }
  | { status: 'running'; runId: string; worker?: string }
  | { status: 'paused'; runId: string; pending: PendingCall[]; worker?: string }
  | { status: 'completed'; runId: string; result: RunResult; worker?: string }
  | { status: 'failed'; runId: string; error: NuwaError; worker?: string };

export function errorRecord(error: NuwaError): ErrorRecord {
  const record = copyJson(error.toJSON(), UNBOUNDED) as unknown as ErrorRecord;
  if (error.variables !== undefined) record.variables = error.variables;
  return record;
}

export function errorOf(record: ErrorRecord): NuwaError {
  const error = new NuwaError(record.kind, record.message, {
    ...(record.line !== undefined && { line: record.line }),
    ...(record.column !== undefined && { column: record.column }),
    ...(record.fileName !== undefined && { fileName: record.fileName }),
    ...(record.toolName !== undefined && { toolName: record.toolName }),
    ...(record.errors !== undefined && { errors: record.errors }),
  });
  if (record.problems !== undefined) error.problems = record.problems;
  if (record.code !== undefined) error.code = record.code;
  if (record.details !== undefined) error.details = record.details;
  if (record.variables !== undefined) error.variables = record.variables;
  return error;
}

/** What a run's checkpoint holds besides its input. */
export interface RunRecordSoFar {
  log: readonly RecordedCall[];
  now: readonly number[];
  printed: number;
  stats: RunStats;
}

/** The checkpoint of a run that ended (DURABLE.md §2): plain JSON, unsigned. */
export function checkpointOf(runId: string, input: RunInput, status: Exclude<CheckpointStatus, 'paused'>, record: RunRecordSoFar): Checkpoint {
  const checkpoint: Checkpoint = {
    version: CHECKPOINT_VERSION,
    runId,
    status,
    source: input.source,
    sourceHash: sourceHashOf(input.source),
    ...(input.fileName !== undefined && { fileName: input.fileName }),
    variables: input.variables,
    log: [...record.log],
    now: [...record.now],
    printed: record.printed,
    stats: record.stats,
    pending: [],
  };
  return copyJson(checkpoint, UNBOUNDED) as unknown as Checkpoint;
}

/** The outcome a host gets from the workflow's output. */
export function outcomeOf(runId: string, stored: StoredOutcome): DbosRunOutcome {
  if (stored.status === 'completed') return { status: 'completed', runId, result: stored.result, checkpoint: stored.checkpoint, worker: stored.worker };
  return { status: 'failed', runId, error: errorOf(stored.error), checkpoint: stored.checkpoint, worker: stored.worker };
}

/** Whether a workflow's output is a run's outcome (and not something else under that name). */
export function isStoredOutcome(output: unknown): output is StoredOutcome {
  if (output === null || typeof output !== 'object') return false;
  const { status, checkpoint } = output as Partial<StoredOutcome>;
  return (status === 'completed' || status === 'failed') && checkpoint !== null && typeof checkpoint === 'object';
}

/** Whether a workflow's input is a run's input. */
export function isRunInput(input: unknown): input is RunInput {
  if (input === null || typeof input !== 'object') return false;
  const { source, variables } = input as Partial<RunInput>;
  return typeof source === 'string' && variables !== null && typeof variables === 'object';
}

/** A failure that is not a NuwaError (DBOS ended the workflow), as one. */
export function asRunError(error: unknown, what: string): NuwaError {
  if (isNuwaError(error)) return error;
  return new NuwaError('AbortedError', `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

export function emptyStats(): RunStats {
  return { steps: 0, toolCalls: 0, durationMs: 0 };
}

