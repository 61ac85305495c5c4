// `nuwa-script/mcp`: the MCP client (TOOLS.md §9), and with it the MCP SDK, kept out of the main
// entry (API.md v1.1 "Entry points"). `registry.connectMcp` loads this entry when first called; a
// host bundled for a place without node_modules imports it once, so that its bundler takes it in:
//   import 'nuwa-script/mcp';
import { connectMcp } from './providers/mcp-client.js';
import { provideMcp } from './tools/outside.js';
import type { ToolRegistry } from './tools/registry.js';

provideMcp<ToolRegistry>({ connectMcp });

export { connectMcp };
export type { McpConnectOptions, McpConnection } from './tools/outside.js';
