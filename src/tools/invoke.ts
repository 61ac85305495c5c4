// One tool call, from name to checked result (TOOLS.md §2, §3, §6). Every way of calling a tool —
// a script's CALL, context.callTool, and later registry.execute — goes through invokeTool, so the
// guarantees hold the same everywhere.
import { NuwaError } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, fromJson, NotJsonError, type Value, type ValueLimits } from '../values/values.js';
import { didYouMean } from '../util/suggest.js';
import { CallContext } from './context.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { Sandbox } from './sandbox.js';
import type { Session } from './session.js';
import type { Waits } from './guard.js';
import type { ApprovalHook, ConfirmLevel, Logger } from './types.js';

/** What the run around a call provides: limits, output, approval, events, cancellation. */
export interface CallHost {
  readonly registry: ToolRegistry;
  readonly session: Session;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly sandbox: Sandbox;
  /** The executionId of the run (script) the call belongs to. */
  readonly runId: string;
  readonly approve: ApprovalHook | undefined;
  readonly needsApproval: ReadonlySet<ConfirmLevel>;
  readonly emit: ((event: NuwaEvent) => void) | undefined;
  print(text: string): void;
  /** Counts a call against the run's limits; throws LimitExceededError or AbortedError. */
  beginCall(tool: RegisteredTool): void;
  /** The waits for tools (and approvals) in flight, which a stopping run ends. */
  readonly waits: Waits;
  nextExecutionId(): string;
  /** maxValueSize and maxStringLength for what tools return (the defaults when absent). */
  readonly valueLimits?: ValueLimits;
}

/** The script's variables as a tool sees them (getVar / setVar). */
export interface VariableAccess {
  get(name: string): JsonValue | undefined;
  set(name: string, value: JsonValue): void;
}

/** Where the call comes from: the CALL's position, and its scope. */
export interface CallSite {
  line?: number;
  column?: number;
  fileName?: string;
  vars?: VariableAccess;
}

function positioned(error: NuwaError, site: CallSite): NuwaError {
  return error.at(site.line === undefined ? undefined : { line: site.line, column: site.column ?? 1 }, site.fileName);
}

/** Run-level stops pass through a tool unchanged: they are not the tool's failure. */
function isRunStop(error: unknown): error is NuwaError {
  return error instanceof NuwaError && (error.kind === 'LimitExceededError' || error.kind === 'AbortedError');
}

/**
 * Calls a tool. `args` must be the caller's own fresh copy: it is coerced in place and handed to
 * the tool. The result is a Nuwa value (`form: 'value'`, for scripts) or plain JSON (`'json'`).
 */
export async function invokeTool(host: CallHost, name: string, args: JsonObject, site: CallSite, form: 'value' | 'json'): Promise<Value | JsonValue> {
  const tool = host.registry.lookup(name);
  if (tool === undefined) {
    throw positioned(new NuwaError('ToolNotFoundError', `there is no tool \`${name}\`${toolSuggestion(host.registry, name)}`, { toolName: name }), site);
  }

  const problems = tool.validateArguments(args);
  if (problems !== null) {
    const message = `invalid arguments for tool \`${name}\`: ${problems.map((p) => p.message).join('; ')}`;
    const error = new NuwaError('ToolArgumentError', message, { toolName: name });
    error.problems = problems;
    throw positioned(error, site);
  }

  if (host.needsApproval.has(tool.confirm)) await requireApproval(host, tool, args, site);

  try {
    host.beginCall(tool);
  } catch (error) {
    throw isRunStop(error) ? positioned(error, site) : error;
  }
  const executionId = host.nextExecutionId();
  const emit = host.emit;
  const started = emit ? performance.now() : 0;
  emit?.({ type: 'tool:invoking', executionId, runId: host.runId, timestamp: Date.now(), toolName: name, args: copyJson(args) as JsonObject });

  // A tool with its own timeout gets its own signal, aborted by the run or by the timeout.
  const toolController = tool.timeoutMs === undefined ? undefined : new AbortController();
  const signal = toolController ? AbortSignal.any([host.signal, toolController.signal]) : host.signal;
  const context = new CallContext(host, site, name, executionId, signal);

  let raw: unknown;
  try {
    raw = tool.execute(args, context);
    if (raw !== null && typeof raw === 'object' && typeof (raw as PromiseLike<unknown>).then === 'function') {
      try {
        raw = await host.waits.begin(raw as PromiseLike<unknown>, tool, toolController);
      } finally {
        host.waits.end();
      }
    } else if (host.signal.aborted) {
      throw host.signal.reason;
    }
  } catch (thrown) {
    const error = isRunStop(thrown) ? thrown : executionError(name, thrown);
    emit?.(failedEvent(host, executionId, name, started, error));
    throw positioned(error, site);
  }

  let result: Value | JsonValue;
  try {
    result = form === 'value' ? fromJson(raw, host.valueLimits) : copyJson(raw, host.valueLimits);
  } catch (thrown) {
    const message = thrown instanceof NotJsonError ? thrown.message : String(thrown);
    const error = isRunStop(thrown) ? thrown : new NuwaError('ToolResultError', `tool \`${name}\` returned something that is not JSON: ${message}`, { toolName: name });
    emit?.(failedEvent(host, executionId, name, started, error));
    throw positioned(error, site);
  }
  const mismatch = tool.checkResult(form === 'json' ? (result as JsonValue) : ((raw ?? null) as JsonValue));
  if (mismatch !== null) {
    const error = new NuwaError('ToolResultError', `tool \`${name}\` returned the wrong type: ${mismatch}`, { toolName: name });
    emit?.(failedEvent(host, executionId, name, started, error));
    throw positioned(error, site);
  }
  emit?.({ type: 'tool:completed', executionId, runId: host.runId, timestamp: Date.now(), toolName: name, duration: performance.now() - started });
  return result;
}

function toolSuggestion(registry: ToolRegistry, name: string): string {
  const names = registry.names();
  const close = didYouMean(name, names);
  if (close) return close;
  if (names.length === 0) return ': no tools are registered';
  return names.length <= 12 ? `: the tools are ${names.join(', ')}` : '';
}

function executionError(name: string, thrown: unknown): NuwaError {
  const message =
    thrown instanceof Error ? thrown.message : typeof thrown === 'string' ? thrown : (safeString(thrown) ?? 'an unknown error');
  return new NuwaError('ToolExecutionError', `tool \`${name}\` failed: ${message}`, { toolName: name, cause: thrown });
}

function safeString(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return undefined;
  }
}

function failedEvent(host: CallHost, executionId: string, toolName: string, started: number, error: NuwaError): NuwaEvent {
  return {
    type: 'tool:failed',
    executionId,
    runId: host.runId,
    timestamp: Date.now(),
    toolName,
    duration: performance.now() - started,
    error: { kind: error.kind, message: error.message },
  };
}

async function requireApproval(host: CallHost, tool: RegisteredTool, args: JsonObject, site: CallSite): Promise<void> {
  let approved = false;
  let why = 'no approval hook is configured';
  if (host.approve) {
    try {
      // Waited on like a tool: cancellation or the run's timeout end a hook that never answers.
      const answer = host.approve({ toolName: tool.name, confirm: tool.confirm, category: tool.category, args: copyJson(args) as JsonObject });
      try {
        approved = (await host.waits.begin(Promise.resolve(answer), undefined, undefined)) === true;
      } finally {
        host.waits.end();
      }
      why = 'the host did not approve it';
    } catch (error) {
      if (isRunStop(error)) throw positioned(error, site);
      // A hook may refuse by throwing; its message is the reason the author sees.
      why = error instanceof Error ? error.message : String(error);
    }
  }
  if (host.signal.aborted) throw positioned(host.signal.reason as NuwaError, site);
  if (approved) return;
  host.emit?.({ type: 'tool:denied', executionId: host.nextExecutionId(), runId: host.runId, timestamp: Date.now(), toolName: tool.name, confirm: tool.confirm });
  throw positioned(
    new NuwaError('ToolDeniedError', `the call to \`${tool.name}\` (a ${tool.confirm} action) was denied: ${why}`, { toolName: tool.name }),
    site,
  );
}
