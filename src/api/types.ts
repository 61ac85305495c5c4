// The shapes the host API takes and gives (API.md): the Interpreter's options, a run's options and
// result, and the outcome of a durable run (DURABLE.md §2).
import type { NuwaError } from '../errors.js';
import type { EventListener, RunStats } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import type { Session } from '../tools/session.js';
import type { ApprovalHook, AskHook, ConfirmLevel, LlmHook, Logger } from '../tools/types.js';
import type { Limits } from '../tools/limits.js';
import type { Decision, PendingCall } from '../tools/journal.js';
import type { ApprovedPlan } from '../check/approval.js';
import type { Checkpoint } from './checkpoint.js';
import type { RunStore } from './store.js';
import type { TraceOptions } from '../tools/tracing.js';

/**
 * With a `tracer` (an OpenTelemetry Tracer), each run is a span `nuwa.run` and each tool call a
 * child span `execute_tool {name}`; `traceContent` adds arguments and results (tools/tracing.ts).
 */
export interface InterpreterOptions extends TraceOptions {
  /**
   * Where PRINT and context.print lines go, one at a time as they are printed. Without it they go
   * nowhere but `result.output`: a library writes nothing to the process's stdout (API.md v1.1).
   */
  print?: (line: string) => void;
  /** The session whose state tools share (default: the registry's own session). */
  session?: Session;
  limits?: Limits;
  /** Asked before a tool whose confirm level needs approval; without it those calls are denied. */
  approve?: ApprovalHook;
  /** Which confirm levels ask `approve` (default: write and destructive). */
  needsApproval?: ConfirmLevel[];
  /** Answers a tool's context.ask: `({ question, choices, toolName, callId, signal })` → the answer. */
  ask?: AskHook;
  /** Answers a tool's context.llm: `(request, { toolName, callId, signal })` → the model's text. */
  llm?: LlmHook;
  onEvent?: EventListener;
  /**
   * The directory tools may write in. Default: a private temporary directory, made the first time
   * a tool asks for it and removed by dispose(), when the Interpreter is garbage-collected, or when
   * the process exits, whichever comes first. A directory the host gives is never removed.
   */
  sandboxDir?: string;
  /** Where tools' context.logger goes (default: warnings and errors to stderr). */
  logger?: Partial<Logger>;
  /**
   * In a durable run (`start`), what a call that needs approval does when there is no `approve`
   * hook: `'pause'` the run until a host decides, or `'deny'` it (the default, as in `run`).
   */
  onApproval?: 'deny' | 'pause';
  /** Signs checkpoints (HMAC-SHA256); `resume` then refuses one that is unsigned or altered. */
  checkpointKey?: string | Uint8Array;
}

export interface RunOptions {
  /** Initial top-level variables (JSON values). */
  variables?: Record<string, unknown>;
  /** Cancels the run: it stops with AbortedError and tools' signals abort. */
  signal?: AbortSignal;
  /** Used in error positions and events. */
  fileName?: string;
  /** A plan of this script that a person approved as a whole: the calls it covers ask no one. */
  approvedPlan?: ApprovedPlan;
}

export interface RunResult {
  variables: Record<string, JsonValue>;
  output: string[];
  stats: RunStats;
}

/** The top-level scope of a finished script, as the original NuwaScript API returned it. */
export interface ScriptScope {
  get(name: string): JsonValue | undefined;
  has(name: string): boolean;
  readonly variables: Record<string, JsonValue>;
}


/** A durable run's options (DURABLE.md §2). */
export interface StartOptions extends RunOptions {
  /** The run's id (default: a random UUID): letters, digits, `_`, `.`, `-`. */
  runId?: string;
  /** Where the run is recorded as it goes, so that recover() can finish it after a crash. */
  store?: RunStore;
  /** Put the source in the checkpoint (default true); without it, resume needs it again. */
  includeSource?: boolean;
  /** What the host keeps with the run in its store (JSON); `store.load(runId).meta` gives it back. */
  meta?: JsonObject;
}

export interface ResumeOptions {
  /** For the calls the run waits at, by callId: approve (true), deny (false), or answer a question. */
  decisions?: Record<string, Decision>;
  signal?: AbortSignal;
  /** The run's store: the resumption is recorded there, leased to this process. */
  store?: RunStore;
  /** The script, when the checkpoint holds only its hash. */
  source?: string;
}

export interface RecoverOptions {
  /** The store the run was recorded in. */
  store: RunStore;
  signal?: AbortSignal;
}

export type RunOutcome =
  | { status: 'completed'; runId: string; result: RunResult; checkpoint: Checkpoint }
  | { status: 'paused'; runId: string; pending: PendingCall[]; checkpoint: Checkpoint }
  | { status: 'failed'; runId: string; error: NuwaError; checkpoint: Checkpoint };

/** How a run with an integration's journal ended (Interpreter.runWithJournal). */
export type JournaledOutcome =
  | { status: 'completed'; result: RunResult }
  | { status: 'paused'; pending: PendingCall[]; stats: RunStats; state: Record<string, JsonValue> }
  | { status: 'failed'; error: NuwaError; stats: RunStats };
