// Run events (TOOLS.md §8). Script events carry the run's executionId; tool events carry the
// call's own executionId and the run's as `runId`, so a trace can be grouped either way.
import type { ErrorKind } from './errors.js';
import type { JsonObject, JsonValue } from './values/json.js';

export interface RunStats {
  /** Statements and loop iterations executed. */
  steps: number;
  /** Tool functions invoked. */
  toolCalls: number;
  durationMs: number;
}

export interface EventError {
  kind: ErrorKind;
  message: string;
  line?: number;
  column?: number;
  /** A tool's own error code and details, when its failure gave them. */
  code?: string;
  details?: JsonValue;
}

interface EventBase {
  executionId: string;
  timestamp: number;
}

/** What every tool event says of its call (TOOLS.md §8). */
interface ToolEventBase extends EventBase {
  /** The executionId of the run the call belongs to. */
  runId: string;
  toolName: string;
  /** The tool's id (a defineTool tool's `file-read`), else its name. */
  toolId: string;
  /** The call's identity from where it stands in the script (DURABLE.md §1). */
  callId: string;
}

/** A call a durable run waits at (DURABLE.md §2), as `run:paused` reports it. */
export type PausedAt =
  | { callId: string; kind: 'approval'; toolName: string; confirm: string; category: string; args: JsonObject; line: number; column: number; uncertain?: true }
  | { callId: string; kind: 'question'; question: string; choices?: string[]; line: number; column: number };

export type NuwaEvent =
  | (EventBase & { type: 'script:started'; sessionId: string; fileName?: string })
  | (EventBase & { type: 'script:completed'; sessionId: string; fileName?: string; stats: RunStats })
  | (EventBase & { type: 'script:failed'; sessionId: string; fileName?: string; stats: RunStats; error: EventError })
  // approvedBy: how a call that needed approval got it ('plan': covered by the run's approvedPlan;
  // 'decision': a host's decision given when a durable run was resumed).
  | (ToolEventBase & { type: 'tool:invoking'; args: JsonObject; payload: JsonObject; approvedBy?: 'plan' | 'hook' | 'decision' })
  // The tool function has returned (or its promise fulfilled), before its result is checked: what it
  // returned is not looked at yet, so the payload is null (tool:completed carries the checked result).
  // A tool that throws or rejects gets tool:failed instead.
  | (ToolEventBase & { type: 'tool:invoked'; payload: null })
  | (ToolEventBase & { type: 'tool:completed'; duration: number; payload: JsonValue })
  | (ToolEventBase & { type: 'tool:failed'; duration: number; error: EventError; payload: EventError })
  | (ToolEventBase & { type: 'tool:denied'; confirm: string; payload: JsonObject })
  // A call stopped from outside the tool: cancellation, the run's timeout or a limit, or its own timeoutMs.
  | (ToolEventBase & { type: 'tool:aborted'; duration: number; error: EventError; payload: EventError })
  // A resumed durable run answered a call from its record: the tool was not invoked again. `error`
  // is there when the recorded call failed (the payload is then that error).
  | (ToolEventBase & { type: 'tool:replayed'; payload: JsonValue | EventError; error?: EventError })
  | (EventBase & { type: 'run:paused'; runId: string; pending: PausedAt[] })
  // A chain of calls (registry.executeChain, sdkwork's executeChain): its nodes and their states.
  | (EventBase & { type: 'tool:chain:started' | 'tool:chain:completed' | 'tool:chain:failed'; chainId: string; toolId: string; strategy: string; payload: JsonValue })
  | (EventBase & { type: 'run:resumed'; runId: string; decisions: string[] });

export type EventType = NuwaEvent['type'];
export type EventListener = (event: NuwaEvent) => void;
