// NeuroScript's tool contract (TOOLS.md §11) as a view over one ToolRegistry: a tool written for
// NeuroScript — a spec of positional, typed arguments and a function `(rt, args)` — registers through
// the registry's one path, so the same central validation, coercion, approval policy, limits and
// events apply to it as to every other tool.
//
// The argument types become JSON Schema, so that the registry's validator checks and coerces them
// (an `int` is an integer, a `slice_string` a list of strings) before the function runs; the view only
// lines the checked arguments up in the spec's order, with null for a missing optional one. The
// runtime `rt` a function receives is NeuroScript's names over the call's ToolContext.
import type { JsonObject, JsonValue } from '../values/json.js';
import { parameterNamesOf } from '../tools/context.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import type { ConfirmLevel, JsonSchema, JsonSchemaObject, LlmRequest, ToolCategory, ToolContext, ToolDefinition } from '../tools/types.js';
import { describeThrown, textOf, thenOf } from '../util/foreign.js';

/** The argument and return types of a NeuroScript tool spec. */
export type NeuroArgType =
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'map'
  | 'any'
  | 'slice'
  | 'slice_any'
  | 'slice_string'
  | 'slice_int'
  | 'slice_float'
  | 'slice_bool'
  | 'slice_map'
  /** Only as a return type: the tool returns nothing worth having (null). */
  | 'nil';

export interface NeuroArgSpec {
  name: string;
  type: NeuroArgType;
  /** A required argument must be present and not null; an optional one arrives as null when missing. */
  required?: boolean;
  description?: string;
  /** What a missing optional argument becomes instead of null. */
  defaultValue?: JsonValue;
}

export interface NeuroToolSpec {
  name: string;
  /** The toolset: a tool with a group is called `group.name`. */
  group?: string;
  description?: string;
  args?: NeuroArgSpec[];
  /** Checked against what the function returns (default: any). */
  returnType?: NeuroArgType;
}

/** A NeuroScript tool function: the runtime, and the arguments in the spec's order, already checked. */
export type NeuroToolFunc = (rt: NeuroRuntime, args: any[]) => unknown;

/** What `defineNeuroTool` takes: the spec and the function, and optionally Nuwa's risk level and limits. */
export interface NeuroToolImplementation {
  spec: NeuroToolSpec;
  func: NeuroToolFunc;
  /** Nuwa's risk level (TOOLS.md §6); default none. */
  confirm?: ConfirmLevel;
  category?: ToolCategory;
  timeoutMs?: number;
  keywords?: string[];
}

/** A NeuroScript tool ready for the registry: a tool definition (`registry.register(tool)`) that keeps its spec. */
export interface NeuroTool extends ToolDefinition {
  readonly spec: NeuroToolSpec;
  readonly func: NeuroToolFunc;
}

/** The logger of `rt.getLogger()`: a message, then keys and values in turn. */
export interface NeuroLogger {
  debug(message: string, ...keyValues: unknown[]): void;
  info(message: string, ...keyValues: unknown[]): void;
  warn(message: string, ...keyValues: unknown[]): void;
  error(message: string, ...keyValues: unknown[]): void;
}

/** The model client of `rt.llm()`. */
export interface NeuroLlmClient {
  complete(request: LlmRequest): Promise<string>;
}

/** What a NeuroScript tool function may do with the running program. */
export interface NeuroRuntime {
  /** Writes one line to the script's output: the values joined by spaces. */
  println(...values: unknown[]): void;
  /** Asks the person behind the host (context.ask). */
  promptUser(prompt: string): Promise<string>;
  getLogger(): NeuroLogger;
  /** The script's variable as seen from the CALL, or undefined. */
  getVar(name: string): JsonValue | undefined;
  setVar(name: string, value: JsonValue): void;
  /** A directory the tool may write in. */
  sandboxDir(): string;
  /** Calls another tool with positional arguments, in the order of its parameters. */
  callTool(name: string, args?: unknown[]): Promise<JsonValue>;
  /** The host's model (context.llm). */
  llm(): NeuroLlmClient;
}

/** What a toolset's registration function and a plugin's `register` receive. */
export interface NeuroRegistrar {
  registerTool(tool: NeuroToolImplementation | NeuroTool): RegisteredTool;
}
export type NeuroRegisterFunc = (registrar: NeuroRegistrar) => void;

const ARG_SCHEMAS: Readonly<Record<NeuroArgType, JsonSchema>> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  map: { type: 'object' },
  any: {},
  slice: { type: 'array' },
  slice_any: { type: 'array' },
  slice_string: { type: 'array', items: { type: 'string' } },
  slice_int: { type: 'array', items: { type: 'integer' } },
  slice_float: { type: 'array', items: { type: 'number' } },
  slice_bool: { type: 'array', items: { type: 'boolean' } },
  slice_map: { type: 'array', items: { type: 'object' } },
  nil: { type: 'null' },
};
const ARG_TYPES = Object.keys(ARG_SCHEMAS).filter((type) => type !== 'nil');

/** Makes a NeuroScript tool: `registry.register(tool)`, or a registrar's `registerTool(tool)`, registers it. */
export function defineNeuroTool(implementation: NeuroToolImplementation): NeuroTool {
  if (implementation === null || typeof implementation !== 'object') throw new TypeError('defineNeuroTool({ spec, func }): the tool must be an object');
  const { spec, func, confirm, category, timeoutMs, keywords } = implementation;
  if (spec === null || typeof spec !== 'object') throw new TypeError('defineNeuroTool({ spec, func }): spec is missing');
  const name = spec.group === undefined || spec.group === '' ? spec.name : `${spec.group}.${spec.name}`;
  if (typeof spec.name !== 'string' || spec.name === '') throw new TypeError('defineNeuroTool: spec.name must be a non-empty string');
  if (typeof func !== 'function') throw new TypeError(`defineNeuroTool: tool "${name}" needs a func (rt, args) => result`);
  const args = readArgs(name, spec.args);
  const positions = args.map((arg) => arg.name);
  const returnType = spec.returnType ?? 'any';
  if (!Object.hasOwn(ARG_SCHEMAS, returnType)) throw new TypeError(`defineNeuroTool: tool "${name}" has returnType ${JSON.stringify(returnType)}; use one of ${[...ARG_TYPES, 'nil'].join(', ')}`);

  const tool: NeuroTool = {
    name,
    description: spec.description ?? '',
    parameters: parametersOf(args),
    returns: ARG_SCHEMAS[returnType],
    ...(confirm !== undefined && { confirm }),
    ...(category !== undefined && { category }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(keywords !== undefined && { keywords }),
    execute: (checked, context) => func(runtimeOf(context), positions.map((position) => (Object.hasOwn(checked, position) ? checked[position] : null))),
    spec,
    func,
  };
  return Object.freeze(tool);
}

function readArgs(name: string, args: unknown): NeuroArgSpec[] {
  if (args === undefined) return [];
  if (!Array.isArray(args)) throw new TypeError(`defineNeuroTool: tool "${name}": spec.args must be a list of { name, type, required }`);
  for (const arg of args as NeuroArgSpec[]) {
    if (arg === null || typeof arg !== 'object' || typeof arg.name !== 'string' || arg.name === '') throw new TypeError(`defineNeuroTool: tool "${name}": every argument needs a name`);
    if (!ARG_TYPES.includes(arg.type)) throw new TypeError(`defineNeuroTool: tool "${name}": argument "${arg.name}" has type ${JSON.stringify(arg.type)}; use one of ${ARG_TYPES.join(', ')}`);
  }
  return args as NeuroArgSpec[];
}

/** The arguments as the JSON Schema the registry validates and coerces with, in the spec's order. */
function parametersOf(args: NeuroArgSpec[]): JsonSchemaObject {
  const properties: Record<string, JsonSchema> = {};
  for (const arg of args) {
    properties[arg.name] = {
      ...(ARG_SCHEMAS[arg.type] as object),
      ...(arg.description && { description: arg.description }),
      ...(arg.defaultValue !== undefined && { default: arg.defaultValue }),
    };
  }
  return { type: 'object', properties, required: args.filter((arg) => arg.required === true).map((arg) => arg.name), additionalProperties: false };
}

/** NeuroScript's runtime over a call's context. */
function runtimeOf(context: ToolContext): NeuroRuntime {
  const logger = loggerOf(context);
  const llm: NeuroLlmClient = Object.freeze({ complete: (request: LlmRequest) => context.llm(request) });
  return Object.freeze({
    println: (...values: unknown[]) => context.print(values.map(textOf).join(' ')),
    promptUser: (prompt: string) => context.ask(prompt),
    getLogger: () => logger,
    getVar: (name: string) => context.getVar(name),
    setVar: (name: string, value: JsonValue) => context.setVar(name, value),
    sandboxDir: () => context.sandboxDir,
    callTool: (name: string, args: unknown[] = []) => callPositional(context, name, args),
    llm: () => llm,
  });
}

function loggerOf(context: ToolContext): NeuroLogger {
  const level =
    (write: (message: string, meta?: unknown) => void) =>
    (message: string, ...keyValues: unknown[]) =>
      keyValues.length === 0 ? write(message) : write(message, metaOf(keyValues));
  const { logger } = context;
  return Object.freeze({ debug: level(logger.debug), info: level(logger.info), warn: level(logger.warn), error: level(logger.error) });
}

/** `"path", p, "size", n` → `{ path: p, size: n }`; a key left without a value maps to null. */
function metaOf(keyValues: unknown[]): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (let i = 0; i < keyValues.length; i += 2) {
    Object.defineProperty(meta, textOf(keyValues[i]), { value: i + 1 < keyValues.length ? keyValues[i + 1] : null, enumerable: true, writable: true, configurable: true });
  }
  return meta;
}

/** `rt.callTool("math.add", [2, 3])` → `context.callTool("math.add", { a: 2, b: 3 })`, by the tool's parameter order. */
async function callPositional(context: ToolContext, name: string, positional: unknown): Promise<JsonValue> {
  if (!Array.isArray(positional)) throw new TypeError(`rt.callTool(name, args): args must be a list of positional arguments, not ${textOf(positional)}`);
  const names = parameterNamesOf(context, name);
  // An unknown tool fails through the usual path, with its did-you-mean.
  if (names === undefined) return context.callTool(name, {});
  if (positional.length > names.length) {
    const takes = names.length === 0 ? 'no arguments' : `${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')})`;
    throw new TypeError(`rt.callTool("${name}"): ${name} takes ${takes}, got ${positional.length}`);
  }
  const args: JsonObject = {};
  positional.forEach((value, index) => {
    // A null in a position leaves that (optional) argument out, as a missing argument is in NeuroScript.
    if (value !== null && value !== undefined) Object.defineProperty(args, names[index]!, { value, enumerable: true, writable: true, configurable: true });
  });
  return context.callTool(name, args);
}

// --- toolsets and plugins -----------------------------------------------------------------------

/** A registrar over `registry`: `registerTool` takes a NeuroScript tool, made or not with defineNeuroTool. */
export function registrarFor(registry: ToolRegistry): NeuroRegistrar {
  return Object.freeze({
    registerTool: (tool: NeuroToolImplementation | NeuroTool) => registry.register(isNeuroTool(tool) ? tool : defineNeuroTool(tool)),
  });
}

function isNeuroTool(tool: unknown): tool is NeuroTool {
  return tool !== null && typeof tool === 'object' && typeof (tool as NeuroTool).execute === 'function' && typeof (tool as NeuroTool).name === 'string';
}

/** A registration function that registers `tools` (a toolset's tools); the name is for messages. */
export function createRegistrationFunc(toolsetName: string, tools: Array<NeuroToolImplementation | NeuroTool>): NeuroRegisterFunc {
  if (!Array.isArray(tools)) throw new TypeError(`createRegistrationFunc("${toolsetName}", tools): tools must be a list`);
  return (registrar) => {
    const failures: string[] = [];
    for (const tool of tools) {
      try {
        registrar.registerTool(tool);
      } catch (error) {
        failures.push(`tool "${textOf(tool?.spec?.name)}" of toolset ${toolsetName}: ${describeThrown(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
  };
}

/** The toolsets collected by addToolsetRegistration, by name, in the order they were first added. */
const toolsetRegistrations = new Map<string, NeuroRegisterFunc>();

/**
 * Collects a toolset's registration function (a module does it when it loads, as a Go package does in
 * its init()); registerExtendedTools applies them. Adding a name again replaces its function.
 */
export function addToolsetRegistration(name: string, registerFn: NeuroRegisterFunc): void {
  if (typeof name !== 'string' || name === '') throw new TypeError('addToolsetRegistration(name, registerFn): the name must be a non-empty string');
  if (typeof registerFn !== 'function') throw new TypeError(`addToolsetRegistration("${name}", registerFn): registerFn must be a function (registrar) => void`);
  toolsetRegistrations.set(name, registerFn);
}

/**
 * Registers every collected toolset in `registry` and returns the tools registered. Every toolset is
 * tried; if any failed, an error then names each failure (the tools that did register stay).
 */
export function registerExtendedTools(registry: ToolRegistry): RegisteredTool[] {
  const registered: RegisteredTool[] = [];
  const failures: string[] = [];
  const registrar = registrarFor(registry);
  const recording: NeuroRegistrar = { registerTool: (tool) => recorded(registered, registrar.registerTool(tool)) };
  for (const [name, registerFn] of toolsetRegistrations) {
    try {
      const answer = registerFn(recording);
      // Registration runs at start-up, synchronously: a toolset that must wait for something is a plugin.
      if (thenOf(answer) !== undefined) throw new TypeError('its registration function returned a promise; register asynchronously loaded tools with registry.loadPlugin(path)');
    } catch (error) {
      failures.push(`toolset ${name}: ${describeThrown(error)}`);
    }
  }
  if (failures.length > 0) throw new Error(`registerExtendedTools: ${failures.join('; ')}`);
  return registered;
}

function recorded(list: RegisteredTool[], tool: RegisteredTool): RegisteredTool {
  list.push(tool);
  return tool;
}
