// The approval a call may need before it runs (TOOLS.md §6, DURABLE.md §2–3): an approved plan, a
// decision given when a durable run was resumed, or the host's approve hook; a durable run pauses
// here instead when it must wait for a person, and a refused call is announced and recorded.
import { NuwaError } from '../errors.js';
import type { JsonObject } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown, thenOf } from '../util/foreign.js';
import type { RegisteredTool } from './build.js';
import type { CallHost, CallSite } from './call-host.js';
import { callIdOf, eventBase, positioned, positionOf, stopOf } from './call-facts.js';
import type { PendingCall } from './journal.js';
import type { ConfirmLevel } from './types.js';
import type { ApprovalOutcome } from './tracing.js';

/** Who let a call that needed approval go ahead. */
export type ApprovedBy = 'plan' | 'hook' | 'decision';

/**
 * Resolves to who let the call go ahead: the plan the host approved, a decision given on resume, or
 * the approve hook. A durable run pauses here when the hook answers 'pause' (or, with
 * `onApproval: 'pause'`, when there is none); `uncertain`: a call a dead process had started, which
 * only a decision lets go ahead again.
 */
export async function requireApproval(host: CallHost, tool: RegisteredTool, confirm: ConfirmLevel, args: JsonObject, site: CallSite, uncertain: boolean): Promise<ApprovedBy> {
  const journal = host.journal;
  const decision = journal?.decision(callIdOf(site));
  if (decision !== undefined) {
    if (decision === true) return 'decision';
    const refused = journal?.refused?.(callIdOf(site));
    if (refused !== undefined) deny(host, tool, confirm, args, site, uncertain ? `it was not repeated (the run was recovered after a crash during it): ${refused}` : refused);
    deny(host, tool, confirm, args, site, uncertain ? 'it was not repeated: the run was recovered after a crash during it, and the host decided not to call it again' : 'the host denied it when the run was resumed');
  }
  if (uncertain) throw pause(host, tool, confirm, args, site, true);
  if (host.coveredByPlan?.(tool, site)) return 'plan';
  let answer: unknown = host.pauseForApproval === true && host.approve === undefined ? 'pause' : false;
  let why = 'no approval hook is configured';
  let traced: ((outcome: ApprovalOutcome) => void) | undefined;
  if (host.approve) {
    // The wait for the hook's answer is a span of its own when the run is traced (tracing.ts).
    traced = host.trace?.approvalAsked(callIdOf(site), tool.name, confirm);
    try {
      // Waited on like a tool: cancellation or the run's timeout end a hook that never answers.
      const request = { toolName: tool.name, confirm, category: tool.category, args: copyJson(args) as JsonObject, callId: callIdOf(site) };
      answer = host.approve(request);
      const then = thenOf(answer);
      if (then !== undefined) {
        const wait = host.waits.begin(answer, then, undefined, undefined);
        try {
          answer = await wait.promise;
        } finally {
          host.waits.end(wait);
        }
      }
      why = 'the host did not approve it';
    } catch (error) {
      // A hook may refuse by throwing; its message is the reason the author sees.
      answer = false;
      why = describeThrown(error);
    }
  }
  const stop = stopOf(host, undefined);
  traced?.(stop ? { stopped: stop.kind } : answer === true ? 'approved' : answer === 'pause' && journal !== undefined ? 'paused' : 'denied');
  if (stop) throw positioned(stop, site);
  if (answer === true) return 'hook';
  if (answer === 'pause') {
    if (journal !== undefined) throw pause(host, tool, confirm, args, site, false);
    why = "the approval hook answered 'pause', and only a durable run (interpreter.start) can pause";
  }
  deny(host, tool, confirm, args, site, why);
}

/** Denies the call: announced, recorded (a replay must deny it again without asking), and thrown. */
function deny(host: CallHost, tool: RegisteredTool, confirm: ConfirmLevel, args: JsonObject, site: CallSite, why: string): never {
  const error = new NuwaError('ToolDeniedError', `the call to \`${tool.name}\` (a ${confirm} action) was denied: ${why}`, { toolName: tool.name });
  host.journal?.settled(callIdOf(site), tool.name, copyJson(args) as JsonObject, { error: { kind: error.kind, message: error.message } });
  const callNumber = host.nextCallNumber();
  if (host.emit !== undefined) host.emit({ ...eventBase(host, callNumber, site, tool.name, tool), type: 'tool:denied', confirm, payload: copyJson(args) as JsonObject });
  throw positioned(error, site);
}

/** The durable run stops at this call until a host decides (DURABLE.md §2). */
function pause(host: CallHost, tool: RegisteredTool, confirm: ConfirmLevel, args: JsonObject, site: CallSite, uncertain: boolean): NuwaError {
  const at = positionOf(site) ?? { line: 0, column: 0 };
  const pending: PendingCall = {
    callId: callIdOf(site),
    kind: 'approval',
    toolName: tool.name,
    confirm,
    category: tool.category,
    args: copyJson(args) as JsonObject,
    line: at.line,
    column: at.column,
    ...(uncertain && { uncertain: true as const }),
  };
  const error = positioned(host.journal!.pause(pending), site);
  host.pause?.(error);
  return error;
}
