// sdkwork-agent's registry (TOOLS.md §11): `asSdkworkRegistry(registry)` is a view of a ToolRegistry
// with sdkwork's methods and shapes — register(tool), unregister(toolId), get, getByName, list,
// listByCategory, search(query) → Tool[], clear(), and execute(name, input, context?) resolving to
// `{ success, data?, error?: { message, code?, details? }, metadata }`. The tools are the registry's
// (registered here, they are callable from scripts as well, and the reverse), and every call goes the
// one way all calls go (tools/execute.ts runCall → invokeTool), with the registry's checks, approval
// policy, limits and events. What differs is only what the caller is told:
//
// - a tool's own failure `{ message, code, details }` comes back as the tool gave it (Nuwa's own
//   result quotes it as a script sees it); a failure that is not the tool's has Nuwa's message and
//   the NuwaError kind as its code (`ToolNotFoundError`, `ToolArgumentError`, `ToolDeniedError`, ...);
// - the caller's context (executionId, agentId, sessionId, logger, signal) reaches the tool's context;
// - `metadata` names the tool as sdkwork does: its id (`file-read`) and its name (`File Read`).
import { randomId } from '../util/platform.js';
import { runCall, type ExecuteOptions } from '../tools/execute.js';
import { causeOf, type ChainStrategy, type NodeState } from '../tools/chain.js';
import { defineTool, isDefinedTool, type DefinedTool, type DefineToolSpec } from '../tools/forms.js';
import type { CallerContext } from '../tools/call-host.js';
import type { RegisteredTool, ToolRegistry as NuwaToolRegistry } from '../tools/registry.js';
import type { ConfirmLevel, JsonSchema, JsonSchemaObject, Logger, ToolCategory, ToolDefinition } from '../tools/types.js';

export type { ConfirmLevel, ToolCategory } from '../tools/types.js';
/** What `defineTool` takes (sdkwork's ToolConfig). */
export type ToolConfig = DefineToolSpec;
import { describeThrown } from '../util/foreign.js';
import type { JsonValue } from '../values/json.js';
import { ownFailure } from './failure.js';

/** A registered tool as sdkwork shows it. `execute` calls it through the registry, like `registry.execute`. */
export interface Tool {
  readonly id: string;
  /** The human name (`File Read`) for a defineTool tool; else the name scripts call it by. */
  readonly name: string;
  readonly description: string;
  readonly version?: string;
  readonly category: ToolCategory;
  readonly confirm: ConfirmLevel;
  /** The input's JSON Schema. */
  readonly input: JsonSchemaObject;
  /** The JSON Schema of `data` in a successful result, when the tool declares one. */
  readonly output?: JsonSchema;
  readonly meta?: Readonly<Record<string, unknown>>;
  execute(input: unknown, context?: Partial<ToolExecutionContext>): Promise<ToolResult>;
}

/** What a caller may pass to execute, and what a defineTool tool's context then shows. */
export interface ToolExecutionContext {
  executionId: string;
  agentId: string;
  sessionId?: string;
  toolId: string;
  toolName: string;
  logger: Logger;
  signal?: AbortSignal;
}

export interface ToolError {
  message: string;
  code?: string;
  details?: unknown;
}

export interface ToolExecutionMeta {
  executionId: string;
  toolId: string;
  toolName: string;
  startTime: number;
  endTime: number;
  duration: number;
}

export interface ToolResult {
  success: boolean;
  data?: JsonValue;
  error?: ToolError;
  metadata: ToolExecutionMeta;
}

/** What sdkwork's `register` takes: a defineTool tool, its spec as a plain object, or any Nuwa definition. */
export type RegistrableTool = DefinedTool | DefineToolSpec | ToolDefinition | Tool;

export interface SdkworkRegistry {
  /** The ToolRegistry this is a view of (for an Interpreter, buildPrompt, ...). */
  readonly registry: NuwaToolRegistry;
  register(tool: RegistrableTool): Tool;
  unregister(toolId: string): boolean;
  get(toolId: string): Tool | undefined;
  getByName(name: string): Tool | undefined;
  list(): Tool[];
  listByCategory(category: ToolCategory): Tool[];
  /** Keyword search, synchronous: every matching tool, best first. */
  search(query: string): Tool[];
  /** Unregisters every tool of the registry. */
  clear(): void;
  /**
   * Runs a tool (by id, name or human name). `options` are Nuwa's per-call policy (`approve`,
   * `session`, `timeoutMs`, ...). Resolves whatever happens; never rejects.
   */
  execute(name: string, input: unknown, context?: Partial<ToolExecutionContext>, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * Runs a chain of calls (`sequential` by default, `parallel`, or `dag`), with `{{prev.data.x}}`
   * and `{{nodes.<id>.data.x}}` templates in the inputs; resolves to the nodes with their final
   * state, result and error, and each result by node id. Never rejects.
   */
  executeChain(chain: ToolChain | ChainNode[], options?: ExecuteOptions & { strategy?: ChainStrategy }): Promise<ChainResult>;
}

/** A node of a chain as given: sdkwork's ToolCallNode, its state and result filled in by the chain. */
export type ChainNode = Partial<ToolCallNode> & { toolId: string };

export interface ToolCallNode {
  id: string;
  toolId: string;
  input: unknown;
  dependencies: string[];
  state: NodeState;
  result?: ToolResult;
  error?: string;
}

export interface ToolChain {
  id: string;
  nodes: ChainNode[];
  strategy: ChainStrategy;
}

export interface ChainResult {
  success: boolean;
  nodes: ToolCallNode[];
  results: Record<string, ToolResult>;
  /** Why the chain could not run at all (its nodes are then all skipped). */
  error?: string;
}

/** sdkwork's name for its registry's interface. */
export type ToolRegistry = SdkworkRegistry;

/** sdkwork's registry over `registry`: the same tools, seen and called the sdkwork way. */
export function asSdkworkRegistry(registry: NuwaToolRegistry): SdkworkRegistry {
  if (registry === null || typeof registry !== 'object' || typeof registry.lookup !== 'function') throw new TypeError('asSdkworkRegistry(registry): registry must be a ToolRegistry');
  return new SdkworkView(registry);
}

class SdkworkView implements SdkworkRegistry {
  private readonly shown = new WeakMap<RegisteredTool, Tool>();

  constructor(readonly registry: NuwaToolRegistry) {}

  async executeChain(chain: ToolChain | ChainNode[], options?: ExecuteOptions & { strategy?: ChainStrategy }): Promise<ChainResult> {
    const ran = await this.registry.executeChain(chain as Parameters<NuwaToolRegistry['executeChain']>[0], options);
    // Each result as sdkwork's execute gives it: the tool's own error code and details, and its id.
    const shaped = new Map<string, ToolResult>();
    for (const [id, result] of Object.entries(ran.results)) {
      const node = ran.nodes.find((candidate) => candidate.id === id)!;
      const tool = this.find(node.toolId);
      const metadata: ToolExecutionMeta = { ...result.metadata!, toolId: tool?.id ?? tool?.name ?? node.toolId, toolName: tool?.title ?? tool?.name ?? node.toolId };
      if (result.success) {
        shaped.set(id, { success: true, data: result.data!, metadata });
        continue;
      }
      const cause = causeOf(result);
      const failure = cause === undefined ? { message: result.error ?? 'failed', code: result.code } : ownFailure(cause);
      const error: ToolError = { message: failure.message };
      if (failure.code !== undefined) error.code = failure.code;
      if ('details' in failure && failure.details !== undefined) error.details = failure.details;
      shaped.set(id, { success: false, error, metadata });
    }
    const nodes = ran.nodes.map(({ result: _nuwa, ...node }): ToolCallNode => ({ ...node, ...(shaped.has(node.id) && { result: shaped.get(node.id) }) }));
    return { success: ran.success, nodes, results: Object.fromEntries(shaped), ...(ran.error !== undefined && { error: ran.error }) };
  }

  register(tool: RegistrableTool): Tool {
    if (tool === null || typeof tool !== 'object') throw new TypeError('register(tool): a tool must be an object made by defineTool({ id, name, description, execute, ... })');
    let registered: RegisteredTool;
    if (isDefinedTool(tool)) registered = this.registry.register(tool);
    else if (typeof (tool as { id?: unknown }).id === 'string' && !('parameters' in tool)) registered = this.registry.register(defineTool(tool as DefineToolSpec));
    else registered = this.registry.register(tool as ToolDefinition);
    return this.show(registered);
  }

  unregister(toolId: string): boolean {
    const tool = this.find(toolId);
    return tool !== undefined && this.registry.unregister(tool.name);
  }

  get(toolId: string): Tool | undefined {
    const tool = this.registry.get(toolId);
    return tool && this.show(tool);
  }

  getByName(name: string): Tool | undefined {
    const tool = typeof name === 'string' ? this.registry.getByName(name) : undefined;
    return tool && this.show(tool);
  }

  list(): Tool[] {
    return this.registry.list().map((tool) => this.show(tool));
  }

  listByCategory(category: ToolCategory): Tool[] {
    return this.registry.listByCategory(category).map((tool) => this.show(tool));
  }

  search(query: string): Tool[] {
    return this.registry.searchKeywords(query).map((result) => this.show(result.tool));
  }

  clear(): void {
    this.registry.clear();
  }

  async execute(name: string, input: unknown, context?: Partial<ToolExecutionContext>, options?: ExecuteOptions): Promise<ToolResult> {
    const startTime = Date.now();
    const tool = this.find(name);
    const toolId = tool === undefined ? String(name) : (tool.id ?? tool.name);
    const toolName = tool === undefined ? String(name) : (tool.title ?? tool.name);
    const refused = (message: string): ToolResult => {
      const endTime = Date.now();
      return { success: false, error: { message, code: 'TypeError' }, metadata: { executionId: randomId(), toolId, toolName, startTime, endTime, duration: endTime - startTime } };
    };
    let caller: CallerContext;
    try {
      caller = callerOf(context);
    } catch (error) {
      return refused(describeThrown(error));
    }
    const signal = context?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return refused('execute(name, input, context): context.signal must be an AbortSignal');
    const callOptions = { ...options, caller, ...(signal !== undefined && { signal }) };

    const outcome = await runCall(this.registry, this.registry.executeDefaults, { name: tool?.name ?? name, input }, callOptions);
    const { startTime: began, endTime, duration, executionId } = outcome.metadata;
    const metadata: ToolExecutionMeta = { executionId: caller.executionId ?? executionId, toolId, toolName, startTime: began, endTime, duration };
    if (outcome.ok) return { success: true, data: outcome.data, metadata };
    const failure = ownFailure(outcome.error);
    const error: ToolError = { message: failure.message };
    if (failure.code !== undefined) error.code = failure.code;
    if (failure.details !== undefined) error.details = failure.details;
    const result: ToolResult = { success: false, error, metadata };
    if (failure.data !== undefined) result.data = failure.data;
    return result;
  }

  /** A tool by id, name, exported name or human name. */
  private find(name: unknown): RegisteredTool | undefined {
    if (typeof name !== 'string') return undefined;
    return this.registry.get(name) ?? this.registry.getByName(name);
  }

  private show(tool: RegisteredTool): Tool {
    let shown = this.shown.get(tool);
    if (shown === undefined) {
      const view = this;
      shown = Object.freeze({
        id: tool.id ?? tool.name,
        name: tool.title ?? tool.name,
        description: tool.description,
        ...(tool.version === undefined ? {} : { version: tool.version }),
        category: tool.category,
        confirm: tool.confirm,
        input: tool.parametersSchema,
        ...(tool.returns === 'any' ? {} : { output: tool.returnsSchema }),
        ...(tool.meta === undefined ? {} : { meta: tool.meta }),
        execute(input: unknown, context?: Partial<ToolExecutionContext>): Promise<ToolResult> {
          return view.execute(tool.name, input, context);
        },
      });
      this.shown.set(tool, shown);
    }
    return shown;
  }
}

/** The parts of a caller's context that its tools see; throws a TypeError naming a bad one. */
function callerOf(context: Partial<ToolExecutionContext> | undefined): CallerContext {
  if (context === undefined || context === null) return {};
  if (typeof context !== 'object') throw new TypeError('execute(name, input, context): context must be an object { executionId, agentId, sessionId, logger, signal }');
  const caller: CallerContext = {};
  for (const key of ['executionId', 'agentId', 'sessionId'] as const) {
    const value = context[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new TypeError(`execute(name, input, context): context.${key} must be a string`);
    caller[key] = value;
  }
  const { logger } = context;
  if (logger !== undefined) {
    if (logger === null || typeof logger !== 'object' || (['debug', 'info', 'warn', 'error'] as const).some((level) => typeof logger[level] !== 'function')) {
      throw new TypeError('execute(name, input, context): context.logger must have debug, info, warn and error functions');
    }
    caller.logger = logger;
  }
  return caller;
}
