// Helpers for the standard tools' unit tests: a registry with the standard tools and an interpreter
// on it, and `call`, which makes one call the way a script does (CALL with the arguments as
// variables), so that a failure is the NuwaError a script would get (kind, message, code).
import { Interpreter } from '../../../src/api/interpreter.js';
import type { InterpreterOptions } from '../../../src/api/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { registerStdTools, type StdToolsOptions } from '../../../src/std/index.js';
import type { JsonValue } from '../../../src/values/json.js';
import { failure } from '../../support/harness.js';
import type { NuwaError } from '../../../src/errors.js';

export interface StdHost {
  registry: ToolRegistry;
  interpreter: Interpreter;
  /** The tool's result, or a rejection with the NuwaError the script would get. */
  call(tool: string, args?: Record<string, JsonValue>, run?: { signal?: AbortSignal }): Promise<JsonValue>;
  /** The NuwaError of a call that must fail. */
  fails(tool: string, args?: Record<string, JsonValue>, run?: { signal?: AbortSignal }): Promise<NuwaError>;
}

export function stdHost(options: StdToolsOptions, interpreterOptions: InterpreterOptions = {}): StdHost {
  const registry = new ToolRegistry();
  registerStdTools(registry, options);
  const interpreter = new Interpreter(registry, { print: () => {}, approve: () => true, ...interpreterOptions });
  const call = async (tool: string, args: Record<string, JsonValue> = {}, run: { signal?: AbortSignal } = {}) => {
    const keys = Object.keys(args);
    const source = `LET result = CALL ${tool} { ${keys.map((key, i) => `${key}: arg${i}`).join(', ')} }`;
    const variables = Object.fromEntries(keys.map((key, i) => [`arg${i}`, args[key]!]));
    const result = await interpreter.run(source, { variables, ...run });
    return result.variables.result as JsonValue;
  };
  return { registry, interpreter, call, fails: (tool, args, run) => failure(call(tool, args, run)) };
}
