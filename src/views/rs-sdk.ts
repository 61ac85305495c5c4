// RS-SDK's tool helpers (TOOLS.md §11): a folder of executable tools (the protocol of TOOLS.md §9,
// which is RS-SDK's) seen the way RS-SDK's bot chat sees it. `discoverTools(dir)` resolves to the
// tools in function-calling form, and `createToolExecutor(dir)` returns a function that runs one by
// name. Both load the folder with `registry.loadExecutables`, so a call has the registry's argument
// checks, time limit (30 s by default), process handling and events.
//
// The executor asks no approval unless it is given an `approve` hook: the host naming a tool to run
// is the decision, as in RS-SDK. It resolves to RS-SDK's result, `{ success: true, data }` or
// `{ success: false, error }`, whatever happens: the tool's own error text, unchanged, or Nuwa's
// message when the failure is not the tool's (an unknown tool, bad arguments, a timeout, a crash).
import { toOpenAITools, type OpenAITool } from '../tools/function-calling.js';
import { ToolRegistry } from '../tools/registry.js';
import { runCall } from '../tools/execute.js';
import type { ApprovalHook } from '../tools/types.js';
import type { ExecutableOptions, LoadFailure } from '../tools/outside.js';
import { describeThrown } from '../util/foreign.js';
import type { JsonValue } from '../values/json.js';
import { ownFailure } from './failure.js';

/** A tool as RS-SDK hands it to a model: OpenAI's (and Ollama's) function-calling form. */
export type ToolDefinition = OpenAITool;

/** What the executor resolves to. */
export interface ExecutorResult {
  success: boolean;
  data?: JsonValue;
  error?: string;
}

export type ToolExecutor = (name: string, args?: Record<string, unknown>) => Promise<ExecutorResult>;

export interface DiscoverOptions extends Omit<ExecutableOptions, 'signal'> {
  /** Told of each file that looked like a tool but could not be loaded (the others load). */
  onFailure?: (failure: LoadFailure) => void;
}

export interface ExecutorOptions extends DiscoverOptions {
  /** Asked before each call of a `write` or `destructive` tool; without it nothing asks. */
  approve?: ApprovalHook;
}

/** The executable tools of `dir` in function-calling form. Rejects when `dir` cannot be read. */
export async function discoverTools(dir: string, options: DiscoverOptions = {}): Promise<ToolDefinition[]> {
  const registry = await load(dir, options);
  return toOpenAITools(registry);
}

/**
 * A function that runs the tools of `dir` by name. The folder is read on the first call (and read
 * again after a call found it unreadable), so the executor can be made before the tools exist.
 */
export function createToolExecutor(dir: string, options: ExecutorOptions = {}): ToolExecutor {
  if (options === null || typeof options !== 'object') throw new TypeError('createToolExecutor(dir, options): options must be an object');
  const { approve } = options;
  if (approve !== undefined && typeof approve !== 'function') throw new TypeError('createToolExecutor: approve must be a function ({ toolName, confirm, category, args }) => boolean');
  let loading: Promise<ToolRegistry> | undefined;
  return async (name, args = {}) => {
    let registry: ToolRegistry;
    try {
      registry = await (loading ??= load(dir, options));
    } catch (error) {
      loading = undefined;
      return { success: false, error: describeThrown(error) };
    }
    const outcome = await runCall(registry, registry.executeDefaults, { name, input: args }, approve === undefined ? { needsApproval: [] } : { approve });
    if (outcome.ok) return { success: true, data: outcome.data };
    const failure = ownFailure(outcome.error);
    // The tool's own `error` as it printed it; anything else (its crash, a timeout) as Nuwa words it.
    return { success: false, error: failure.from === 'envelope' ? (failure.reported ?? failure.message) : outcome.error.message };
  };
}

async function load(dir: string, options: DiscoverOptions): Promise<ToolRegistry> {
  if (typeof dir !== 'string' || dir === '') throw new TypeError('the tools directory must be a path');
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { onFailure, ...executableOptions } = options as ExecutorOptions;
  delete (executableOptions as ExecutorOptions).approve;
  if (onFailure !== undefined && typeof onFailure !== 'function') throw new TypeError('onFailure must be a function (failure) => void');
  const registry = new ToolRegistry();
  const { failures } = await registry.loadExecutables(dir, executableOptions);
  for (const failure of failures) onFailure?.(failure);
  return registry;
}
