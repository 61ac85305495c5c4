// Tools from an ES module (TOOLS.md §9): the module's default export is either a list of tool
// definitions (the one-object form) or a function that receives the registry and registers tools.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';

/** Loading tools failed: the message says which module and why. */
export class ToolLoadError extends Error {
  override readonly name = 'ToolLoadError';
}

export type ToolModuleExport = ToolDefinition[] | ((registry: ToolRegistry) => void | Promise<void>);

/** Imports `specifier` (a path, relative to `cwd`) and registers its tools; returns their names. */
export async function loadToolModule(registry: ToolRegistry, specifier: string, cwd = process.cwd()): Promise<string[]> {
  const file = path.resolve(cwd, specifier);
  if (!existsSync(file)) throw new ToolLoadError(`cannot load tools from ${specifier}: no such file`);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new ToolLoadError(`cannot load tools from ${specifier}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const before = new Set(registry.names());
  const exported = loaded.default;
  try {
    if (Array.isArray(exported)) {
      for (const definition of exported) registry.register({ source: 'module', ...(definition as ToolDefinition) });
    } else if (typeof exported === 'function') {
      await (exported as (registry: ToolRegistry) => unknown)(registry);
    } else {
      throw new Error('its default export must be a list of tool definitions or a function (registry) => void');
    }
  } catch (error) {
    throw new ToolLoadError(`cannot load tools from ${specifier}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return registry.names().filter((name) => !before.has(name));
}
