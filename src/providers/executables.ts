// Tools that are executable files in any language (TOOLS.md §9): `FILE --tool-info` prints the
// tool's schema; a call runs FILE with the arguments as JSON on stdin and reads one JSON result
// envelope from stdout. This module only turns a directory into tool definitions; the registry
// checks their schemas when they are registered, and every call goes through the same validation,
// approval, limits and events as any other tool. Timeouts are the registry's per-tool `timeoutMs`
// (LimitExceededError, like any tool's): it aborts the call's signal, which kills the process group.
import { constants as fs, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ToolRegistry } from '../tools/registry.js';
import type { ConfirmLevel, ToolCategory, ToolContext, ToolDefinition } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import type { ExecutableOptions, ExecutablesLoaded, LoadFailure } from '../tools/outside.js';
import { envelopeFailure } from '../tools/envelope.js';
import { NuwaError } from '../errors.js';
import { Options, shown } from '../util/options.js';
import { ToolLoadError } from './load-error.js';
import { lastLines, runProcess, SpawnError, type ProcessOutcome } from './subprocess.js';

/** What a tool prints for `--tool-info`. */
interface ToolInfo {
  name: string;
  description: string;
  parameters?: JsonObject;
  returns?: JsonValue;
  confirm?: ConfirmLevel;
  category?: ToolCategory;
  keywords?: string[];
  timeoutMs?: number;
}

export const DEFAULT_EXECUTABLE_TIMEOUT_MS = 30_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
const MAX_TOOL_INFO_BYTES = 1024 * 1024;
const PROBES_AT_ONCE = 8;
/** An executable says nothing about its effects unless it declares them: it may change anything. */
const DEFAULT_CONFIRM: ConfirmLevel = 'write';

/** Discovers the tools of `dir`, registers each, and reports the files that failed. */
export async function loadExecutables(registry: ToolRegistry, dir: string, given: ExecutableOptions = {}): Promise<ExecutablesLoaded> {
  const options = readOptions(dir, given);
  const root = path.resolve(dir);
  const files = await discover(root, dir);
  const env = { ...process.env, ...options.env };
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;

  const { signal } = options;
  const probes = await inBatches(files, PROBES_AT_ONCE, (file) => probe(file.path, env, probeTimeoutMs, signal));
  if (signal?.aborted) throw signal.reason;
  const tools: string[] = [];
  const failures: LoadFailure[] = [];
  probes.forEach((result, i) => {
    const file = files[i]!;
    if ('reason' in result) {
      failures.push({ source: file.shown, reason: result.reason });
      return;
    }
    try {
      tools.push(registry.register(definitionFor(file.path, result.info, options)).name);
    } catch (error) {
      failures.push({ source: file.shown, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  return { tools, failures };
}

/** The options, each read once and checked: a bad one is a NuwaError (TypeError) naming it. */
function readOptions(dir: unknown, options: unknown): ExecutableOptions {
  const where = 'loadExecutables(dir, options)';
  if (typeof dir !== 'string' || dir === '') throw new NuwaError('TypeError', `${where}: dir must be a non-empty string, got ${shown(dir)}`);
  const given = Options.of(where, options);
  return {
    timeoutMs: given.positive('timeoutMs'),
    env: given.stringRecord('env'),
    probeTimeoutMs: given.positive('probeTimeoutMs'),
    signal: given.signal(),
    maxOutputBytes: given.positive('maxOutputBytes'),
  };
}

/** The candidate files of a tools directory: executable regular files not starting with `.` or `_`. */
async function discover(root: string, shown: string): Promise<Array<{ path: string; shown: string }>> {
  let entries: string[];
  try {
    entries = await fsp.readdir(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'it is not a directory' : (error as Error).message;
    throw new ToolLoadError(`cannot load tools from ${shown}: ${why}`);
  }
  const files: Array<{ path: string; shown: string }> = [];
  for (const name of entries.sort()) {
    if (name.startsWith('.') || name.startsWith('_')) continue;
    const file = path.join(root, name);
    try {
      const stats = await fsp.stat(file); // follows symlinks: a linked tool counts as its target
      if (!stats.isFile()) continue;
      await fsp.access(file, fs.X_OK);
    } catch {
      continue; // not executable, or a dangling link: not a tool
    }
    files.push({ path: file, shown: path.join(shown, name) });
  }
  return files;
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

async function probe(file: string, env: NodeJS.ProcessEnv, timeoutMs: number, signal: AbortSignal | undefined): Promise<{ info: ToolInfo } | { reason: string }> {
  let outcome: ProcessOutcome;
  try {
    outcome = await runProcess({ file, args: ['--tool-info'], env, timeoutMs, signal, maxStdoutBytes: MAX_TOOL_INFO_BYTES });
  } catch (error) {
    return { reason: error instanceof SpawnError ? `cannot run it: ${error.message}` : String(error) };
  }
  if (outcome.killed === 'aborted') return { reason: 'loading was stopped' };
  if (outcome.killed === 'timeout') return { reason: `--tool-info did not finish within ${timeoutMs} ms` };
  if (outcome.killed === 'output') return { reason: `--tool-info printed more than ${MAX_TOOL_INFO_BYTES} bytes` };
  const failed = processFailure(outcome);
  if (failed !== undefined) return { reason: `--tool-info ${failed}` };
  let info: unknown;
  try {
    info = JSON.parse(outcome.stdout);
  } catch {
    return { reason: `--tool-info printed no JSON schema: ${quote(outcome.stdout)}` };
  }
  const problem = toolInfoProblem(info);
  return problem === undefined ? { info: info as ToolInfo } : { reason: `--tool-info printed no valid schema: ${problem}` };
}

function toolInfoProblem(info: unknown): string | undefined {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return 'expected a JSON object { name, description, parameters }';
  const { name, description, parameters } = info as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') return '"name" must be a non-empty string';
  if (typeof description !== 'string') return '"description" must be a string';
  if (parameters !== undefined && (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters))) {
    return '"parameters" must be a JSON Schema object';
  }
  return undefined;
}

function definitionFor(file: string, info: ToolInfo, options: ExecutableOptions): ToolDefinition {
  const settings = {
    env: options.env ?? {},
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  };
  const definition: ToolDefinition = {
    name: info.name,
    description: info.description,
    parameters: (info.parameters ?? { type: 'object', properties: {} }) as ToolDefinition['parameters'],
    returns: (info.returns ?? 'any') as ToolDefinition['returns'],
    confirm: info.confirm ?? DEFAULT_CONFIRM,
    category: info.category ?? 'custom',
    timeoutMs: info.timeoutMs ?? options.timeoutMs ?? DEFAULT_EXECUTABLE_TIMEOUT_MS,
    source: 'executable',
    execute: (args, context) => callExecutable(file, args, context, settings),
  };
  if (info.keywords !== undefined) definition.keywords = info.keywords;
  return definition;
}

/** One call: the arguments (already checked by the registry) as JSON on stdin, one envelope back. */
async function callExecutable(file: string, args: JsonObject, context: ToolContext, settings: { env: Record<string, string>; maxOutputBytes: number }): Promise<JsonValue> {
  const env = {
    ...process.env,
    ...settings.env,
    NUWA_SESSION_ID: context.sessionId,
    NUWA_EXECUTION_ID: context.executionId,
    NUWA_SANDBOX_DIR: context.sandboxDir,
  };
  let outcome: ProcessOutcome;
  try {
    outcome = await runProcess({ file, args: [], input: JSON.stringify(args), env, signal: context.signal, maxStdoutBytes: settings.maxOutputBytes });
  } catch (error) {
    throw new Error(error instanceof SpawnError ? `cannot run ${file}: ${error.message}` : String(error));
  }
  // The registry has already ended the call with the reason (a timeout or the run's stop).
  if (outcome.killed === 'aborted') throw context.signal.reason ?? new Error('the call was cancelled');
  if (outcome.killed === 'output') throw new Error(`it printed more than ${settings.maxOutputBytes} bytes on stdout, so it was stopped`);
  return resultOf(outcome);
}

/** The rules of §9: an envelope on stdout, whatever the exit status; else the failure, with stderr. */
export function resultOf(outcome: Pick<ProcessOutcome, 'stdout' | 'stderrTail' | 'exitCode' | 'exitSignal'>): JsonValue {
  const text = outcome.stdout.trim();
  let parsed: unknown;
  let isJson = text !== '';
  if (isJson) {
    try {
      parsed = JSON.parse(text);
    } catch {
      isJson = false;
    }
  }
  const envelope = isJson && isEnvelope(parsed) ? parsed : undefined;
  // An envelope reporting failure is the tool's own word, even with a non-zero exit status.
  if (envelope && envelope.success === false) throw envelopeFailure(envelope.error, envelope.data);
  const failed = processFailure(outcome);
  if (failed !== undefined) throw new Error(failed);
  if (text === '') throw new Error(`it printed nothing on stdout; expected {"success": true, "data": ...}${stderrNote(outcome.stderrTail)}`);
  if (!isJson) throw new Error(`it printed something that is not JSON: ${quote(text)}${stderrNote(outcome.stderrTail)}`);
  if (!envelope) throw new Error(`it printed JSON that is not a result envelope: ${quote(text)}; expected {"success": true, "data": ...} or {"success": false, "error": "..."}`);
  if (Object.hasOwn(envelope, 'data')) return envelope.data as JsonValue;
  const { success: _success, ...rest } = envelope;
  return rest as JsonObject;
}

interface Envelope {
  success: boolean;
  [key: string]: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as Envelope).success === 'boolean';
}

/** A crash or a non-zero exit status, with the last lines of stderr; undefined when it exited 0. */
function processFailure(outcome: Pick<ProcessOutcome, 'stderrTail' | 'exitCode' | 'exitSignal'>): string | undefined {
  if (outcome.exitSignal !== null) return `was killed by ${outcome.exitSignal}${stderrNote(outcome.stderrTail)}`;
  if (outcome.exitCode !== 0) return `exited with status ${outcome.exitCode}${stderrNote(outcome.stderrTail)}`;
  return undefined;
}

function stderrNote(stderr: string): string {
  const tail = lastLines(stderr);
  return tail === '' ? '' : `; stderr: ${tail.split('\n').join(' | ')}`;
}

function quote(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '(nothing)';
  return JSON.stringify(trimmed.length > 120 ? `${trimmed.slice(0, 120)}...` : trimmed);
}
