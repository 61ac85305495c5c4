// Helpers of the built-ins' unit tests (test/unit/runtime/builtins*.test.ts): a built-in called
// directly on test shorthand (JS arrays become lists, Maps objects) with a fake host, and the
// FunctionArgumentError a call must raise.
import { expect } from 'vitest';
import { NuwaError, type Position } from '../../src/errors.js';
import { BUILTINS, type BuiltinHost } from '../../src/runtime/builtins.js';
import { DEFAULT_VALUE_LIMITS, listOf, objectOf, toJson, type Value, type ValueLimits } from '../../src/values/values.js';

export const at: Position = { line: 3, column: 7 };
export const o = (entries: Record<string, unknown> | Array<[string, unknown]>): Map<string, unknown> => new Map(Array.isArray(entries) ? entries : Object.entries(entries));

/** Test shorthand: JS arrays become lists and Maps become objects, recursively. */
export function value(x: unknown): Value {
  if (Array.isArray(x)) return listOf(x.map(value));
  if (x instanceof Map) return objectOf([...x].map(([k, v]) => [k as string, value(v)] as const));
  return x as Value;
}

export function host(limits: ValueLimits = DEFAULT_VALUE_LIMITS): BuiltinHost & { lines: Array<[string, Position]> } {
  const lines: Array<[string, Position]> = [];
  return { lines, print: (text, where) => lines.push([text, where]), valueLimits: limits, now: () => Date.now() };
}

/** Calls a built-in on test shorthand arguments; lists and objects come back as plain JSON. */
export function call(name: string, ...args: unknown[]): unknown {
  const builtin = BUILTINS.get(name);
  if (!builtin) throw new Error(`no built-in ${name}`);
  return toJson(builtin.call(args.map(value), host(), at));
}

export function argumentError(name: string, args: unknown[], message: RegExp): NuwaError {
  let caught: unknown;
  try {
    call(name, ...args);
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof NuwaError)) throw new Error(`expected ${name} to raise a NuwaError, got ${String(caught)}`);
  expect(caught.kind).toBe('FunctionArgumentError');
  expect(caught.message).toMatch(message);
  expect(caught.message).toMatch(new RegExp(`\\(usage: ${BUILTINS.get(name)!.usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
  expect([caught.line, caught.column]).toEqual([3, 7]);
  return caught;
}

