// Result envelopes (TOOLS.md §1, §9): the tool systems Nuwa merges return `{ success: true, data }`
// or `{ success: false, error }` instead of a value. The registry knows from how a tool was registered
// that it answers this way, and reads the envelope here; a value is never guessed to be an envelope.
import { describeJson } from './validate.js';
import type { JsonValue } from '../values/json.js';
import { copyJson } from '../values/values.js';
import type { ToolEnvelope } from './types.js';

/**
 * A tool reported failure in its envelope. invokeTool turns it into a ToolExecutionError like any
 * thrown error, keeping the tool's own `code` and `details` on it. The views of the other systems
 * (views/) find it as that error's `cause`, and hand the tool's own words back unchanged: the error
 * exactly as the envelope gave it when it was a string (`reported`), and the envelope's `data`.
 */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
  readonly code: string | undefined;
  readonly details: unknown;
  /** The envelope's `error` when it was a string, as it was (even empty). */
  readonly reported: string | undefined;
  /** A copy of the envelope's `data`, when it had JSON data alongside the failure. */
  readonly data: JsonValue | undefined;

  constructor(message: string, code?: string, details?: unknown, reported?: string, data?: JsonValue) {
    super(message);
    this.code = code;
    this.details = details;
    this.reported = reported;
    this.data = data;
    made.add(this);
  }
}

// The failures this module made. What a tool throws is foreign: asking a WeakSet runs none of its
// code, where `instanceof` would run a Proxy's getPrototypeOf trap.
const made = new WeakSet<object>();

/** `thrown` itself when it is a ToolFailure made here, else undefined. Never runs foreign code. */
export function asToolFailure(thrown: unknown): ToolFailure | undefined {
  return typeof thrown === 'object' && thrown !== null && made.has(thrown) ? (thrown as ToolFailure) : undefined;
}

/**
 * The value inside an envelope: `data` of a success (the envelope's other fields when it has no
 * `data`), or a thrown ToolFailure carrying the error's message, code and details.
 */
export function openEnvelope(envelope: unknown, form: string): unknown {
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope) || typeof (envelope as ToolEnvelope).success !== 'boolean') {
    const error = new Error(`it returned ${describeReturned(envelope)} where a ${form} tool returns { success: true, data } or { success: false, error }`);
    notAnEnvelope.add(error);
    throw error;
  }
  const { success, ...rest } = envelope as ToolEnvelope;
  if (success) return Object.hasOwn(rest, 'data') ? rest.data : rest;
  throw envelopeFailure(rest.error, Object.hasOwn(rest, 'data') ? rest.data : undefined);
}

// The errors saying that a tool answered with something that is not an envelope: ours, not the
// tool's, so a view reports them with the tool's name as a script would (views/failure.ts).
const notAnEnvelope = new WeakSet<object>();

/** Whether `thrown` is the error openEnvelope made for an answer that is not an envelope. */
export function isNotAnEnvelope(thrown: unknown): boolean {
  return typeof thrown === 'object' && thrown !== null && notAnEnvelope.has(thrown);
}

/** The failure an envelope's `error` (a string, or `{ message, code, details }`) and `data` report. */
export function envelopeFailure(error: unknown, data?: unknown): ToolFailure {
  return failureOf(error, data === undefined ? undefined : dataOf(data));
}

function failureOf(error: unknown, data: JsonValue | undefined): ToolFailure {
  if (typeof error === 'string') return new ToolFailure(error === '' ? 'the tool reported a failure without saying why' : error, undefined, undefined, error, data);
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const { message, code, details } = error as { message?: unknown; code?: unknown; details?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : typeof code === 'string' ? code : 'the tool reported a failure';
    return new ToolFailure(text, typeof code === 'string' ? code : undefined, details, undefined, data);
  }
  if (error instanceof Error) return new ToolFailure(error.message, undefined, undefined, undefined, data);
  return new ToolFailure('the tool reported a failure without saying why', undefined, undefined, undefined, data);
}

/** The failed envelope's data as our own JSON copy; left out when it is not JSON. */
function dataOf(data: unknown): JsonValue | undefined {
  try {
    return copyJson(data);
  } catch {
    return undefined;
  }
}

function describeReturned(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint' || typeof value === 'symbol') return `a ${typeof value}`;
  try {
    return describeJson(value as JsonValue);
  } catch {
    return 'a value';
  }
}
