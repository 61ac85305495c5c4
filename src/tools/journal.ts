// What a durable run keeps of its calls (DURABLE.md §1–3), as the call path sees it. A run that can
// pause and resume elsewhere is deterministic given what came from outside — tool results, approvals,
// answers, NOW() — so its record is the log of those, each call known by its callId (where it stands
// in the script, never when it happened). The call path (invoke.ts) asks the journal before a call
// (replay it? a decision given on resume?), tells it when a tool starts and ends, and asks it to
// pause. The journal itself (api/journal.ts) belongs to the host API layer, with the stores.
import type { ErrorKind, NuwaError, Position } from '../errors.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import type { RegisteredTool } from './build.js';
import type { ConfirmLevel, ToolCategory } from './types.js';

/** How a call ended: its result, or the error the script saw. */
export type CallOutcome = { value: JsonValue } | { error: { kind: ErrorKind; message: string } };

/** A finished call, as the checkpoint's log holds it. */
export interface RecordedCall {
  callId: string;
  toolName: string;
  args: JsonObject;
  outcome: CallOutcome;
  startedAt: number;
  endedAt: number;
}

/** A host's decision for a call that waits: approve, deny, or the answer to a question. */
export type Decision = boolean | { answer: string };

/** A call the run waits at (DURABLE.md §2 `Pending`). */
export type PendingCall =
  | { callId: string; kind: 'approval'; toolName: string; confirm: ConfirmLevel; category: ToolCategory; args: JsonObject; line: number; column: number; uncertain?: true }
  | { callId: string; kind: 'question'; question: string; choices?: string[]; line: number; column: number };

export interface CallJournal {
  /**
   * While replaying: the recorded call at `callId`, which must be the same call (else a ReplayError
   * naming both, thrown here); undefined past the record.
   */
  replayed(callId: string, toolName: string, args: JsonObject, at: Position | undefined): RecordedCall | undefined;
  /** The decision the host gave on resume for the call waiting at `callId`, if any. */
  decision(callId: string): Decision | undefined;
  /**
   * Why the call at `callId` waited and got no decision (a durable engine's wait that timed out):
   * an approval is then denied, and a question fails, with this reason. Undefined when it was not.
   */
  refused?(callId: string): string | undefined;
  /**
   * Whether the call at `callId` was started by a process that died before it ended (recover): it
   * runs again only if its tool is safe to repeat, else a person decides.
   */
  unfinished(callId: string): boolean;
  /** Before the tool runs; a returned promise is waited for (the record kept first). */
  started(callId: string, tool: RegisteredTool, args: JsonObject): void | Promise<void>;
  /** After a started call ended, however. */
  finished(callId: string, outcome: CallOutcome): void;
  /**
   * A call that ended without a tool running: denied before it started, or answered by the host
   * (context.ask, context.llm). A replay answers it the same way without asking anyone.
   */
  settled(callId: string, toolName: string, args: JsonObject, outcome: CallOutcome): void;
  /**
   * The run stops at this call to wait for a decision: returns the error to throw there (the run's
   * outcome is `paused`, whatever the error becomes on its way out).
   */
  pause(pending: PendingCall): NuwaError;
  /** NOW(): the recorded value while replaying, else the clock (recorded). */
  now(): number;
  /** How many lines were printed (and given to the host) before this process took the run up. */
  readonly printedBefore: number;
  /** The calls the run waits at, once it pauses (empty while it runs). */
  readonly pending: readonly PendingCall[];
  /** Told how to read how many lines the run has printed (the run exists only after the journal). */
  countPrintedBy?(printed: () => number): void;
  /**
   * Makes the tool's invocation itself (`invoke` calls the tool function), when a journal needs to
   * stand around it: a durable engine records it as a step of its own (nuwa-script/dbos). Without
   * it the call path invokes the tool directly.
   */
  invoke?(callId: string, tool: RegisteredTool, args: JsonObject, invoke: () => unknown): unknown;
}

/** A tool whose call may be made again after a crash without asking anyone (DURABLE.md §3). */
export function safeToRepeat(tool: Pick<RegisteredTool, 'confirm' | 'idempotent'>): boolean {
  return tool.confirm === 'none' || tool.confirm === 'read' || tool.idempotent === true;
}
