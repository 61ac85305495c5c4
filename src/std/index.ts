// The standard tools (TOOLS.md §12), the package's `/std` entry: files confined to a root folder,
// HTTP and WebSocket to allowed hosts only, JSON, CSV and JSON Schema. The main entry never imports
// this module (so a host that does not want them loads neither `ws` nor `csv-parse`); `nuwa --std`
// loads it when asked.
//
//   import { registerStdTools } from 'nuwa-script/std';
//   registerStdTools(registry, { root: './data', allowNet: ['127.0.0.1:8080'] });
import type { DefinedTool } from '../tools/forms.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import { settingsOf, type StdToolsOptions } from './common.js';
import { dataTools } from './data.js';
import { fileTools } from './files.js';
import { httpTool } from './http.js';
import { NetPolicy } from './net.js';
import { websocketTool } from './websocket.js';

export type { StdToolsOptions } from './common.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS, StdOptionError } from './common.js';

/**
 * The standard tools as definitions for `registry.register` (sdkwork-style tools: each is found by
 * its name, `fs.read`, and by its sdkwork id, `file-read`). The options are checked here: a root
 * that does not exist or an allowNet entry that is not a host is a StdOptionError (a TypeError).
 */
export function createStdTools(options: StdToolsOptions = {}): DefinedTool[] {
  const settings = settingsOf(options);
  const policy = new NetPolicy(settings.allowNet);
  return [...fileTools(settings), httpTool(settings, policy), websocketTool(settings, policy), ...dataTools()];
}

/** Registers every standard tool on `registry`; returns them as registered. */
export function registerStdTools(registry: ToolRegistry, options: StdToolsOptions = {}): RegisteredTool[] {
  if (registry === null || typeof registry !== 'object' || typeof (registry as { register?: unknown }).register !== 'function') {
    throw new TypeError('registerStdTools(registry, options): registry must be a ToolRegistry');
  }
  return createStdTools(options).map((tool) => registry.register(tool));
}
