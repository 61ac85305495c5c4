// Run events (TOOLS.md §8). Script events carry the run's executionId; tool events carry the
// call's own executionId and the run's as `runId`, so a trace can be grouped either way.
import type { ErrorKind } from './errors.js';
import type { JsonObject } from './values/json.js';

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
}

interface EventBase {
  executionId: string;
  timestamp: number;
}

export type NuwaEvent =
  | (EventBase & { type: 'script:started'; sessionId: string; fileName?: string })
  | (EventBase & { type: 'script:completed'; sessionId: string; fileName?: string; stats: RunStats })
  | (EventBase & { type: 'script:failed'; sessionId: string; fileName?: string; stats: RunStats; error: EventError })
  // approvedBy: how a call that needed approval got it ('plan': covered by the run's approvedPlan).
  | (EventBase & { type: 'tool:invoking'; runId: string; toolName: string; args: JsonObject; approvedBy?: 'plan' | 'hook' })
  | (EventBase & { type: 'tool:completed'; runId: string; toolName: string; duration: number })
  | (EventBase & { type: 'tool:failed'; runId: string; toolName: string; duration: number; error: EventError })
  | (EventBase & { type: 'tool:denied'; runId: string; toolName: string; confirm: string })
  // A call stopped from outside the tool: cancellation, the run's timeout or a limit, or its own timeoutMs.
  | (EventBase & { type: 'tool:aborted'; runId: string; toolName: string; duration: number; error: EventError });

export type EventType = NuwaEvent['type'];
export type EventListener = (event: NuwaEvent) => void;
