// The one error type of Nuwa. Every failure a script, a tool or a host can cause surfaces as a
// NuwaError with a stable `kind`, so hosts and models can branch on it without parsing messages.
import type { JsonValue } from './values/json.js';

export const ERROR_KINDS = [
  'SyntaxError',
  'UndefinedVariableError',
  'TypeError',
  'DivisionByZeroError',
  'MemberAccessError',
  'IndexOutOfBoundsError',
  'InvalidConditionError',
  'InvalidIterableError',
  'UnknownFunctionError',
  'FunctionArgumentError',
  'CalcError',
  'ToolNotFoundError',
  'ToolArgumentError',
  'ToolExecutionError',
  'ToolResultError',
  'ToolDeniedError',
  'LimitExceededError',
  'AbortedError',
  // Durable runs (DURABLE.md §2–3): a resumed run no longer matches its record; a run already driven elsewhere.
  'ReplayError',
  'ConflictError',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Where something is in the source text: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** One syntax error of a script (a SyntaxError carries all of them in `errors`). */
export interface SyntaxProblem extends Position {
  message: string;
}

/**
 * A problem the checker found in a script beside the error that stopped it (`NuwaError.findings`):
 * the shape of a `check()` problem. `severity` 'error' is certain — the script fails there whenever
 * it gets there, whatever the syntax errors are fixed into; 'warning' is a likely mistake.
 */
export interface Finding extends Position {
  kind: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface NuwaErrorOptions {
  line?: number;
  column?: number;
  fileName?: string;
  cause?: unknown;
  errors?: SyntaxProblem[];
  toolName?: string;
}

/**
 * Every NuwaError ever constructed. `isNuwaError` asks this set instead of using `instanceof`, which
 * runs a Proxy's getPrototypeOf trap: a value a tool threw is looked at without running its code.
 */
const constructed = new WeakSet<object>();

export class NuwaError extends Error {
  readonly kind: ErrorKind;
  line?: number;
  column?: number;
  fileName?: string;
  /** For a SyntaxError: every syntax error of the script, in source order (at most 50). */
  errors?: SyntaxProblem[];
  /** For a SyntaxError of hopeless text: how many more errors were found than `errors` lists. */
  omittedErrors?: number;
  /**
   * The script's other mistakes, found by the checker (`check`): for a SyntaxError, on what the
   * parser recovered; for an error of a script that ran, in the rest of the script. So one run names
   * every mistake it can. Absent when there are none; never a copy of `errors` or of the error itself.
   */
  findings?: Finding[];
  /** The script's top-level variables when the error stopped it (set by Interpreter.run). */
  variables?: Record<string, JsonValue>;
  /** The tool concerned, for the Tool* kinds. */
  toolName?: string;
  /** For a ToolArgumentError: each problem with the arguments, with its path (`qty`, `items[0].id`). */
  problems?: Array<{ path: string; message: string }>;
  /** For a ToolExecutionError from a tool's `{ success: false, error: { message, code, details } }`: its code. */
  code?: string;
  /** ... and its details, as the tool gave them. */
  details?: unknown;

  constructor(kind: ErrorKind, message: string, options: NuwaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NuwaError';
    this.kind = kind;
    if (options.line !== undefined) this.line = options.line;
    if (options.column !== undefined) this.column = options.column;
    if (options.fileName !== undefined) this.fileName = options.fileName;
    if (options.errors !== undefined) this.errors = options.errors;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    constructed.add(this);
  }

  /** Attaches a source position unless the error already has one (the innermost position wins). */
  at(position: Position | undefined, fileName?: string): this {
    if (position && this.line === undefined) {
      this.line = position.line;
      this.column = position.column;
    }
    if (fileName !== undefined && this.fileName === undefined) this.fileName = fileName;
    return this;
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: this.kind, message: this.message };
    if (this.line !== undefined) out.line = this.line;
    if (this.column !== undefined) out.column = this.column;
    if (this.fileName !== undefined) out.fileName = this.fileName;
    if (this.toolName !== undefined) out.toolName = this.toolName;
    if (this.errors !== undefined) out.errors = this.errors;
    if (this.findings !== undefined) out.findings = this.findings;
    if (this.problems !== undefined) out.problems = this.problems;
    if (this.code !== undefined) out.code = this.code;
    if (this.details !== undefined) out.details = this.details;
    return out;
  }
}

/** Whether `value` is a NuwaError. Never throws and runs none of `value`'s code (a Proxy is never one). */
export function isNuwaError(value: unknown): value is NuwaError {
  return typeof value === 'object' && value !== null && constructed.has(value);
}
