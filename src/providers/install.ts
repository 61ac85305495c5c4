// Where the registry finds the providers of tools outside the process (tools/outside.ts): each is
// imported the first time a host asks for it. The package's entry points call this once.
import { installOutsideProviders } from '../tools/outside.js';
import type { ToolRegistry } from '../tools/registry.js';

export function installProviders(): void {
  installOutsideProviders<ToolRegistry>({
    executables: () => import('./executables.js'),
    mcp: () => import('./mcp-client.js'),
    modules: () => import('./module.js'),
  });
}
