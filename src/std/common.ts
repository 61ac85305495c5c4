// What the standard tools share (TOOLS.md §12): their options, checked once when the tools are made;
// the failure they report (a message and an sdkwork-style code, which reaches the script as a
// ToolExecutionError keeping the code); and the wrapper that makes an sdkwork tool (`defineTool`,
// so that `registry.get('file-read')` finds `fs.read`) of a function that returns its data.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineTool, type DefinedTool, type DefinedToolContext } from '../tools/forms.js';
import type { ConfirmLevel, JsonSchemaObject, ToolCategory } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';

export interface StdToolsOptions {
  /** The folder the file tools work in; they reach nothing outside it. Default: the working directory. */
  root?: string;
  /**
   * The hosts the network tools may reach: `'host'` (any port) or `'host:port'` (`'127.0.0.1:8080'`,
   * `'[::1]:8080'`, `'api.example.com'`). Default: none, so the network tools refuse every URL.
   */
  allowNet?: readonly string[];
  /** The largest file, HTTP body or WebSocket message the tools read or send, in bytes. Default 5 MB. */
  maxBodyBytes?: number;
  /** How long one HTTP request may take, redirects and body included, in ms. Default 30,000. */
  timeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The options, checked and filled in. */
export interface StdSettings {
  /** The real path of the root folder (no symlink in it). */
  readonly root: string;
  readonly allowNet: readonly string[];
  readonly maxBodyBytes: number;
  readonly timeoutMs: number;
}

/** A mistake in one option of createStdTools: a TypeError naming the option (the CLI names its flag instead). */
export class StdOptionError extends TypeError {
  override readonly name = 'TypeError';
  constructor(
    readonly option: keyof StdToolsOptions,
    readonly problem: string,
  ) {
    super(`createStdTools: ${option}: ${problem}`);
  }
}

/** The options, checked and filled in; a StdOptionError for the first mistake, before any tool exists. */
export function settingsOf(options: StdToolsOptions | undefined): StdSettings {
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new TypeError('createStdTools(options): options must be an object');
  const { root = process.cwd(), allowNet = [], maxBodyBytes = DEFAULT_MAX_BODY_BYTES, timeoutMs = DEFAULT_TIMEOUT_MS } = options ?? {};
  if (typeof root !== 'string' || root === '') throw new StdOptionError('root', 'must be a folder path');
  let realRoot: string;
  try {
    realRoot = realpathSync(path.resolve(root));
  } catch {
    throw new StdOptionError('root', `the folder "${root}" does not exist`);
  }
  if (!statSync(realRoot).isDirectory()) throw new StdOptionError('root', `"${root}" is not a folder`);
  if (!Array.isArray(allowNet) || allowNet.some((host) => typeof host !== 'string')) throw new StdOptionError('allowNet', 'must be a list of hosts, e.g. ["127.0.0.1:8080", "api.example.com"]');
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new StdOptionError('maxBodyBytes', 'must be a positive whole number of bytes');
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new StdOptionError('timeoutMs', 'must be a positive number of milliseconds');
  return { root: realRoot, allowNet: [...allowNet], maxBodyBytes, timeoutMs };
}

/**
 * A failure a standard tool reports: the script gets a ToolExecutionError with this message and
 * `code` (an sdkwork host gets `{ success: false, error: { message, code } }`).
 */
export class StdToolError extends Error {
  override readonly name = 'StdToolError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A size as people read it: `5 MB`, `64 KB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** The error for anything over the size cap: names the cap and the option that sets it. */
export function overCap(what: string, cap: number): StdToolError {
  return new StdToolError(`${what} is over the ${formatBytes(cap)} cap (maxBodyBytes): nothing was cut short, the call was refused`, 'BODY_TOO_LARGE');
}

export interface StdToolSpec {
  id: string;
  name: string;
  description: string;
  category: ToolCategory;
  confirm: ConfirmLevel;
  confirmFor?: (args: JsonObject) => ConfirmLevel;
  keywords: string[];
  input: JsonSchemaObject;
  output: JsonSchemaObject | { [keyword: string]: unknown };
  run: (args: JsonObject, context: DefinedToolContext) => JsonValue | Promise<JsonValue>;
}

/**
 * A standard tool as an sdkwork tool: its data on success; a StdToolError as a failure envelope
 * with its code. Anything else thrown (a bug, the run's own abort) stays a throw, which the
 * registry turns into a ToolExecutionError (or the run's stop).
 */
export function stdTool(spec: StdToolSpec): DefinedTool {
  const { run, ...definition } = spec;
  return defineTool({
    ...definition,
    meta: { standard: true },
    execute: async (input, context) => {
      try {
        return { success: true, data: await run(input, context) };
      } catch (error) {
        if (error instanceof StdToolError) return { success: false, error: { message: error.message, code: error.code } };
        throw error;
      }
    },
  });
}
