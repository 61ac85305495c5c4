// Small helpers shared by the unit tests that drive the interpreter with hand-made tools.
import { Interpreter } from '../../src/api/interpreter.js';
import type { InterpreterOptions } from '../../src/api/types.js';
import { isNuwaError, type NuwaError } from '../../src/errors.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolDefinition, ToolFunction } from '../../src/tools/types.js';

/** A tool that accepts any arguments and may return anything, unless `extra` says otherwise. */
export function tool(name: string, execute: ToolFunction, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: `the ${name} tool`, parameters: { type: 'object', additionalProperties: true }, returns: 'any', execute, ...extra };
}

/** A registry with `tools`, and an interpreter on it whose printed lines are collected. */
export function setup(tools: ToolDefinition[], options: InterpreterOptions = {}) {
  const registry = new ToolRegistry();
  for (const definition of tools) registry.register(definition);
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), ...options });
  return { registry, interpreter, printed };
}

/** The NuwaError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<NuwaError> {
  try {
    await promise;
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw new Error(`expected a NuwaError, got ${String(error)}`);
  }
  throw new Error('expected the run to fail');
}
