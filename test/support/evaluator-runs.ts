// Helpers of the evaluator's unit tests (test/unit/runtime/evaluator*.test.ts): a registry of test
// tools, a ScriptRun built the way Interpreter.run builds one, and a script run through
// compileProgram with its output, variables and steps, or the NuwaError it raised.
import { expect } from 'vitest';
import { isNuwaError, type NuwaError } from '../../src/errors.js';
import { compileProgram } from '../../src/runtime/evaluator.js';
import { ScriptRun } from '../../src/runtime/script-run.js';
import { Scope } from '../../src/runtime/scope.js';
import { parse } from '../../src/syntax/parse.js';
import { resolveLimits, type Limits } from '../../src/tools/limits.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Sandbox } from '../../src/tools/sandbox.js';
import type { ToolFunction } from '../../src/tools/types.js';
import { toJson } from '../../src/values/values.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export function registryWith(tools: Record<string, ToolFunction> = {}): ToolRegistry {
  const registry = new ToolRegistry();
  for (const [name, execute] of Object.entries(tools)) {
    registry.register({ name, description: `the ${name} tool`, parameters: { type: 'object', additionalProperties: true }, returns: 'any', execute });
  }
  return registry;
}

/** A Run built the way Interpreter.run builds one. */
export function makeRun(output: string[], registry = registryWith(), limits?: Limits): ScriptRun {
  return new ScriptRun({
    registry,
    session: registry.defaultSession,
    limits: resolveLimits(limits),
    print: (line) => output.push(line),
    approve: undefined,
    needsApproval: new Set(),
    onEvent: undefined,
    logger: quiet,
    sandbox: new Sandbox(),
    fileName: undefined,
    signal: undefined,
  });
}

export interface Outcome {
  output: string[];
  variables: Record<string, unknown>;
  steps: number;
}

/** Runs a script through compileProgram; rejects with the NuwaError the script raised. */
export async function exec(source: string, tools: Record<string, ToolFunction> = {}, limits?: Limits): Promise<Outcome> {
  const output: string[] = [];
  const run = makeRun(output, registryWith(tools), limits);
  const top = new Scope(null);
  try {
    const pending = compileProgram(parse(source))(run, top);
    if (pending !== undefined) await pending;
  } finally {
    run.finish();
  }
  return { output, variables: Object.fromEntries(top.entries().map(([k, v]) => [k, toJson(v)])), steps: run.steps };
}

export async function failure(source: string, tools: Record<string, ToolFunction> = {}, limits?: Limits): Promise<NuwaError> {
  try {
    await exec(source, tools, limits);
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

export async function expectFailure(source: string, kind: string, message: RegExp, line: number, column: number, tools: Record<string, ToolFunction> = {}): Promise<NuwaError> {
  const error = await failure(source, tools);
  expect(error.kind).toBe(kind);
  expect(error.message).toMatch(message);
  expect([error.line, error.column]).toEqual([line, column]);
  return error;
}

