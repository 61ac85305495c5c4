// Chains of tool calls (sdkwork's `executeChain`, TOOLS.md §11, DURABLE.md §4): nodes that name a tool
// and its input, run `sequential`ly (each after the one before, which it can read as `{{prev...}}`),
// in `parallel` (all at once, up to maxConcurrentCalls), or as a `dag` (a node starts when the nodes it
// depends on have completed; a node whose dependency failed or was skipped is `skipped`). One run
// holds the chain: every node goes through the one call path (invokeTool) with the same checks,
// approval policy, limits and events as any call, takes one of the run's call slots while its tool
// runs, and a node that writes waits for the writes of the nodes before it (writes never overlap).
// A chain never throws: it resolves to every node's final state, result and error.
import { isNuwaError, NuwaError, type ErrorKind } from '../errors.js';
import type { NuwaEvent } from '../events.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { copyJson, fromJson, toDisplayString } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import { Options } from '../util/options.js';
import type { RegisteredTool } from './build.js';
import type { ToolCatalog } from './catalog.js';
import { invokeTool } from './invoke.js';
import type { Run } from './run.js';
import type { ToolResult } from './execute.js';

export type ChainStrategy = 'sequential' | 'parallel' | 'dag';
export type NodeState = 'pending' | 'ready' | 'executing' | 'completed' | 'failed' | 'skipped';

/** A node as sdkwork's `ToolCallNode`: what it calls, and (after the chain) how it went. */
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
  id?: string;
  nodes: Array<Partial<ToolCallNode> & { toolId: string }>;
  strategy?: ChainStrategy;
}

export interface ChainResult {
  /** Every node completed. */
  success: boolean;
  nodes: ToolCallNode[];
  /** The result of each node that ran, by its id. */
  results: Record<string, ToolResult>;
  /** Why the chain could not run at all (its nodes are then all skipped). */
  error?: string;
}

/** What a chain needs of the registry and the execute machinery (execute.ts makes the run). */
export interface ChainHost {
  registry: ToolCatalog;
  makeRun(): Run;
  /** The registry's own chain event listeners (registry.on('tool:chain:...')). */
  emitRegistryEvent(event: NuwaEvent): void;
}

const STRATEGIES: readonly ChainStrategy[] = ['sequential', 'parallel', 'dag'];

/**
 * Runs a chain. `options` are the host's (the strategy, and the policy of the calls, which
 * host.makeRun reads); a chain or an option that cannot be used is a failed chain, every node skipped.
 */
export async function executeChain(host: ChainHost, input: unknown, options: unknown): Promise<ChainResult> {
  let chain: { id: string; nodes: ToolCallNode[]; strategy: ChainStrategy };
  let run: Run;
  try {
    chain = readChain(input, Options.of('executeChain(chain, options)', options).oneOf('strategy', STRATEGIES));
    run = host.makeRun();
  } catch (error) {
    const message = describeThrown(error);
    return { success: false, nodes: nodesAsGiven(input, message), results: {}, error: message };
  }
  const emit = (type: 'tool:chain:started' | 'tool:chain:completed' | 'tool:chain:failed', extra: object = {}) => {
    const event = { type, executionId: run.runId, timestamp: Date.now(), chainId: chain.id, toolId: chain.id, strategy: chain.strategy, payload: nodesView(chain.nodes), ...extra } as NuwaEvent;
    run.emit?.(event);
    host.emitRegistryEvent(event);
  };
  emit('tool:chain:started');
  try {
    await new ChainRun(host.registry, run, chain.id, chain.nodes, chain.strategy).done;
  } finally {
    run.finish();
  }
  const results: Record<string, ToolResult> = {};
  for (const node of chain.nodes) if (node.result !== undefined) results[node.id] = node.result;
  const success = chain.nodes.every((node) => node.state === 'completed');
  emit(success ? 'tool:chain:completed' : 'tool:chain:failed');
  return { success, nodes: chain.nodes, results };
}

/** The nodes of a chain that cannot run, each skipped with the reason, as far as they can be read. */
function nodesAsGiven(input: unknown, why: string): ToolCallNode[] {
  let list: unknown[] = [];
  try {
    const nodes = Array.isArray(input) ? input : (input as { nodes?: unknown } | null)?.nodes;
    if (Array.isArray(nodes)) list = nodes;
  } catch {
    // unreadable: no nodes to show
  }
  return list.map((raw, index) => {
    const node = (raw ?? {}) as Partial<ToolCallNode>;
    const id = typeof node.id === 'string' ? node.id : String(index);
    return { id, toolId: String(node.toolId), input: null, dependencies: [], state: 'skipped' as const, error: `skipped: ${why}` };
  });
}

function nodesView(nodes: ToolCallNode[]): JsonValue {
  return nodes.map(({ id, toolId, state, error }) => ({ id, toolId, state, ...(error !== undefined && { error }) }));
}

/** A chain as given (a list of nodes, or a ToolChain), read once and checked. */
function readChain(input: unknown, strategyOption: unknown): { id: string; nodes: ToolCallNode[]; strategy: ChainStrategy } {
  const given = (Array.isArray(input) ? { nodes: input } : input) as Partial<ToolChain> | null;
  if (given === null || typeof given !== 'object' || !Array.isArray(given.nodes)) throw new TypeError('executeChain: give a list of nodes, or a chain { id, nodes, strategy }');
  const strategy = (strategyOption ?? given.strategy ?? 'sequential') as ChainStrategy;
  if (!STRATEGIES.includes(strategy)) throw new TypeError(`executeChain: strategy must be sequential, parallel or dag, got ${JSON.stringify(strategy)}`);
  const nodes = given.nodes.map((raw, index): ToolCallNode => {
    const node = raw as Partial<ToolCallNode> | null;
    if (node === null || typeof node !== 'object' || typeof node.toolId !== 'string') throw new TypeError(`executeChain: node ${index} needs a toolId`);
    const id = node.id === undefined ? String(index) : node.id;
    if (typeof id !== 'string' || id === '') throw new TypeError(`executeChain: node ${index}'s id must be a non-empty string`);
    const dependencies = node.dependencies ?? [];
    if (!Array.isArray(dependencies) || dependencies.some((dependency) => typeof dependency !== 'string')) throw new TypeError(`executeChain: node ${id}'s dependencies must be a list of node ids`);
    let nodeInput: unknown;
    try {
      nodeInput = node.input === undefined ? {} : copyJson(node.input);
    } catch (error) {
      throw new TypeError(`executeChain: node ${id}'s input is not JSON: ${describeThrown(error)}`);
    }
    return { id, toolId: node.toolId, input: nodeInput, dependencies: [...dependencies], state: 'pending' };
  });
  const ids = new Set<string>();
  for (const node of nodes) {
    if (ids.has(node.id)) throw new TypeError(`executeChain: two nodes have the id ${JSON.stringify(node.id)}`);
    ids.add(node.id);
  }
  for (const node of nodes) {
    const unknown = node.dependencies.find((dependency) => !ids.has(dependency));
    if (unknown !== undefined) throw new TypeError(`executeChain: node ${node.id} depends on ${JSON.stringify(unknown)}, which is no node of the chain`);
  }
  if (strategy === 'dag') checkAcyclic(nodes);
  const chain = given as Partial<ToolChain>;
  const id = typeof chain.id === 'string' && chain.id !== '' ? chain.id : 'chain';
  return { id, nodes, strategy };
}

function checkAcyclic(nodes: ToolCallNode[]): void {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: ToolCallNode, path: string[]) => {
    if (state.get(node.id) === 'done') return;
    if (state.get(node.id) === 'visiting') throw new TypeError(`executeChain: the dependencies go round in a circle: ${[...path.slice(path.indexOf(node.id)), node.id].join(' → ')}`);
    state.set(node.id, 'visiting');
    for (const dependency of node.dependencies) visit(byId.get(dependency)!, [...path, node.id]);
    state.set(node.id, 'done');
  };
  for (const node of nodes) visit(node, []);
}

/** One chain being run: which node starts when, by the strategy. */
class ChainRun {
  readonly done: Promise<void>;
  private finish!: () => void;
  private readonly byId: Map<string, ToolCallNode>;
  private running = 0;
  /** Writes go one at a time, in node order: the write that may go next. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: ToolCatalog,
    private readonly run: Run,
    private readonly chainId: string,
    private readonly nodes: ToolCallNode[],
    private readonly strategy: ChainStrategy,
  ) {
    this.byId = new Map(nodes.map((node) => [node.id, node]));
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.next();
  }

  /** Starts every node that may start now; finishes when none is running and none can start. */
  private next(): void {
    for (const node of this.nodes) {
      if (node.state !== 'pending') continue;
      const why = this.blockedBy(node);
      if (why === 'wait') continue;
      if (why !== undefined) {
        node.state = 'skipped';
        node.error = why;
        continue;
      }
      node.state = 'ready';
      this.start(node);
    }
    if (this.running === 0) {
      // Nothing runs and nothing could start: what is left cannot run (a skipped node's dependants).
      for (const node of this.nodes) {
        if (node.state === 'pending') {
          node.state = 'skipped';
          node.error ??= 'skipped: a node it depends on did not complete';
        }
      }
      this.finish();
    }
  }

  /** undefined: it may start; 'wait': not yet; else why it is skipped. */
  private blockedBy(node: ToolCallNode): string | 'wait' | undefined {
    const index = this.nodes.indexOf(node);
    const after = this.strategy === 'sequential' ? (index === 0 ? [] : [this.nodes[index - 1]!]) : this.strategy === 'dag' ? node.dependencies.map((id) => this.byId.get(id)!) : [];
    for (const before of after) {
      if (before.state === 'failed' || before.state === 'skipped') return `skipped: ${before.id} ${before.state === 'failed' ? 'failed' : 'was skipped'}`;
      if (before.state !== 'completed') return 'wait';
    }
    return undefined;
  }

  private start(node: ToolCallNode): void {
    this.running++;
    node.state = 'executing';
    this.call(node).then(
      (result) => {
        node.result = result;
        if (result.success) node.state = 'completed';
        else {
          node.state = 'failed';
          node.error = result.error;
        }
      },
      (error: unknown) => {
        node.state = 'failed';
        node.error = describeThrown(error);
      },
    ).finally(() => {
      this.running--;
      this.next();
    });
  }

  /** A node's call: its templates filled in, through the one call path, as a ToolResult. */
  private async call(node: ToolCallNode): Promise<ToolResult> {
    const run = this.run;
    const startTime = Date.now();
    const started = performance.now();
    const tool: RegisteredTool | undefined = this.registry.get(node.toolId);
    const metadata = () => ({ executionId: `${run.runId}:${node.id}`, toolName: tool?.name ?? node.toolId, startTime, endTime: Date.now(), duration: performance.now() - started });
    const failure = (kind: ErrorKind, message: string): ToolResult => ({ success: false, error: message, code: kind, metadata: metadata() });
    if (tool === undefined) return failure('ToolNotFoundError', `Unknown tool: ${node.toolId}`);
    let args: JsonValue;
    try {
      args = this.fill(node.input as JsonValue, node);
    } catch (error) {
      return failure('TypeError', describeThrown(error));
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return failure('ToolArgumentError', `invalid arguments for tool \`${tool.name}\`: the input must be an object`);
    const writes = tool.confirm === 'write' || tool.confirm === 'destructive';
    let wrote: () => void = () => {};
    if (writes) {
      const before = this.writes;
      this.writes = new Promise((resolve) => (wrote = resolve));
      await before;
    }
    try {
      const waiting = run.slots.take(run.signal);
      if (waiting !== undefined) await waiting;
      try {
        const data = (await invokeTool(run, tool.name, args, { callId: `${this.chainId}/${node.id}` }, 'json')) as JsonValue;
        return { success: true, data, metadata: metadata() };
      } finally {
        run.slots.give();
      }
    } catch (error) {
      if (isNuwaError(error)) return withCause(failure(error.kind, error.message), error);
      return failure('TypeError', describeThrown(error));
    } finally {
      wrote();
    }
  }

  /**
   * The node's input with its templates filled in: `{{prev.data.x}}` (the node before, in a
   * sequential chain) and `{{nodes.ID.data.x}}` (a node that completed). A template that is a whole
   * string is replaced by the value itself; inside a longer string, by its string form.
   */
  private fill(value: JsonValue, node: ToolCallNode): JsonValue {
    if (typeof value === 'string') {
      const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(value);
      if (whole) return this.resolve(whole[1]!, node);
      return value.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_all, path: string) => {
        const found = this.resolve(path, node);
        return typeof found === 'string' ? found : toDisplayString(fromJson(found));
      });
    }
    if (Array.isArray(value)) return value.map((item) => this.fill(item, node));
    if (value !== null && typeof value === 'object') {
      const out: JsonObject = {};
      for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: this.fill(value[key]!, node), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  }

  private resolve(path: string, node: ToolCallNode): JsonValue {
    const parts = path.split('.');
    let source: ToolCallNode | undefined;
    let rest: string[];
    if (parts[0] === 'prev') {
      const index = this.nodes.indexOf(node);
      if (this.strategy !== 'sequential' || index === 0) throw new NuwaError('TypeError', `{{${path}}}: prev is the node before, in a sequential chain`);
      source = this.nodes[index - 1];
      rest = parts.slice(1);
    } else if (parts[0] === 'nodes' && parts.length >= 2) {
      source = this.byId.get(parts[1]!);
      if (source === undefined) throw new NuwaError('TypeError', `{{${path}}}: there is no node ${parts[1]}`);
      rest = parts.slice(2);
    } else {
      throw new NuwaError('TypeError', `{{${path}}}: a template reads {{prev.data...}} or {{nodes.<id>.data...}}`);
    }
    if (source!.state !== 'completed' || source!.result === undefined) throw new NuwaError('TypeError', `{{${path}}}: node ${source!.id} has not completed (in a parallel chain no node waits for another: use dag with dependencies)`);
    let at: JsonValue = source!.result as unknown as JsonValue;
    for (const key of rest) {
      if (at === null || typeof at !== 'object' || Array.isArray(at) ? !(Array.isArray(at) && /^\d+$/.test(key)) : !Object.hasOwn(at, key)) {
        throw new NuwaError('TypeError', `{{${path}}}: node ${source!.id}'s result has no ${key}`);
      }
      at = Array.isArray(at) ? at[Number(key)]! : (at as JsonObject)[key]!;
    }
    return at;
  }
}

/**
 * The NuwaError a failed node ended with, kept on its result (not enumerable: the result is still
 * Nuwa's ToolResult) for the views that show a tool's own error code and details (sdkwork's).
 */
function withCause(result: ToolResult, error: NuwaError): ToolResult {
  Object.defineProperty(result, 'cause', { value: error, enumerable: false });
  return result;
}

/** The NuwaError behind a failed node's result, when the node ran (see withCause). */
export function causeOf(result: ToolResult): NuwaError | undefined {
  const cause = (result as { cause?: unknown }).cause;
  return isNuwaError(cause) ? cause : undefined;
}
