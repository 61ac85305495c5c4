// Result envelopes (TOOLS.md §1, §9): the tool systems Nuwa merges return `{ success: true, data }`
// or `{ success: false, error }` instead of a value. The registry knows from how a tool was registered
// that it answers this way, and reads the envelope here; a value is never guessed to be an envelope.
import { describeJson } from './validate.js';
import type { JsonValue } from '../values/json.js';
import type { ToolEnvelope } from './types.js';

/**
 * A tool reported failure in its envelope. invokeTool turns it into a ToolExecutionError like any
 * thrown error, keeping the tool's own `code` and `details` on it.
 */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
  readonly code: string | undefined;
  readonly details: unknown;

  constructor(message: string, code?: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
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
    throw new Error(`it returned ${describeReturned(envelope)} where a ${form} tool returns { success: true, data } or { success: false, error }`);
  }
  const { success, ...rest } = envelope as ToolEnvelope;
  if (success) return Object.hasOwn(rest, 'data') ? rest.data : rest;
  throw failureOf(rest.error);
}

function failureOf(error: unknown): ToolFailure {
  if (typeof error === 'string' && error !== '') return new ToolFailure(error);
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const { message, code, details } = error as { message?: unknown; code?: unknown; details?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : typeof code === 'string' ? code : 'the tool reported a failure';
    return new ToolFailure(text, typeof code === 'string' ? code : undefined, details);
  }
  if (error instanceof Error) return new ToolFailure(error.message);
  return new ToolFailure('the tool reported a failure without saying why');
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
