// A failed call in the words its caller expects. Nuwa's own results quote an error as a script sees
// it ("tool `x` failed: HTTP 404"); the other systems' registries hand back what the tool itself said
// (Plaited: the handler's `error`, unchanged; sdkwork: its `{ message, code, details }`; RS-SDK: the
// program's `error`). The call still went through the one call path: this only reads the NuwaError
// it ended with, whose `cause` is the tool's own failure (tools/envelope.ts) or what it threw.
import type { NuwaError } from '../errors.js';
import { asToolFailure, isNotAnEnvelope } from '../tools/envelope.js';
import { describeThrown } from '../util/foreign.js';
import type { JsonValue } from '../values/json.js';

export interface OwnFailure {
  /** The tool's own message, or ours when the failure is not the tool's (unknown tool, bad arguments, ...). */
  message: string;
  /** The tool's `error` exactly as its envelope gave it, when that was a string. */
  reported?: string;
  /** The tool's own code; else the NuwaError kind when the failure is not the tool's. */
  code?: string;
  details?: unknown;
  /** Data the tool's failure envelope carried. */
  data?: JsonValue;
  /** Who said it: the tool's failure envelope, what the tool threw, or Nuwa (the error's own message). */
  from: 'envelope' | 'thrown' | 'nuwa';
}

export function ownFailure(error: NuwaError): OwnFailure {
  if (error.kind === 'ToolExecutionError' && error.cause !== undefined && !isNotAnEnvelope(error.cause)) {
    const failure = asToolFailure(error.cause);
    if (failure !== undefined) {
      const own: OwnFailure = { message: failure.message, from: 'envelope' };
      if (failure.reported !== undefined) own.reported = failure.reported;
      if (failure.code !== undefined) own.code = failure.code;
      if (failure.details !== undefined) own.details = failure.details;
      if (failure.data !== undefined) own.data = failure.data;
      return own;
    }
    return { message: describeThrown(error.cause), from: 'thrown' };
  }
  return { message: error.message, code: error.kind, from: 'nuwa' };
}
