// A durable run as plain JSON (DURABLE.md §2): what a host stores, sends elsewhere and resumes from.
// A script is deterministic given what came from outside, so the checkpoint holds no interpreter
// state — only the script, its initial variables and the log of outside answers (tool outcomes,
// NOW() values), what was printed, the stats and the calls that wait for a decision. Signed with
// HMAC-SHA256 when the host gives a key; read back defensively (it may have crossed a network).
import { NuwaError } from '../errors.js';
import type { RunStats } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, type ValueLimits } from '../values/values.js';
import { hmacSha256Hex, sameDigest, sha256Hex } from '../util/digest.js';
import { describeThrown } from '../util/foreign.js';
import type { ApprovedPlan } from '../check/approval.js';
import type { PendingCall, RecordedCall } from '../tools/journal.js';

export type CheckpointStatus = 'paused' | 'completed' | 'failed';

export interface Checkpoint {
  version: 1;
  runId: string;
  status: CheckpointStatus;
  /** The script; absent when started with `includeSource: false` (resume then needs it again). */
  source?: string;
  /** SHA-256 of the source (hex): a resumed run must be the same script. */
  sourceHash: string;
  fileName?: string;
  /** The initial variables the run started with. */
  variables: Record<string, JsonValue>;
  /** Every call that ended, with its outcome, in the order they ended. */
  log: RecordedCall[];
  /** The values NOW() returned, in order. */
  now: number[];
  /** How many lines were printed (and given to the host's print hook). */
  printed: number;
  stats: RunStats;
  /** The plan the host approved as a whole, if the run has one. */
  plan?: ApprovedPlan;
  /** The calls the run waits at (empty unless paused). */
  pending: PendingCall[];
  /**
   * The session state when the run stopped: tools that run after a resume see what the tools before
   * the pause left there (resume sets these keys in the resuming interpreter's session).
   */
  state?: Record<string, JsonValue>;
  /** HMAC-SHA256 of the rest (hex), with the interpreter's checkpointKey. */
  signature?: string;
}

export const CHECKPOINT_VERSION = 1;

/** A checkpoint holds a whole run's record: it is copied without the limits of a single value. */
const UNBOUNDED: ValueLimits = { maxValueSize: Number.MAX_SAFE_INTEGER, maxStringLength: Number.MAX_SAFE_INTEGER };

export function sourceHashOf(source: string): string {
  return sha256Hex(source);
}

/** The checkpoint signed with `key` (a copy); unchanged without a key. */
export function sign(checkpoint: Checkpoint, key: string | Uint8Array | undefined): Checkpoint {
  if (key === undefined) return checkpoint;
  const { signature: _old, ...unsigned } = checkpoint;
  return { ...unsigned, signature: hmacSha256Hex(key, canonicalJson(unsigned as unknown as JsonValue)) };
}

function replayError(message: string): NuwaError {
  return new NuwaError('ReplayError', message);
}

/**
 * A checkpoint the host gave back, checked before anything is replayed: its shape, its signature
 * (with a key, an unsigned or altered one is refused), and its source against its hash. Returns a
 * copy of it as plain JSON: nothing of the host's object is read twice.
 */
export function readCheckpoint(input: unknown, key: string | Uint8Array | undefined, source: string | undefined): Checkpoint & { source: string } {
  let copy: JsonValue;
  try {
    copy = copyJson(input, UNBOUNDED);
  } catch (error) {
    throw replayError(`the checkpoint is not JSON: ${describeThrown(error)}`);
  }
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) throw replayError('the checkpoint must be an object made by start(), resume() or recover()');
  const c = copy as JsonObject;
  if (c.version !== CHECKPOINT_VERSION) throw replayError(`the checkpoint has version ${JSON.stringify(c.version ?? null)}; this interpreter reads version ${CHECKPOINT_VERSION}`);
  if (key !== undefined) {
    const { signature, ...unsigned } = c;
    if (typeof signature !== 'string') throw replayError('the checkpoint is not signed, and this interpreter has a checkpointKey: it resumes only checkpoints it signed');
    if (!sameDigest(signature, hmacSha256Hex(key, canonicalJson(unsigned)))) throw replayError('the checkpoint was altered: its signature does not match its content');
  }
  const fail = (what: string) => {
    throw replayError(`the checkpoint is malformed: ${what}`);
  };
  if (typeof c.runId !== 'string' || c.runId === '') fail('runId must be a non-empty string');
  if (c.status !== 'paused' && c.status !== 'completed' && c.status !== 'failed') fail('status must be paused, completed or failed');
  if (typeof c.sourceHash !== 'string') fail('sourceHash must be a string');
  if (c.variables === null || typeof c.variables !== 'object' || Array.isArray(c.variables)) fail('variables must be an object');
  if (!Array.isArray(c.log) || !c.log.every(isRecordedCall)) fail('log must list { callId, toolName, args, outcome, startedAt, endedAt }');
  if (!Array.isArray(c.now) || !c.now.every((n) => typeof n === 'number')) fail('now must be a list of numbers');
  if (typeof c.printed !== 'number' || !(c.printed >= 0)) fail('printed must be a number');
  if (!isStats(c.stats)) fail('stats must be { steps, toolCalls, durationMs }');
  if (!Array.isArray(c.pending) || !c.pending.every(isPending)) fail('pending must list the calls the run waits at');
  if (c.state !== undefined && !isObject(c.state)) fail('state must be an object');
  const text = typeof c.source === 'string' ? c.source : source;
  if (text === undefined) throw replayError('the checkpoint holds no source (it was started with includeSource: false): pass the script as the `source` option');
  if (sourceHashOf(text) !== c.sourceHash) {
    throw replayError(typeof c.source === 'string' ? 'the checkpoint was altered: its source does not match its sourceHash' : 'the source given is not the script this run was started with (its hash differs from sourceHash)');
  }
  return { ...(c as unknown as Checkpoint), source: text };
}

function isRecordedCall(entry: JsonValue): boolean {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return false;
  const { callId, toolName, args, outcome, startedAt, endedAt } = entry;
  return typeof callId === 'string' && typeof toolName === 'string' && isObject(args) && isOutcome(outcome) && typeof startedAt === 'number' && typeof endedAt === 'number';
}

function isOutcome(outcome: JsonValue | undefined): boolean {
  if (!isObject(outcome)) return false;
  if ('value' in outcome) return true;
  const error = outcome.error;
  return isObject(error) && typeof error.kind === 'string' && typeof error.message === 'string';
}

function isPending(entry: JsonValue): boolean {
  if (!isObject(entry) || typeof entry.callId !== 'string' || typeof entry.line !== 'number' || typeof entry.column !== 'number') return false;
  if (entry.kind === 'approval') return typeof entry.toolName === 'string' && isObject(entry.args);
  return entry.kind === 'question' && typeof entry.question === 'string';
}

function isStats(stats: JsonValue | undefined): boolean {
  return isObject(stats) && typeof stats.steps === 'number' && typeof stats.toolCalls === 'number' && typeof stats.durationMs === 'number';
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON with every object's keys in code-unit order: the same value always gives the same text. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`).join(',')}}`;
}
