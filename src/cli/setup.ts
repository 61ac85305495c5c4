// The options every tool-loading command shares (CLI.md): --tools, --state, --var and the limits.
// Each problem is a UsageError (exit status 2) naming the option and what to write instead.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { JsonValue } from '../values/json.js';
import { copyJson, NotJsonError, setJsonKey } from '../values/values.js';
import { describeThrown } from '../util/foreign.js';
import { loadToolModule, ToolLoadError } from '../providers/module.js';
import type { Limits } from '../runtime/limits.js';
import { ToolRegistry } from '../tools/registry.js';
import { UsageError, type CliIO } from './io.js';

export const SHARED_OPTIONS = {
  tools: { type: 'string', multiple: true },
  state: { type: 'string' },
  var: { type: 'string', multiple: true },
  yes: { type: 'boolean', short: 'y' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-tool-calls': { type: 'string' },
  trace: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export interface SharedValues {
  tools?: string[];
  state?: string;
  var?: string[];
  timeout?: string;
  'max-steps'?: string;
  'max-tool-calls'?: string;
}

export async function loadRegistry(values: SharedValues, io: CliIO): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  for (const specifier of values.tools ?? []) {
    try {
      await loadToolModule(registry, specifier, io.cwd);
    } catch (error) {
      if (error instanceof ToolLoadError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (values.state !== undefined) applyState(registry, values.state, io.cwd);
  return registry;
}

function applyState(registry: ToolRegistry, file: string, cwd: string): void {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`--state ${file}: ${why}`);
  }
  if (state === null || typeof state !== 'object' || Array.isArray(state)) throw new UsageError(`--state ${file}: the file must hold a JSON object of key → value`);
  for (const [key, value] of Object.entries(state)) registry.setState(key, usableJson(`--state ${file}: "${key}"`, value));
}

/** A value the run would refuse (nested too deep, say) is a mistake in the option: a usage error. */
function usableJson(option: string, value: unknown): JsonValue {
  try {
    return copyJson(value);
  } catch (error) {
    throw new UsageError(`${option}: the value ${error instanceof NotJsonError ? error.problem : describeThrown(error)}`);
  }
}

/** `--var name=<json>`; text that is not JSON is taken as a string, so `--var city=Paris` works. */
export function parseVariables(specs: string[] | undefined): Record<string, JsonValue> {
  const variables: Record<string, JsonValue> = {};
  for (const spec of specs ?? []) {
    const equals = spec.indexOf('=');
    const name = equals < 0 ? spec : spec.slice(0, equals);
    if (equals < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`--var ${spec}: write --var name=<json>, e.g. --var limit=10 or --var 'tags=["a","b"]'`);
    }
    const text = spec.slice(equals + 1);
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch {
      value = text;
    }
    setJsonKey(variables, name, usableJson(`--var ${name}`, value));
  }
  return variables;
}

export function parseLimits(values: SharedValues): Limits {
  const limits: Limits = {};
  const read = (option: keyof SharedValues, key: keyof Limits) => {
    const text = values[option] as string | undefined;
    if (text === undefined) return;
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) throw new UsageError(`--${option} ${text}: expected a whole number`);
    limits[key] = n;
  };
  read('timeout', 'timeoutMs');
  read('max-steps', 'maxSteps');
  read('max-tool-calls', 'maxToolCalls');
  return limits;
}
