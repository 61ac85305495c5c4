// Tools from an ES module (TOOLS.md §9): the module's default export is either a list of tool
// definitions (the one-object form) or a function that receives the registry and registers tools.
// A NeuroScript plugin (TOOLS.md §11, `registry.loadPlugin`) is an ES module too, exporting
// `register(registrar)`, and loads the same way.
//
// A tools module is someone else's code: whatever it throws (an Error, a string, an object without
// a prototype), a load failure is a ToolLoadError that says which file and, where the error tells,
// which line and column; and a default function that never finishes is reported, not waited on.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
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
    if (/\.[cm]?ts$/.test(file) && readCode(error) === 'ERR_UNKNOWN_FILE_EXTENSION') throw new ToolLoadError(`${what}: ${typeScriptAdvice(file)}`, { cause: error });
    throw fail(error);
  }
}

/**
 * What to do with a TypeScript module this Node cannot import. Node 20 has no way to run TypeScript
 * itself; Node 22.6 strips types with --experimental-strip-types, and from 22.18 (23.6) without it
 * (then a .ts module simply loads, and this is never said).
 */
function typeScriptAdvice(file: string): string {
  const js = path.basename(file).replace(/ts$/, 'js');
  if (process.allowedNodeEnvironmentFlags.has('--experimental-strip-types')) {
    return `Node ${process.version} imports TypeScript only with NODE_OPTIONS=--experimental-strip-types; or compile it to JavaScript (${js}) and load that`;
  }
  return `Node ${process.version} cannot import TypeScript (Node 22.18 and later can): compile it to JavaScript (${js}, with tsc or esbuild) and load that, or run nuwa through a TypeScript loader: NODE_OPTIONS="--import tsx" nuwa ... (with tsx installed)`;
}

function readCode(error: unknown): unknown {
  try {
    return (error as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
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
  const shown = where.file === file || where.file === realPath(file) ? specifier : relative.startsWith('..') ? where.file : relative;
  return `${shown}:${where.line}:${where.column}: ${kindOf(error)}${message}`;
}

interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** This package's own code: the compiled modules (or, under the tests, the sources) and bin/. */
const OURS = [path.resolve(fileURLToPath(import.meta.url), '..', '..'), path.resolve(fileURLToPath(import.meta.url), '..', '..', '..', 'bin')];
const isOurs = (file: string) => OURS.some((dir) => file.startsWith(dir + path.sep));

/**
 * Where in the user's code the error happened: the module's own frame in the stack, else the
 * innermost frame, when it is in code the module brought (a module it imports, a library); never a
 * frame of this package (a tool definition the registry refused has no place in the module's text,
 * and `bin/nuwa` none in the user's code).
 */
function stackPosition(stack: string | undefined, file: string): SourcePosition | undefined {
  if (stack === undefined) return undefined;
  // A link error ("does not provide an export named ...") starts with `file:///...:3`, the line, and a caret.
  const linkError = /^(file:\/\/\/[^\n]+):(\d+)\n([^\n]*)\n([ \t]*\^)/.exec(stack);
  if (linkError) return { file: fileURLToPath(linkError[1]!), line: Number(linkError[2]), column: linkError[4]!.length };
  const frames = stackFrames(stack);
  const real = realPath(file);
  const own = frames.find((frame) => frame.file === file || frame.file === real);
  if (own) return own;
  const innermost = frames[0];
  return innermost && !isOurs(innermost.file) ? innermost : undefined;
}

/**
 * The files, lines and columns of a V8 stack's frames, innermost first: ES modules' `file:///` URLs
 * and CommonJS modules' absolute paths (`at f (/x/tools.cjs:2:7)`, `at /x/tools.cjs:2:7`). Node's
 * internal frames (`node:internal/...`) have neither and are left out.
 */
function stackFrames(stack: string): SourcePosition[] {
  const frames: SourcePosition[] = [];
  for (const [, where, line, column] of stack.matchAll(/^\s+at (?:.*?\()?((?:file:\/\/)?\/[^\n]*?):(\d+):(\d+)\)?$/gm)) {
    try {
      frames.push({ file: where!.startsWith('file:') ? fileURLToPath(where!) : where!, line: Number(line), column: Number(column) });
    } catch {
      // not a file URL after all
    }
  }
  return frames;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
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
