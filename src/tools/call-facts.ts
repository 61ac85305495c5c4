// What every part of a tool call says of it: its position and identity, the event fields it carries
// (TOOLS.md §8), and the run's own stop when that, not the tool, ended it. Shared by the call path
// (invoke.ts) and the approval it may wait for (call-approval.ts).
import { isNuwaError, type NuwaError, type Position } from '../errors.js';
import { executionIdOf } from './context.js';
import type { RegisteredTool } from './build.js';
import type { CallHost, CallSite } from './call-host.js';

/** `error` at the call's position. */
export function positioned(error: NuwaError, site: CallSite): NuwaError {
  return error.at(positionOf(site), site.fileName);
}

/** A call's identity; the run's own calls always have one, a host's (registry.execute) `call`. */
export function callIdOf(site: CallSite): string {
  return site.callId ?? 'call';
}

export function positionOf(site: CallSite): Position | undefined {
  return site.line === undefined ? undefined : { line: site.line, column: site.column ?? 1 };
}

/** What every tool event says of its call (TOOLS.md §8). */
export function eventBase(host: CallHost, callNumber: number, site: CallSite, toolName: string, tool: RegisteredTool | undefined) {
  return {
    executionId: executionIdOf(host.runId, callNumber),
    runId: host.runId,
    timestamp: Date.now(),
    toolName,
    toolId: tool?.id ?? toolName,
    callId: callIdOf(site),
  };
}

/**
 * The run's own stop, when the run (or the tool's timeout) has stopped: then that, and not whatever
 * the tool threw, is why the call failed. Only errors we made are passed on, never the tool's objects.
 */
export function stopOf(host: CallHost, toolController: AbortController | undefined): NuwaError | undefined {
  if (host.stopped && isNuwaError(host.signal.reason)) return host.signal.reason;
  if (toolController?.signal.aborted && isNuwaError(toolController.signal.reason)) return toolController.signal.reason;
  return undefined;
}
