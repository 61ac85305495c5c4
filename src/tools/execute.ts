// Function calling (TOOLS.md §5): `registry.execute` runs one tool call that a model made with native
// function calling (or that a host makes as an API call) through invokeTool, the one call path, so it
// gets the same checks, approval policy, limits, events and state as a script's CALL. Unlike a script,
// it never throws: every outcome is a ToolResult the host can hand back to the model.
import { randomUUID } from 'node:crypto';
import { isNuwaError, type ErrorKind } from '../errors.js';
import type { EventListener } from '../events.js';
import { resolveLimits } from '../runtime/limits.js';
import { hostLogger, Run } from '../runtime/run.js';
import { describeThrown } from '../util/foreign.js';
import { Options, shown } from '../util/options.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, NotJsonError } from '../values/values.js';
import type { RegisteredTool } from './build.js';
import { invokeTool } from './invoke.js';
import type { ToolRegistry } from './registry.js';
import { Sandbox } from './sandbox.js';
import { Session } from './session.js';
import type { ApprovalHook, ConfirmLevel, Logger } from './types.js';
import { describeJson } from './validate.js';

/** A model's function call: the tool's name (either spelling, §5) and its arguments. */
export interface FunctionCall {
  name: string;
  /** A JSON string (as models send them) or an object. */
  arguments?: string | Record<string, unknown> | null;
}

export interface ToolResultMetadata {
  executionId: string;
  toolName: string;
  startTime: number;
  endTime: number;
  duration: number;
}

export interface ToolResult {
  success: boolean;
  data?: JsonValue;
  error?: string;
  /** The NuwaError kind of a failure (`ToolNotFoundError`, `ToolArgumentError`, ...). */
  code?: ErrorKind;
  metadata: ToolResultMetadata;
}

/** What one execute call may override. */
export interface ExecuteOptions {
  /** Whose state the tool sees (default: the registry's own session). */
  session?: Session;
  /** Asked before a tool whose confirm level needs approval; without one, such calls are denied. */
  approve?: ApprovalHook;
  /** Which confirm levels ask `approve` (default: write and destructive). */
  needsApproval?: ConfirmLevel[];
  /** Cancels the call: it ends with AbortedError and the tool's signal aborts. */
  signal?: AbortSignal;
  /** Wall-clock limit for the call, tools it calls included (default: 5 minutes). */
  timeoutMs?: number;
  /** Receives the call's events (TOOLS.md §8). */
  onEvent?: EventListener;
}

/** The registry's defaults for execute (`new ToolRegistry(options)`): its approval policy and services. */
export interface ExecuteDefaults extends Omit<ExecuteOptions, 'session' | 'signal'> {
  /** Where a tool's context.print goes (default: process.stdout). */
  print?: (line: string) => void;
  /** Where a tool's context.logger goes (default: warnings and errors to stderr). */
  logger?: Partial<Logger>;
  /** The directory tools may write in (default: a private temporary directory, made on first use). */
  sandboxDir?: string;
}

const DEFAULT_APPROVAL_LEVELS: readonly ConfirmLevel[] = ['write', 'destructive'];
const CONFIRM_LEVELS: readonly ConfirmLevel[] = ['none', 'read', 'write', 'destructive'];
const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;

/** The policy options a registry and one call share, each read once and checked (a NuwaError naming a bad one). */
function readPolicy(given: Options): Omit<ExecuteOptions, 'session' | 'signal'> {
  return {
    approve: given.function('approve', 'a function ({ toolName, confirm, category, args }) => boolean'),
    needsApproval: given.listOf('needsApproval', CONFIRM_LEVELS, `a list of confirm levels (${CONFIRM_LEVELS.join(', ')})`),
    timeoutMs: given.nonNegative('timeoutMs'),
    onEvent: given.function('onEvent', 'a function (event) => void'),
  };
}

/** The registry's defaults for execute (`new ToolRegistry(options)`), read from its options. */
export function readExecuteDefaults(given: Options): ExecuteDefaults {
  return {
    ...readPolicy(given),
    print: given.function('print', 'a function (line) => void'),
    logger: given.methods('logger', LOGGER_METHODS) as Partial<Logger> | undefined,
    sandboxDir: given.nonEmptyString('sandboxDir'),
  };
}

/** The options of one execute call. */
function readExecuteOptions(options: unknown): ExecuteOptions {
  const given = Options.of('execute(call, options)', options);
  return {
    ...readPolicy(given),
    session: given.check<Session>('session', (value) => value instanceof Session, 'a session from registry.createSession()'),
    signal: given.signal(),
  };
}

const sandboxes = new WeakMap<ExecuteDefaults, Sandbox>();

/**
 * What `execute` was handed: a function-call object (`execute(call, options)`), read here, or a
 * name and its input (`execute(name, input, options)`).
 */
export type CallRequest = { call: unknown } | { name: unknown; input: unknown };

/**
 * Runs one call. Resolves to a ToolResult whatever happens; never rejects. Everything the host
 * handed over (the call object, its name and arguments, the options) may be hostile: a Proxy, a
 * getter that throws or answers differently each time. Each is read once, inside the guard.
 */
export async function executeCall(registry: ToolRegistry, defaults: ExecuteDefaults, request: CallRequest, options: unknown): Promise<ToolResult> {
  const startTime = Date.now();
  const started = performance.now();
  let run: Run | undefined;
  let toolName = '';
  const finish = (outcome: Omit<ToolResult, 'metadata'>): ToolResult => {
    const endTime = Date.now();
    const executionId = run?.firstExecutionId ?? `${run?.runId ?? randomUUID()}:0`;
    return { ...outcome, metadata: { executionId, toolName, startTime, endTime, duration: performance.now() - started } };
  };
  try {
    const read = readRequest(request);
    if (typeof read === 'string') return finish(failure('TypeError', read));
    const { name, input } = read;
    if (typeof name !== 'string' || name === '') return finish(failure('ToolNotFoundError', `a function call needs the name of a tool, got ${shown(name)}`));
    toolName = name;
    const tool = registry.get(name);
    if (tool === undefined) return finish(failure('ToolNotFoundError', `Unknown tool: ${name}`));
    toolName = tool.name;
    const args = readArguments(tool, input);
    if (typeof args === 'string') return finish(failure('ToolArgumentError', args));
    const given = readExecuteOptions(options);
    run = callRun(registry, defaults, given);
    try {
      const data = (await invokeTool(run, tool.name, args, {}, 'json')) as JsonValue;
      return finish({ success: true, data });
    } finally {
      run.finish();
    }
  } catch (error) {
    if (isNuwaError(error)) return finish(failure(error.kind, error.message));
    // Not the tool's doing (invokeTool wraps those): a host mistake, such as a bad option.
    return finish(failure('TypeError', describeThrown(error)));
  }
}

/** The name and input of a call, each read once; or why the call object cannot be read. */
function readRequest(request: CallRequest): { name: unknown; input: unknown } | string {
  if (!('call' in request)) return request;
  const { call } = request;
  // Not an object: no name to read (a ToolNotFoundError, as for an object without a name).
  if (call === null || (typeof call !== 'object' && typeof call !== 'function')) return { name: undefined, input: undefined };
  let name: unknown;
  let input: unknown;
  try {
    name = (call as { name?: unknown }).name;
  } catch (error) {
    return `reading the function call's name threw: ${describeThrown(error)}`;
  }
  try {
    input = (call as { arguments?: unknown }).arguments;
  } catch (error) {
    return `reading the function call's arguments threw: ${describeThrown(error)}`;
  }
  return { name, input };
}

/**
 * The run around one function call: the same Run a script gets (policy, session, limits, time limit,
 * cancellation, events), with no script: it counts the tools the call reaches through callTool.
 */
function callRun(registry: ToolRegistry, defaults: ExecuteDefaults, options: ExecuteOptions): Run {
  let sandbox = sandboxes.get(defaults);
  if (sandbox === undefined) sandboxes.set(defaults, (sandbox = new Sandbox(defaults.sandboxDir)));
  return new Run({
    registry,
    session: options.session ?? registry.defaultSession,
    limits: resolveLimits({ timeoutMs: options.timeoutMs ?? defaults.timeoutMs }),
    print: defaults.print ?? ((line) => void process.stdout.write(`${line}\n`)),
    approve: options.approve ?? defaults.approve,
    needsApproval: new Set(options.needsApproval ?? defaults.needsApproval ?? DEFAULT_APPROVAL_LEVELS),
    onEvent: options.onEvent ?? defaults.onEvent,
    logger: hostLogger(defaults.logger),
    sandbox,
    fileName: undefined,
    signal: options.signal,
    noun: 'call',
  });
}

function failure(code: ErrorKind, error: string): Omit<ToolResult, 'metadata'> {
  return { success: false, error, code };
}

/** The call's arguments as a fresh JSON object, or the message saying why they are not one. */
function readArguments(tool: RegisteredTool, input: unknown): JsonObject | string {
  let value: unknown = input;
  if (typeof input === 'string') {
    if (input.trim() === '') return {};
    try {
      value = JSON.parse(input);
    } catch (error) {
      return (error as Error).message; // the parser's own message (TOOLS.md §5)
    }
  } else if (input === undefined || input === null) {
    return {};
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `invalid arguments for tool \`${tool.name}\`: the arguments must be an object, received ${describeValue(value)}`;
  }
  try {
    return copyJson(value) as JsonObject;
  } catch (error) {
    if (error instanceof NotJsonError) return `invalid arguments for tool \`${tool.name}\`: ${error.message}`;
    if (isNuwaError(error)) throw error; // over the value limits
    return `invalid arguments for tool \`${tool.name}\`: they cannot be read: ${describeThrown(error)}`;
  }
}

function describeValue(value: unknown): string {
  try {
    return describeJson(value as JsonValue);
  } catch {
    return typeof value;
  }
}
