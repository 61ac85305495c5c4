// Function calling (TOOLS.md §5): `registry.execute` runs one tool call that a model made with native
// function calling (or that a host makes as an API call) through invokeTool, the one call path, so it
// gets the same checks, approval policy, limits, events and state as a script's CALL. Unlike a script,
// it never throws: every outcome is a ToolResult the host can hand back to the model.
import { randomId } from '../util/platform.js';
import { isNuwaError, NuwaError, type ErrorKind } from '../errors.js';
import type { EventListener } from '../events.js';
import { resolveLimits } from './limits.js';
import { hostLogger, Run } from './run.js';
import { describeThrown } from '../util/foreign.js';
import { Options, shown } from '../util/options.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, NotJsonError } from '../values/values.js';
import type { RegisteredTool } from './build.js';
import { invokeTool } from './invoke.js';
import type { CallerContext } from './call-host.js';
import type { ToolCatalog } from './catalog.js';
import { Sandbox } from './sandbox.js';
import { Session } from './session.js';
import type { ApprovalHook, AskHook, ConfirmLevel, LlmHook, Logger } from './types.js';
import { describeJson } from './validate.js';
import { readTraceOptions, type TraceOptions } from './tracing.js';

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
  /**
   * Always there in what `registry.execute` returns. Optional in the type, as TOOLS.md §5 writes it,
   * because Plaited's registry (`createToolRegistry()`) is a ToolRegistry whose execute answers in
   * Plaited's own shape, `{ success, data?, error? }` (views/plaited/registry.ts).
   */
  metadata?: ToolResultMetadata;
}

/**
 * What one execute call may override. With a `tracer`, the call is a span `execute_tool {name}`
 * (and the calls it makes, its children), in the host's active context (tracing.ts).
 */
export interface ExecuteOptions extends TraceOptions {
  /** Whose state the tool sees (default: the registry's own session). */
  session?: Session;
  /** Asked before a tool whose confirm level needs approval; without one, such calls are denied. */
  approve?: ApprovalHook;
  /** Which confirm levels ask `approve` (default: write and destructive). */
  needsApproval?: ConfirmLevel[];
  /** Answers the tool's context.ask; without one, context.ask fails with ToolExecutionError. */
  ask?: AskHook;
  /** Answers the tool's context.llm; without one, context.llm fails with ToolExecutionError. */
  llm?: LlmHook;
  /** Cancels the call: it ends with AbortedError and the tool's signal aborts. */
  signal?: AbortSignal;
  /** Wall-clock limit for the call, tools it calls included (default: 5 minutes). */
  timeoutMs?: number;
  /** Receives the call's events (TOOLS.md §8). */
  onEvent?: EventListener;
  /**
   * The caller's own ids and logger (sdkwork's execute context): the tools of the call see them in
   * their context in place of the call's own.
   */
  caller?: CallerContext;
}

/** The registry's defaults for execute (`new ToolRegistry(options)`): its approval policy and services. */
export interface ExecuteDefaults extends Omit<ExecuteOptions, 'session' | 'signal'> {
  /** Where a tool's context.print goes (default: nowhere). */
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
function readPolicy(given: Options): Omit<ExecuteOptions, 'session' | 'signal' | 'caller'> {
  return {
    approve: given.function('approve', 'a function ({ toolName, confirm, category, args }) => boolean'),
    ask: given.function('ask', 'a function ({ question, choices, toolName, callId }) => answer'),
    llm: given.function('llm', 'a function (request, { toolName, callId }) => text'),
    needsApproval: given.listOf('needsApproval', CONFIRM_LEVELS, `a list of confirm levels (${CONFIRM_LEVELS.join(', ')})`),
    timeoutMs: given.nonNegative('timeoutMs'),
    onEvent: given.function('onEvent', 'a function (event) => void'),
    ...readTraceOptions(given),
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

/** The options of one execute call (or of a chain's calls: `where` names which). */
export function readExecuteOptions(options: unknown, where: string): ExecuteOptions {
  const given = Options.of(where, options);
  return {
    ...readPolicy(given),
    session: given.check<Session>('session', (value) => value instanceof Session, 'a session from registry.createSession()'),
    signal: given.signal(),
    caller: given.object('caller', 'an object { executionId?, agentId?, sessionId?, logger? }') as CallerContext | undefined,
  };
}

const sandboxes = new WeakMap<ExecuteDefaults, Sandbox>();

/**
 * What `execute` was handed: a function-call object (`execute(call, options)`), read here, or a
 * name and its input (`execute(name, input, options)`).
 */
export type CallRequest = { call: unknown } | { name: unknown; input: unknown };

/**
 * What one function call came to, before it is shaped into a result: the data, or the NuwaError it
 * ended with (its `cause` the tool's own failure, for the views of the other systems, views/). The
 * tool is there when the name found one.
 */
export type CallOutcome = { tool: RegisteredTool | undefined; metadata: ToolResultMetadata } & ({ ok: true; data: JsonValue } | { ok: false; error: NuwaError });

/** Runs one call. Resolves to a ToolResult whatever happens; never rejects. */
export async function executeCall(registry: ToolCatalog, defaults: ExecuteDefaults, request: CallRequest, options: unknown): Promise<ToolResult> {
  const outcome = await runCall(registry, defaults, request, options);
  if (outcome.ok) return { success: true, data: outcome.data, metadata: outcome.metadata };
  return { success: false, error: outcome.error.message, code: outcome.error.kind, metadata: outcome.metadata };
}

/**
 * One call through invokeTool, the one call path: the arguments read (a JSON string or an object),
 * the run made, the call made. Resolves to its outcome whatever happens; never rejects. Everything
 * the host handed over (the call object, its name and arguments, the options) may be hostile: a
 * Proxy, a getter that throws or answers differently each time. Each is read once, inside the guard.
 */
export async function runCall(registry: ToolCatalog, defaults: ExecuteDefaults, request: CallRequest, options: unknown): Promise<CallOutcome> {
  const startTime = Date.now();
  const started = performance.now();
  let run: Run | undefined;
  let tool: RegisteredTool | undefined;
  let toolName = '';
  const finish = (outcome: { ok: true; data: JsonValue } | { ok: false; error: NuwaError }): CallOutcome => {
    const endTime = Date.now();
    const executionId = run?.firstExecutionId ?? `${run?.runId ?? randomId()}:0`;
    return { ...outcome, tool, metadata: { executionId, toolName, startTime, endTime, duration: performance.now() - started } };
  };
  const failure = (kind: ErrorKind, message: string) => finish({ ok: false, error: new NuwaError(kind, message, tool ? { toolName: tool.name } : {}) });
  try {
    const read = readRequest(request);
    if (typeof read === 'string') return failure('TypeError', read);
    const { name, input } = read;
    if (typeof name !== 'string' || name === '') return failure('ToolNotFoundError', `a function call needs the name of a tool, got ${shown(name)}`);
    toolName = name;
    tool = registry.get(name);
    if (tool === undefined) return failure('ToolNotFoundError', `Unknown tool: ${name}`);
    toolName = tool.name;
    const args = readArguments(tool, input);
    if (typeof args === 'string') return failure('ToolArgumentError', args);
    run = callRun(registry, defaults, readExecuteOptions(options, 'execute(call, options)'));
    try {
      const data = (await invokeTool(run, tool.name, args, {}, 'json')) as JsonValue;
      return finish({ ok: true, data });
    } finally {
      run.finish();
    }
  } catch (error) {
    if (isNuwaError(error)) return finish({ ok: false, error });
    // Not the tool's doing (invokeTool wraps those): a host mistake, such as a bad option.
    return failure('TypeError', describeThrown(error));
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
export function callRun(registry: ToolCatalog, defaults: ExecuteDefaults, options: ExecuteOptions): Run {
  let sandbox = sandboxes.get(defaults);
  if (sandbox === undefined) sandboxes.set(defaults, (sandbox = new Sandbox(defaults.sandboxDir)));
  return new Run({
    registry,
    session: options.session ?? registry.defaultSession,
    limits: resolveLimits({ timeoutMs: options.timeoutMs ?? defaults.timeoutMs }),
    print: defaults.print ?? (() => {}),
    approve: options.approve ?? defaults.approve,
    ask: options.ask ?? defaults.ask,
    llm: options.llm ?? defaults.llm,
    needsApproval: new Set(options.needsApproval ?? defaults.needsApproval ?? DEFAULT_APPROVAL_LEVELS),
    onEvent: options.onEvent ?? defaults.onEvent,
    logger: hostLogger(defaults.logger),
    sandbox,
    fileName: undefined,
    signal: options.signal,
    noun: 'call',
    caller: options.caller,
    tracer: options.tracer ?? defaults.tracer,
    traceContent: options.traceContent ?? defaults.traceContent,
  });
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
