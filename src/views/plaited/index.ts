// Plaited's tool API over Nuwa's registry (TOOLS.md §11): its registry, core tools and discovery.
export { createToolRegistry, PlaitedToolRegistry } from './registry.js';
export type { PlaitedResult } from './registry.js';
export { createCoreTools } from './core-tools.js';
export { createToolDiscovery } from './discovery.js';
