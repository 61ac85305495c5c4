// What a Nuwa run on DBOS keeps in DBOS's own record of its workflow: each tool invocation is a step
// named after the call (its callId, its tool and a hash of its checked arguments), whose output is
// the call as a plain JSON value; each NOW() is a step whose output is the value. DBOS replays a
// step from its output instead of running it again, and refuses a step whose name differs from the
// one recorded at its place, so a run whose script, tools or arguments changed stops there.
//
// A step's output holds what the tool's answer was (a value, what made it not JSON, or what it
// threw), or the calls it paused at (a question, a call of its own waiting for approval, or an
// uncertain write), and the calls the tool itself made inside the step (context.callTool, ask,
// llm), which DBOS does not see as steps of their own.
import { createHash } from 'node:crypto';
import type { StepInfo } from '@dbos-inc/dbos-sdk/internal/workflow';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import { describeThrown, thenOf } from '../util/foreign.js';
import { asToolFailure, ToolFailure } from '../tools/envelope.js';
import type { PendingCall, RecordedCall } from '../tools/journal.js';
import { canonicalJson } from '../api/checkpoint.js';

export const CALL_STEP = 'nuwa.call';
export const NOW_STEP = 'nuwa.now';

/** A recorded value is copied without the limits of a single value (the run's own limits apply when it is read). */
export const UNBOUNDED = { maxValueSize: Number.MAX_SAFE_INTEGER, maxStringLength: Number.MAX_SAFE_INTEGER };

/** The step of a call: `nuwa.call <callId> <tool> <hash of the checked arguments>`. */
export function callStepName(callId: string, toolName: string, args: JsonObject): string {
  return `${CALL_STEP} ${callId} ${toolName} ${argumentsHash(args)}`;
}

export function argumentsHash(args: JsonObject): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex').slice(0, 16);
}

/** What a tool threw, as far as the call path reads it: its description, and a tool failure's code and details. */
export interface ThrownRecord {
  message: string;
  failure?: { code?: string; details?: JsonValue; reported?: string; data?: JsonValue };
}

/** How a tool's invocation ended, as its step records it. */
export type StepOutcome =
  | { value: JsonValue }
  /** The tool returned something that is not JSON: why (the call path reports it as it would have). */
  | { notJson: string }
  | { thrown: ThrownRecord }
  /** The invocation stopped at calls that wait for a decision; it is made again once they are decided. */
  | { paused: PendingCall[] };

/** A call step's output. */
export interface CallStep {
  callId: string;
  toolName: string;
  args: JsonObject;
  outcome: StepOutcome;
  /** The calls the tool made that ended inside the step, in the order they ended. */
  nested: RecordedCall[];
  startedAt: number;
  endedAt: number;
}

/** What a tool threw, read once through the guarded helpers. */
export function thrownRecord(thrown: unknown): ThrownRecord {
  const failure = asToolFailure(thrown);
  if (failure === undefined) return { message: describeThrown(thrown) };
  const details = jsonOrUndefined(failure.details);
  return {
    message: describeThrown(failure),
    failure: {
      ...(failure.code !== undefined && { code: failure.code }),
      ...(details !== undefined && { details }),
      ...(failure.reported !== undefined && { reported: failure.reported }),
      ...(failure.data !== undefined && { data: failure.data }),
    },
  };
}

/** What a replayed step throws in place of what the tool threw: the same description, code and details. */
export function rethrown(record: ThrownRecord): Error {
  const failure = record.failure;
  if (failure === undefined) return new Error(record.message);
  return new ToolFailure(record.message, failure.code, failure.details, failure.reported, failure.data);
}

/**
 * A value that the call path, copying it, finds not to be JSON for the recorded reason: the tool's
 * answer was read once, in its step, and a replay must fail the same way without the tool.
 */
export function notJsonStandIn(reason: string): object {
  return Object.defineProperty({}, 'answer', {
    enumerable: true,
    get() {
      throw new Error(reason);
    },
  });
}

/** The outcome of a tool's answer: our own JSON copy of it, or why it is not JSON. */
export function answerOutcome(raw: unknown): StepOutcome {
  try {
    return { value: copyJson(raw, UNBOUNDED) };
  } catch (error) {
    return { notJson: describeThrown(error) };
  }
}

/**
 * Invokes the tool and reads what it did, once: its answer (awaited when it is a promise) as a step
 * outcome, or what it threw (kept as it was: the call path reads it, and the step records it).
 */
export async function invocationOf(invoke: () => unknown): Promise<{ outcome: StepOutcome } | { threw: unknown }> {
  let raw: unknown;
  try {
    raw = invoke();
    const then = thenOf(raw);
    if (then !== undefined) {
      const promised = raw;
      raw = await new Promise<unknown>((resolve, reject) => {
        Reflect.apply(then, promised, [resolve, reject]);
      });
    }
  } catch (error) {
    return { threw: error };
  }
  return { outcome: answerOutcome(raw) };
}

/**
 * What the call path gets for an answer as recorded: the value, a stand-in that is not JSON for the
 * same reason, or the same failure thrown. The call path then checks it as it checks any answer, so
 * a replayed call ends as the call did.
 */
export function recordedAnswer(outcome: Exclude<StepOutcome, { paused: PendingCall[] }>): unknown {
  if ('value' in outcome) return outcome.value;
  if ('notJson' in outcome) return notJsonStandIn(outcome.notJson);
  throw rethrown(outcome.thrown);
}

function jsonOrUndefined(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    return copyJson(value, UNBOUNDED);
  } catch {
    return undefined;
  }
}

/** A run's record as DBOS holds it: the call steps by callId (in order), and the NOW() values in order. */
export interface RunRecord {
  calls: Map<string, CallStep[]>;
  now: number[];
}

export function readRecord(steps: readonly StepInfo[]): RunRecord {
  const calls = new Map<string, CallStep[]>();
  const now: number[] = [];
  for (const step of [...steps].sort((a, b) => a.functionID - b.functionID)) {
    if (step.name === NOW_STEP && typeof step.output === 'number') now.push(step.output);
    else if (step.name.startsWith(`${CALL_STEP} `) && isCallStep(step.output)) {
      const list = calls.get(step.output.callId) ?? [];
      list.push(step.output);
      calls.set(step.output.callId, list);
    }
  }
  return { calls, now };
}

/**
 * The log of a run as far as its record goes (the checkpoint of a run whose workflow did not end
 * normally): every call a step answered, then the calls the tools made inside their steps, in the
 * order they ended.
 */
export function logOf(record: RunRecord): RecordedCall[] {
  const log: RecordedCall[] = [];
  const steps = [...record.calls.values()].flat().sort((a, b) => a.endedAt - b.endedAt);
  for (const step of steps) {
    log.push(...step.nested);
    const { outcome } = step;
    if ('value' in outcome) log.push({ callId: step.callId, toolName: step.toolName, args: step.args, outcome: { value: outcome.value }, startedAt: step.startedAt, endedAt: step.endedAt });
    else if ('thrown' in outcome) {
      const message = `tool \`${step.toolName}\` failed: ${outcome.thrown.message}`;
      log.push({ callId: step.callId, toolName: step.toolName, args: step.args, outcome: { error: { kind: 'ToolExecutionError', message } }, startedAt: step.startedAt, endedAt: step.endedAt });
    }
  }
  return log;
}

function isCallStep(output: unknown): output is CallStep {
  if (output === null || typeof output !== 'object') return false;
  const step = output as Partial<CallStep>;
  return typeof step.callId === 'string' && typeof step.toolName === 'string' && step.args !== null && typeof step.args === 'object' && step.outcome !== null && typeof step.outcome === 'object' && Array.isArray(step.nested);
}
