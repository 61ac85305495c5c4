// `nuwa-script/plaited`: Plaited's tool API under its own names, so that code written for
// `plaited/agent` runs with only its import line changed. (The main entry exports the same functions,
// and these types under the `Plaited` namespace, where Nuwa's own ToolSchema and ToolResult are.)
export { createToolRegistry, PlaitedToolRegistry, createCoreTools, createToolDiscovery } from './views/plaited/index.js';
export type { PlaitedResult } from './views/plaited/index.js';
export type * from './views/plaited/types.js';
