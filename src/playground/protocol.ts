// The playground's JSON API: what the page (running the interpreter) and the server (running the
// tools) say to each other. Types and paths only, so that both sides build from one definition.
//
//   GET  /api/session   → SessionInfo: the tools (to check and complete against), options, state
//   POST /api/call      CallRequest → a stream of CallMessage lines (NDJSON), the last a `result`
//   POST /api/approval  ApprovalReply → 204: answers an `approval` message of a call in progress
//   GET  /api/state     → { state }: the session's state
//   POST /api/reset     → { state }: a fresh session (the state --state gave, nothing else)
//
// Every request carries the server's token (header X_NUWA_TOKEN, or ?token= for the page and its
// assets) and comes from the server's own origin: anything else is refused with 403 (server.ts).
import type { Limits } from '../tools/limits.js';
import type { ToolResult } from '../tools/execute.js';
import type { ApprovalRequest, ConfirmLevel, ToolCategory, ToolSchema, ToolSource } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';

export const API = {
  session: '/api/session',
  call: '/api/call',
  approval: '/api/approval',
  state: '/api/state',
  reset: '/api/reset',
} as const;

/** The header the page sends the token in (a custom header: another origin cannot send it without a preflight, which is refused). */
export const TOKEN_HEADER = 'x-nuwa-token';

/** A tool as the page needs it: enough to register a copy that checks and completes as the server's does. */
export interface ToolDescription {
  name: string;
  description: string;
  parameters: ToolSchema['parameters'];
  returns: ToolSchema['returns'];
  confirm: ConfirmLevel;
  category: ToolCategory;
  keywords: string[];
  source: ToolSource;
}

export interface SessionInfo {
  tools: ToolDescription[];
  /** Tools that failed to load (a bad file of --tools-dir, ...): shown as warnings. */
  failures: Array<{ source: string; reason: string }>;
  /** `--yes`: calls that need approval are approved without asking (each is shown as approved). */
  yes: boolean;
  /** The run limits of the command line (--timeout, --max-steps, --max-tool-calls). */
  limits: Limits;
  /** Initial variables of every run (--var). */
  variables: Record<string, JsonValue>;
  state: Record<string, JsonValue>;
}

export interface CallRequest {
  tool: string;
  args: JsonObject;
}

/** What the server sends while a call runs, one JSON object per line; the last is always `result`. */
export type CallMessage =
  /** A call needs approval: answer with POST /api/approval { id, approved }. */
  | { type: 'approval'; id: string; request: ApprovalRequest }
  /** --yes approved a call that needs approval, without asking. */
  | { type: 'approved'; toolName: string; by: 'yes' }
  /** A line a tool printed (context.print): it joins the script's output. */
  | { type: 'print'; line: string }
  /** A message a tool logged (context.logger). */
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'result'; result: ToolResult };

export interface ApprovalReply {
  id: string;
  approved: boolean;
}

/** The page's configuration, written into its HTML: served by `nuwa playground`, or static. */
export type PageConfig = { mode: 'server'; token: string } | { mode: 'static' };
