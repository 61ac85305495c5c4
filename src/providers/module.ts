// Tools from an ES module (TOOLS.md §9): the module's default export is either a list of tool
// definitions (the one-object form) or a function that receives the registry and registers tools.
// A NeuroScript plugin (TOOLS.md §11, `registry.loadPlugin`) is an ES module too, exporting
// `register(registrar)`, and loads the same way.
//
// A tools module is someone else's code: whatever it throws (an Error, a string, an object without
// a prototype), a load failure is a ToolLoadError that says which file and, where the error tells,
// which line and column; and a default function that never finishes is reported, not waited on.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';
import { describeThrown, thenOf } from '../util/foreign.js';
import { registrarFor } from '../views/neuroscript.js';

import { ToolLoadError } from './load-error.js';

export { ToolLoadError };

export type ToolModuleExport = ToolDefinition[] | ((registry: ToolRegistry) => void | Promise<void>);

/** Imports `specifier` (a path, relative to `cwd`) and registers its tools; returns their names. */
export async function loadToolModule(registry: ToolRegistry, specifier: string, cwd = process.cwd()): Promise<string[]> {
  const { loaded, fail } = await importModule(specifier, cwd, `cannot load tools from ${specifier}`);
  const before = new Set(registry.names());
  const exported = loaded.default;
  try {
    if (Array.isArray(exported)) {
      for (const definition of exported) registry.register({ source: 'module', ...(definition as ToolDefinition) });
    } else if (typeof exported === 'function') {
      await registry.registerFrom('module', () => untilSettledOrStalled((exported as (registry: ToolRegistry) => unknown)(registry), 'its default function'));
    } else {
      throw new Error('its default export must be a list of tool definitions or a function (registry) => void');
    }
  } catch (error) {
    throw fail(error);
  }
  return registry.names().filter((name) => !before.has(name));
}

/**
 * Imports a NeuroScript plugin (`specifier`, a path relative to `cwd`) and calls its exported
 * `register(registrar)`; returns the names of the tools it registered.
 */
export async function loadPlugin(registry: ToolRegistry, specifier: string, cwd = process.cwd()): Promise<string[]> {
  if (typeof specifier !== 'string' || specifier === '') throw new TypeError('loadPlugin(path): the path must be a non-empty string');
  const what = `cannot load the plugin ${specifier}`;
  const { loaded, fail } = await importModule(specifier, cwd, what);
  const register = loaded.register;
  if (typeof register !== 'function') throw new ToolLoadError(`${what}: it exports no register(registrar) function`);
  const before = new Set(registry.names());
  try {
    await registry.registerFrom('module', () => untilSettledOrStalled(register(registrarFor(registry)), 'its register function'));
  } catch (error) {
    throw fail(error);
  }
  return registry.names().filter((name) => !before.has(name));
}

/** The module at `specifier`, imported; `fail` makes the ToolLoadError of anything that goes wrong with it. */
async function importModule(specifier: string, cwd: string, what: string): Promise<{ loaded: Record<string, unknown>; fail: (error: unknown) => ToolLoadError }> {
  const file = path.resolve(cwd, specifier);
  if (!existsSync(file)) throw new ToolLoadError(`${what}: no such file`);
  const fail = (error: unknown) => new ToolLoadError(`${what}: ${describeLoadError(error, file, specifier, cwd)}`, { cause: error });
  try {
    return { loaded: (await import(pathToFileURL(file).href)) as Record<string, unknown>, fail };
  } catch (error) {
    throw fail(error);
  }
}

/**
 * Waits for what the default function returned, read once through its `then`. When it can never
 * settle — the process has nothing left to wait for, which Node would end silently with status 13 —
 * that is the failure, with a message that says so.
 */
async function untilSettledOrStalled(answer: unknown, what: string): Promise<void> {
  const then = thenOf(answer);
  if (then === undefined) return;
  let onStall: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onStall = () => reject(new Error(`${what} returned a promise that never settles (nothing was left for it to wait for)`));
      process.once('beforeExit', onStall);
      Reflect.apply(then, answer, [() => resolve(), reject]);
    });
  } finally {
    if (onStall) process.removeListener('beforeExit', onStall);
  }
}

/** `file:line:column: message` when the error tells where in the module (or a module it imports) it happened. */
function describeLoadError(error: unknown, file: string, specifier: string, cwd: string): string {
  const message = describeThrown(error);
  const where = stackPosition(readStack(error), file) ?? compilePosition(error, file);
  if (where === undefined) return message;
  const relative = path.relative(cwd, where.file);
  const shown = where.file === file ? specifier : relative.startsWith('..') ? where.file : relative;
  return `${shown}:${where.line}:${where.column}: ${kindOf(error)}${message}`;
}

interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** The module's own frame in a stack, else the first frame in any file outside this package. */
function stackPosition(stack: string | undefined, file: string): SourcePosition | undefined {
  if (stack === undefined) return undefined;
  // A link error ("does not provide an export named ...") starts with `file:///...:3`, the line, and a caret.
  const linkError = /^(file:\/\/\/[^\n]+):(\d+)\n([^\n]*)\n([ \t]*\^)/.exec(stack);
  if (linkError) return { file: fileURLToPath(linkError[1]!), line: Number(linkError[2]), column: linkError[4]!.length };
  const frames = [...stack.matchAll(/(file:\/\/\/[^\s)]+?):(\d+):(\d+)/g)].map((m) => ({ file: fileURLToPath(m[1]!), line: Number(m[2]), column: Number(m[3]) }));
  const ours = path.resolve(fileURLToPath(import.meta.url), '..', '..');
  return frames.find((frame) => frame.file === file) ?? frames.find((frame) => !frame.file.startsWith(ours + path.sep));
}

/**
 * Where a syntax error is. Node 20 does not put it in the error an import() rejects with, so the
 * module's text is checked again by Node's own parser (`node --check`), which prints the line and a caret.
 */
function compilePosition(error: unknown, file: string): SourcePosition | undefined {
  if (kindOf(error) !== 'SyntaxError: ') return undefined;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const inputType = file.endsWith('.cjs') ? 'commonjs' : 'module';
  // Required here, not imported: this runs only for a module that failed to load, and importing
  // node:child_process loads some fifty of Node's own modules, a tenth of `nuwa run`'s start-up.
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const checked = spawnSync(process.execPath, ['--check', `--input-type=${inputType}`], { input: source, encoding: 'utf8', timeout: 10_000 });
  const found = /^\[stdin\]:(\d+)\n([^\n]*)\n([ \t]*)\^/.exec(checked.stderr ?? '');
  if (!found) return undefined;
  return { file, line: Number(found[1]), column: found[3]!.length + 1 };
}

function readStack(error: unknown): string | undefined {
  try {
    const stack: unknown = (error as { stack?: unknown } | null)?.stack;
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}

/** `SyntaxError: `, `TypeError: `... for a built-in error class; nothing for anything else. */
function kindOf(error: unknown): string {
  try {
    const name: unknown = error instanceof Error ? error.name : undefined;
    return typeof name === 'string' && /^[A-Z][A-Za-z]*Error$/.test(name) && name !== 'Error' ? `${name}: ` : '';
  } catch {
    return '';
  }
}
