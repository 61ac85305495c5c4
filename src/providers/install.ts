// Where the registry finds the providers of tools outside the process (tools/outside.ts): each is
// imported the first time a host asks for it. The package's entry points call this once.
//
// The MCP client lives behind the package's `/mcp` entry (API.md v1.1 "Entry points"), imported by
// the package's own name when `connectMcp` is first called and no one has imported it yet. The name
// is not written as a literal in the import, so that bundlers do not take the MCP SDK into every host
// that bundles the main entry; a bundled host that connects to MCP servers imports `/mcp` itself.
import { NuwaError } from '../errors.js';
import { describeThrown } from '../util/foreign.js';
import { installOutsideProviders, providedMcp, type OutsideProviders } from '../tools/outside.js';
import type { ToolRegistry } from '../tools/registry.js';

const MCP_ENTRY = 'nuwa-script/mcp';

export function installProviders(): void {
  installOutsideProviders<ToolRegistry>({
    executables: () => import('./executables.js'),
    mcp: async () => providedMcp<ToolRegistry>() ?? (await importMcpEntry()),
    modules: () => import('./module.js'),
  });
}

type McpProvider = Awaited<ReturnType<OutsideProviders<ToolRegistry>['mcp']>>;

async function importMcpEntry(): Promise<McpProvider> {
  const specifier = MCP_ENTRY;
  try {
    await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
  } catch (error) {
    throw new NuwaError(
      'TypeError',
      `registry.connectMcp needs the package's MCP entry (${MCP_ENTRY}), which could not be loaded: ${describeThrown(error)}. A bundled host that connects to MCP servers imports '${MCP_ENTRY}' itself.`,
    );
  }
  // The entry provides itself when it is evaluated (src/mcp.ts).
  const provider = providedMcp<ToolRegistry>();
  if (provider === undefined) throw new NuwaError('TypeError', `registry.connectMcp: ${MCP_ENTRY} was loaded from another copy of the package`);
  return provider;
}
