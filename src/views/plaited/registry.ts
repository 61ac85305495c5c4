// Plaited's registry (TOOLS.md §11): `createToolRegistry()` → `register(name, handler, schema)`,
// `execute(functionCall)`, `schemas`. It is a ToolRegistry — a subclass that answers `execute` in
// Plaited's shape — so that everything that takes a registry takes it (an Interpreter, check, plan,
// buildPrompt, toOpenAITools), and code written for the original NuwaScript, where
// `createToolRegistry()` made the registry, keeps working. Only `execute` differs from Nuwa's:
//
// - the result is `{ success, data? }` or `{ success: false, error }`, nothing more;
// - a handler's own failure envelope comes back as the handler wrote it, and a handler that throws
//   gives its own message ("Something went wrong"), not the script's "tool `x` failed: ...";
// - the arguments' JSON is parsed before the tool is looked up, as Plaited's execute does.
//
// The call itself goes the one way every call goes (tools/execute.ts runCall → invokeTool): the
// same argument checks, approval policy, limits, events and state as a script's CALL.
import { runCall } from '../../tools/execute.js';
import type { ExecuteOptions, FunctionCall as NuwaFunctionCall } from '../../tools/execute.js';
import { ToolRegistry, type ToolRegistryOptions } from '../../tools/registry.js';
import type { JsonValue } from '../../values/json.js';
import { ownFailure } from '../failure.js';
import { exportedName } from '../../tools/names.js';
import type { FunctionCall, ToolSchema } from './types.js';

/** What the Plaited registry's execute resolves to: `{ success, data? }` or `{ success: false, error }`. */
export interface PlaitedResult {
  success: boolean;
  data?: JsonValue;
  error?: string;
}

/** The registry of Plaited's API, and a full Nuwa ToolRegistry (made by `createToolRegistry()`). */
export class PlaitedToolRegistry extends ToolRegistry {
  /**
   * Every tool's function-calling schema, its parameters as they were registered (Nuwa's own
   * `schemas` shows them as checked, closed to unknown arguments). Copies: a host may change them.
   */
  override get schemas(): ToolSchema[] {
    return this.list().map((tool) => {
      const given = Array.isArray(tool.parameters) ? tool.parametersSchema : tool.parameters;
      const parameters = structuredClone(given) as ToolSchema['parameters'];
      parameters.properties ??= {};
      return { name: exportedName(tool.name), description: tool.description, parameters };
    });
  }

  /**
   * Runs a model's function call (`{ name, arguments }`, arguments as JSON text or an object); also
   * `execute(name, args)`. Resolves to Plaited's result whatever happens; never rejects.
   */
  override execute(call: FunctionCall | NuwaFunctionCall, options?: ExecuteOptions): Promise<PlaitedResult>;
  override execute(name: string, input?: unknown, options?: ExecuteOptions): Promise<PlaitedResult>;
  override async execute(callOrName: FunctionCall | NuwaFunctionCall | string, second?: unknown, third?: ExecuteOptions): Promise<PlaitedResult> {
    let name: unknown;
    let input: unknown;
    let options: ExecuteOptions | undefined;
    if (typeof callOrName === 'string') {
      [name, input, options] = [callOrName, second, third];
    } else {
      const call = callOrName as Partial<NuwaFunctionCall> | null | undefined;
      [name, input, options] = [call?.name, call?.arguments, second as ExecuteOptions | undefined];
    }
    if (typeof input === 'string' && input.trim() !== '') {
      try {
        input = JSON.parse(input) as unknown;
      } catch (error) {
        return { success: false, error: (error as Error).message }; // the parser's own message, as in Plaited
      }
    }
    const outcome = await runCall(this, this.executeDefaults, { name, input }, options);
    if (outcome.ok) return { success: true, data: outcome.data };
    const failure = ownFailure(outcome.error);
    const result: PlaitedResult = { success: false, error: failure.reported ?? failure.message };
    if (failure.data !== undefined) result.data = failure.data;
    return result;
  }
}

/** Plaited's `createToolRegistry()`: an empty registry (options as for `new ToolRegistry(options)`). */
export function createToolRegistry(options?: ToolRegistryOptions): PlaitedToolRegistry {
  return new PlaitedToolRegistry(options);
}
