// The ToolRegistry (TOOLS.md §5): the tools a host exposes, each registered once with its schema
// compiled into validators; plus the registry's default session, whose state its state methods use.
// How a tool is built from its definition is build.ts (the forms of the other tool systems: forms.ts);
// function calling is execute.ts, search is search.ts: the registry holds tools and hands them out.
// It knows nothing of how a call is carried out: invoke.ts does that, and imports the registry only
// for its types; execute.ts and createToolContext (detached.ts) hand over to it.
import type { JsonObject, JsonValue } from '../values/json.js';
import { describeThrown } from '../util/foreign.js';
import type { NuwaEvent } from '../events.js';
import { executeChain, type ChainResult, type ChainStrategy, type ToolChain } from './chain.js';
import { buildTool, checkName, type RegisteredTool, type ToolSpec } from './build.js';
import { callRun, executeCall, readExecuteDefaults, readExecuteOptions, type ExecuteDefaults, type ExecuteOptions, type FunctionCall, type ToolResult } from './execute.js';
import { fromDefinedTool, fromPlaited, isDefinedTool, type DefinedToolMark, type PlaitedHandler, type PlaitedSchema } from './forms.js';
import { exportedName, fromExportedName } from './names.js';
import { Options } from '../util/options.js';
import { ToolIndex, type SearchOptions, type SearchResult } from './search.js';
import { Session } from './session.js';
import { createDetachedContext } from './detached.js';
import type {
  Embedder,
  JsonSchemaObject,
  NuwaSchema,
  StateMetadata,
  ToolArgs,
  ToolCategory,
  ToolContext,
  ToolDefinition,
  ToolFunction,
  ToolParameters,
  ToolReturns,
  ToolSchema,
  ToolSource,
  TypedToolFunction,
} from './types.js';
import { outsideProviders, type ExecutableOptions, type ExecutablesLoaded, type McpConnectOptions, type McpConnection } from './outside.js';

export type { RegisteredTool } from './build.js';

/** The function-calling form of a tool: what a model with native tool calling is given. */
export interface FunctionSchema {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

export interface ToolRegistryOptions extends ExecuteDefaults {
  /** Embeds text for search (TOOLS.md §5): tools are embedded once, and ranked by cosine next to keywords. */
  embedder?: Embedder;
}

/** What `registry.on` listeners receive when a tool is registered or unregistered. */
export interface RegistryEvent {
  type: 'tool:registered' | 'tool:unregistered';
  toolName: string;
  source: ToolSource;
  timestamp: number;
  tool: RegisteredTool;
  /** The tool's id (a defineTool tool's `file-read`), else its name (TOOLS.md §8). */
  toolId: string;
  /** What the event is about: the tool, as plain JSON (its schema and settings, not its function). */
  payload: JsonObject;
}
export type RegistryEventType = RegistryEvent['type'];
/** What `registry.on('tool:chain:...')` listeners receive. */
export type ChainEvent = Extract<NuwaEvent, { type: 'tool:chain:started' | 'tool:chain:completed' | 'tool:chain:failed' }>;
export type RegistryListener = (event: RegistryEvent) => void;

/** A tool of a toolset: a one-object definition typed from its schemas, or a defineTool tool. */
export type ToolsetTool<P extends ToolParameters = ToolParameters, R extends ToolReturns = ToolReturns> = ToolDefinition<P, R> | DefinedToolMark;

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  /** A `defineTool` tool's id → the name it is registered under. */
  private readonly ids = new Map<string, string>();
  private readonly listeners = new Map<RegistryEventType, Set<RegistryListener>>();
  private readonly chainListeners = new Map<ChainEvent['type'], Set<(event: ChainEvent) => void>>();
  /** The options it was made with, less the embedder: the policy and services of `execute` (and of the views over it). */
  readonly executeDefaults: ExecuteDefaults;
  private readonly embedder: Embedder | undefined;
  private index: ToolIndex | undefined;
  /** While a provider hands the registry to foreign code (registerFrom): the source of what it registers. */
  private registeringFrom: ToolSource | undefined;
  /** The registry's own session: its state methods act on it. */
  readonly defaultSession = new Session();

  constructor(options: ToolRegistryOptions = {}) {
    const given = Options.of('new ToolRegistry(options)', options);
    this.embedder = given.function<Embedder>('embedder', 'a function (text) => Promise<Float32Array>');
    this.executeDefaults = readExecuteDefaults(given);
  }

  /**
   * Registers a tool, in any form of TOOLS.md §1:
   * - `register(name, schema, fn)`: the Nuwa form;
   * - `register({ ...schema, execute, category, confirm, keywords, timeoutMs })`: the one-object form;
   * - `register(name, handler, schema)`: the Plaited form (the handler returns `{ success, data | error }`);
   * - `register(defineTool({ id, name, description, input, output, execute, meta, ... }))`: the sdkwork form.
   * Registering a taken name is an error. The function is typed from the schema (inference.ts).
   *
   * One signature for the forms that start with an object and one for those that start with a
   * name, rather than an overload per form: a mistake in a call is then reported against the
   * argument it is in, compared with what that argument may be, and not once per form besides.
   */
  register<const P extends ToolParameters = ToolParameters, const R extends ToolReturns = ToolReturns>(definition: ToolDefinition<P, R> | DefinedToolMark): RegisteredTool;
  register<const P extends ToolParameters = ToolParameters, const R extends ToolReturns = ToolReturns>(
    name: string,
    schemaOrHandler: NuwaSchema<P, R> | PlaitedHandler<ToolArgs<P>>,
    executeOrSchema?: TypedToolFunction<P, R, ToolContext> | PlaitedSchema<P>,
  ): RegisteredTool;
  register(nameOrDefinition: string | ToolDefinition | DefinedToolMark, second?: NuwaSchema | PlaitedHandler, third?: ToolFunction | PlaitedSchema): RegisteredTool {
    return this.add(toSpec(nameOrDefinition, second, third));
  }

  /**
   * Registers tools under a group: `registerToolset('math', [add])` makes `math.add`. Each of the
   * first eight tools of a list written in place gets its function typed from its own schemas (a
   * type parameter per place: the compiler cannot infer one per item of a list); the others, as
   * general definitions.
   */
  registerToolset<
    const P1 extends ToolParameters = ToolParameters, const R1 extends ToolReturns = ToolReturns,
    const P2 extends ToolParameters = ToolParameters, const R2 extends ToolReturns = ToolReturns,
    const P3 extends ToolParameters = ToolParameters, const R3 extends ToolReturns = ToolReturns,
    const P4 extends ToolParameters = ToolParameters, const R4 extends ToolReturns = ToolReturns,
    const P5 extends ToolParameters = ToolParameters, const R5 extends ToolReturns = ToolReturns,
    const P6 extends ToolParameters = ToolParameters, const R6 extends ToolReturns = ToolReturns,
    const P7 extends ToolParameters = ToolParameters, const R7 extends ToolReturns = ToolReturns,
    const P8 extends ToolParameters = ToolParameters, const R8 extends ToolReturns = ToolReturns,
  >(
    group: string,
    tools: readonly [
      ToolsetTool<P1, R1>?,
      ToolsetTool<P2, R2>?,
      ToolsetTool<P3, R3>?,
      ToolsetTool<P4, R4>?,
      ToolsetTool<P5, R5>?,
      ToolsetTool<P6, R6>?,
      ToolsetTool<P7, R7>?,
      ToolsetTool<P8, R8>?,
      ...ToolsetTool[],
    ],
  ): RegisteredTool[];
  registerToolset(group: string, tools: ReadonlyArray<ToolDefinition | DefinedToolMark>): RegisteredTool[] {
    checkName(group, 'toolset');
    if (!Array.isArray(tools)) throw new TypeError(`registerToolset("${group}", tools): tools must be a list of tool definitions`);
    const specs = tools.map((tool) => {
      const spec = toSpec(tool);
      return { ...spec, name: `${group}.${spec?.name}`, ...(spec?.id === undefined ? {} : { id: `${group}.${spec.id}` }) };
    });
    const taken = specs.find((spec) => this.tools.has(spec.name));
    if (taken) throw new Error(`a tool named "${taken.name}" is already registered: unregister it first`);
    return specs.map((spec) => this.add(spec));
  }

  /**
   * Runs `load`, giving the tools it registers without a source of their own the source `source`:
   * how a provider that hands the registry to other code (a tools module's default function) marks
   * what that code registers. (Anything registered meanwhile from elsewhere gets it too: providers
   * load one after another.)
   */
  async registerFrom<T>(source: ToolSource, load: () => T | Promise<T>): Promise<T> {
    const outer = this.registeringFrom;
    this.registeringFrom = source;
    try {
      return await load();
    } finally {
      this.registeringFrom = outer;
    }
  }

  private add(spec: ToolSpec): RegisteredTool {
    const tool = buildTool(spec.source === undefined && this.registeringFrom !== undefined ? { ...spec, source: this.registeringFrom } : spec);
    if (this.tools.has(tool.name)) throw new Error(`a tool named "${tool.name}" is already registered: unregister it first`);
    if (tool.id !== undefined && tool.id !== tool.name && this.ids.has(tool.id)) {
      throw new Error(`a tool with the id "${tool.id}" is already registered (as "${this.ids.get(tool.id)}"): unregister it first`);
    }
    this.tools.set(tool.name, tool);
    if (tool.id !== undefined && tool.id !== tool.name) this.ids.set(tool.id, tool.name);
    this.index?.add(tool);
    this.emit('tool:registered', tool);
    return tool;
  }

  /** Removes a tool (by name, or by any spelling `get` accepts). */
  unregister(name: string): boolean {
    const tool = this.get(name);
    if (tool === undefined) return false;
    this.tools.delete(tool.name);
    if (tool.id !== undefined && this.ids.get(tool.id) === tool.name) this.ids.delete(tool.id);
    this.index?.remove(tool);
    this.emit('tool:unregistered', tool);
    return true;
  }

  /** Unregisters every tool, each with its `tool:unregistered` event. State and sessions are kept. */
  clear(): void {
    for (const tool of this.list()) this.unregister(tool.name);
  }

  /** The tool CALL names `name` (exact, case-sensitive). */
  lookup(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /**
   * A tool by any of its spellings: its name, a `defineTool` id (`file-read`), or its exported
   * function-calling name (`math__add`).
   */
  get(id: string): RegisteredTool | undefined {
    if (typeof id !== 'string') return undefined;
    const exact = this.tools.get(id);
    if (exact !== undefined) return exact;
    const byId = this.ids.get(id);
    if (byId !== undefined) return this.tools.get(byId);
    return this.tools.get(fromExportedName(id));
  }

  /** A tool by its name, or by a `defineTool` tool's human name (`File Read`). */
  getByName(name: string): RegisteredTool | undefined {
    return this.tools.get(name) ?? this.list().find((tool) => tool.title === name);
  }

  getSchema(name: string): ToolSchema | undefined {
    const tool = this.tools.get(name);
    return tool && { name: tool.name, description: tool.description, parameters: tool.parameters, returns: tool.returns };
  }

  /** Every registered tool, in registration order. */
  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  listByCategory(category: ToolCategory): RegisteredTool[] {
    return this.list().filter((tool) => tool.category === category);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /**
   * The JSON-Schema function-calling form of every tool, dotted names exported with `__`. The
   * schemas are copies, so a host may add to them (e.g. `strict`) without changing the tools.
   */
  get schemas(): FunctionSchema[] {
    return this.list().map((tool) => ({ name: exportedName(tool.name), description: tool.description, parameters: structuredClone(tool.parametersSchema) as JsonSchemaObject }));
  }

  /**
   * Function calling (TOOLS.md §5): `execute({ name, arguments })`, arguments a JSON string or an
   * object, or `execute(name, input)`. Runs the same checks, approval policy, limits and events as a
   * script's CALL; resolves to a ToolResult and never rejects.
   */
  execute(call: FunctionCall, options?: ExecuteOptions): Promise<ToolResult>;
  execute(name: string, input?: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  execute(callOrName: FunctionCall | string, second?: unknown, third?: ExecuteOptions): Promise<ToolResult> {
    // Whatever it is handed (a Proxy, a getter that throws), the call object is read inside executeCall's guard.
    if (typeof callOrName === 'string') return executeCall(this, this.executeDefaults, { name: callOrName, input: second }, third);
    return executeCall(this, this.executeDefaults, { call: callOrName }, second);
  }

  /**
   * Runs a chain of calls (sdkwork's executeChain, DURABLE.md §4): `sequential` (each node after the
   * one before, `{{prev.data...}}`), `parallel` or `dag` (`dependencies`; `{{nodes.<id>.data...}}`),
   * each node through the one call path, in one run. Resolves to every node's state and result;
   * never rejects. Emits `tool:chain:started` and `tool:chain:completed` / `failed`.
   */
  executeChain(chain: ToolChain | ToolChain['nodes'], options: ExecuteOptions & { strategy?: ChainStrategy } = {}): Promise<ChainResult> {
    return executeChain(
      {
        registry: this,
        makeRun: () => callRun(this, this.executeDefaults, readExecuteOptions(options, 'executeChain(chain, options)')),
        emitRegistryEvent: (event) => this.emitChainEvent(event),
      },
      chain,
      options,
    );
  }

  /**
   * The tools that match an intent, best first (TOOLS.md §5): full-text (prefix and fuzzy, name and
   * keywords over description), fused with the embedder's ranking when the registry has one.
   */
  search(intent: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    return this.searchIndex().search(intent, options);
  }

  /**
   * The keyword half of `search`, synchronously (the embedder is not asked): every matching tool
   * unless `options.limit` says otherwise, best first.
   */
  searchKeywords(intent: string, options: SearchOptions = {}): SearchResult[] {
    return this.searchIndex().searchKeywords(intent, options);
  }

  private searchIndex(): ToolIndex {
    return (this.index ??= new ToolIndex(() => this.list(), this.embedder));
  }

  /**
   * Listens for tools being registered or unregistered, and for chains (executeChain) starting and
   * ending; returns a function that stops listening.
   */
  on(type: 'tool:chain:started' | 'tool:chain:completed' | 'tool:chain:failed', listener: (event: ChainEvent) => void): () => void;
  on(type: RegistryEventType, listener: RegistryListener): () => void;
  on(type: RegistryEventType | ChainEvent['type'], listener: RegistryListener | ((event: ChainEvent) => void)): () => void {
    if (type === 'tool:chain:started' || type === 'tool:chain:completed' || type === 'tool:chain:failed') {
      if (typeof listener !== 'function') throw new TypeError('registry.on(type, listener): listener must be a function');
      let set = this.chainListeners.get(type);
      if (set === undefined) this.chainListeners.set(type, (set = new Set()));
      set.add(listener as (event: ChainEvent) => void);
      return () => void set.delete(listener as (event: ChainEvent) => void);
    }
    if (type !== 'tool:registered' && type !== 'tool:unregistered') {
      throw new TypeError(`registry.on: unknown event "${String(type)}" (use tool:registered, tool:unregistered, tool:chain:started, tool:chain:completed or tool:chain:failed)`);
    }
    if (typeof listener !== 'function') throw new TypeError('registry.on(type, listener): listener must be a function');
    let set = this.listeners.get(type);
    if (set === undefined) this.listeners.set(type, (set = new Set()));
    set.add(listener as RegistryListener);
    return () => void set.delete(listener as RegistryListener);
  }

  private emitChainEvent(event: NuwaEvent): void {
    const set = this.chainListeners.get(event.type as ChainEvent['type']);
    for (const listener of [...(set ?? [])]) {
      try {
        listener(event as ChainEvent);
      } catch (error) {
        this.executeDefaults.logger?.warn?.(`a registry ${event.type} listener threw: ${describeThrown(error)}`);
      }
    }
  }

  private emit(type: RegistryEventType, tool: RegisteredTool): void {
    const set = this.listeners.get(type);
    if (set === undefined || set.size === 0) return;
    const event: RegistryEvent = { type, toolName: tool.name, source: tool.source, timestamp: Date.now(), tool, toolId: tool.id ?? tool.name, payload: describeTool(tool) };
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        // The tool is registered either way; a broken listener is the host's to see (through the
        // registry's logger), not a reason to fail.
        this.executeDefaults.logger?.warn?.(`a registry ${type} listener threw: ${describeThrown(error)}`);
      }
    }
  }

  // --- tools outside the process (TOOLS.md §9) ------------------------------------------------
  // The providers are loaded on first use (tools/outside.ts): a host that never spawns a process
  // does not load them (nor the MCP SDK), and the registry itself knows nothing of processes.

  /** Registers the executable tools of a directory; reports each file that failed, without stopping. */
  async loadExecutables(dir: string, options?: ExecutableOptions): Promise<ExecutablesLoaded> {
    const { loadExecutables } = await outsideProviders<ToolRegistry>('registry.loadExecutables').executables();
    return loadExecutables(this, dir, options);
  }

  /**
   * Loads a NeuroScript plugin (TOOLS.md §11): an ES module exporting `register(registrar)`, whose
   * `registrar.registerTool(tool)` registers here. A path is relative to the working directory;
   * resolves to the names of the tools it registered.
   */
  async loadPlugin(path: string): Promise<string[]> {
    const { loadPlugin } = await outsideProviders<ToolRegistry>('registry.loadPlugin').modules();
    return loadPlugin(this, path);
  }

  /** Starts an MCP server (stdio) and registers its tools as `<server>.<tool>`; `close()` stops it. */
  async connectMcp(options: McpConnectOptions): Promise<McpConnection> {
    const { connectMcp } = await outsideProviders<ToolRegistry>('registry.connectMcp').mcp();
    return connectMcp(this, options);
  }

  /** A new session with its own state, for running scripts side by side on one registry. */
  createSession(id?: string): Session {
    return new Session(id);
  }

  /** A context outside any script, bound to the default session (for tests and host code). */
  createToolContext(toolName = 'host'): ToolContext {
    return createDetachedContext(this, this.defaultSession, toolName);
  }

  // --- the default session's state ------------------------------------------------------------
  setState(key: string, value: JsonValue, metadata?: StateMetadata): void {
    this.defaultSession.setState(key, value, metadata);
  }
  getStateValue(key: string): JsonValue | undefined {
    return this.defaultSession.getStateValue(key);
  }
  hasState(key: string): boolean {
    return this.defaultSession.hasState(key);
  }
  getAllState(): Map<string, JsonValue> {
    return this.defaultSession.getAllState();
  }
  clearState(): void {
    this.defaultSession.clearState();
  }
  getStateMetadata(key: string): StateMetadata | undefined {
    return this.defaultSession.getStateMetadata(key);
  }
  getAllStateMetadata(): Map<string, StateMetadata> {
    return this.defaultSession.getAllStateMetadata();
  }
  registerStateMetadata(key: string, metadata: StateMetadata): void {
    this.defaultSession.registerStateMetadata(key, metadata);
  }
  formatStateForPrompt(): string {
    return this.defaultSession.formatStateForPrompt();
  }
}

function toSpec(first: unknown, second?: unknown, third?: unknown): ToolSpec {
  if (typeof first === 'string') {
    if (typeof second === 'function') return fromPlaited(first, second as PlaitedHandler, third as PlaitedSchema);
    const schema = second as NuwaSchema | undefined;
    if (schema === null || typeof schema !== 'object') throw new TypeError(`register("${first}", schema, fn): the schema is missing`);
    if (schema.name !== undefined && schema.name !== first) throw new TypeError(`register("${first}", ...): the schema is named "${schema.name}"`);
    return { ...schema, name: first, execute: (third as ToolFunction | undefined) ?? (schema.execute as ToolFunction), form: 'nuwa' } as ToolSpec;
  }
  if (isDefinedTool(first)) return fromDefinedTool(first);
  if (first === null || typeof first !== 'object') throw new TypeError('register: a tool definition must be an object');
  return { ...(first as ToolDefinition), form: 'nuwa' };
}

/** A registered tool as plain JSON: what an event or a listing says of it. */
function describeTool(tool: RegisteredTool): JsonObject {
  const out: JsonObject = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parametersSchema as unknown as JsonObject,
    category: tool.category,
    confirm: tool.confirm,
    source: tool.source,
  };
  if (tool.id !== undefined) out.id = tool.id;
  if (tool.title !== undefined) out.title = tool.title;
  if (tool.version !== undefined) out.version = tool.version;
  return out;
}
