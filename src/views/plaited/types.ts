// Plaited's tool API as its users write it (TOOLS.md §11): the types of its registry, its core tools
// and its tool discovery, exported from the main entry under the `Plaited` namespace
// (`Plaited.ToolHandler`, `Plaited.ToolResult`, ...) so that they do not collide with Nuwa's own
// names. Where Plaited's type is narrower than what Nuwa accepts, it is widened only as far as a
// JSON Schema needs (a parameter may say more than `type` and `description`).
import type { ToolContext, ToolSource as NuwaToolSource } from '../../tools/types.js';

/** A model's function call: the tool's name and its arguments as JSON text. */
export type FunctionCall = {
  name: string;
  arguments: string;
};

/** What a handler answers, and what `registry.execute` resolves to. */
export type ToolResult = {
  success: boolean;
  data?: unknown;
  error?: string;
};

/** A tool's implementation: its (checked) arguments in, a result envelope out. The context is Nuwa's, for handlers that want it. */
export type ToolHandler = (args: Record<string, unknown>, context: ToolContext) => ToolResult | Promise<ToolResult>;

/** A tool's function-calling schema. */
export type ToolSchema = {
  name: string;
  description: string;
  parameters: {
    type: 'object';
    properties: Record<string, { type?: string; description?: string; [keyword: string]: unknown }>;
    required?: string[];
    [keyword: string]: unknown;
  };
};

/** The registry `createToolRegistry()` makes, as Plaited types it (the object is also a full Nuwa ToolRegistry). */
export type ToolRegistry = {
  register: (name: string, handler: ToolHandler, schema: ToolSchema) => void;
  execute: (call: FunctionCall) => Promise<ToolResult>;
  schemas: ToolSchema[];
};

/** What a story run reports (`runStory`'s result data). */
export type StoryResult = {
  passed: boolean;
  totalAssertions: number;
  passedAssertions: number;
  a11yPassed: boolean;
  errors: unknown[];
};

export type CoreToolsConfig = {
  /** Where writeTemplate and writeStory write; nothing is written outside it. */
  outputDir: string;
  /** Runs a story file (its absolute path, inside outputDir); without it there is no runStory tool. */
  runStory?: (path: string) => StoryResult | Promise<StoryResult>;
};

// --- tool discovery ----------------------------------------------------------------------------

/** Where an indexed tool comes from: Plaited's `local`, `mcp` and `a2a`, and Nuwa's other providers. */
export type ToolSource = NuwaToolSource;

export type IndexedTool = {
  name: string;
  description: string;
  keywords: string[];
  source: ToolSource;
  sourceUrl?: string;
  schema: ToolSchema;
};

export type ToolMatch = {
  tool: IndexedTool;
  /** The fused reciprocal-rank score, 0..1 (first in every ranking searched scores 1). */
  score: number;
  /** The tool's 1-based rank among the keyword matches, when its words matched. */
  ftsRank?: number;
  /** Cosine distance (1 − cosine similarity) of the tool's vector to the query's, when vectors were searched. */
  vectorDistance?: number;
};

export type SearchOptions = {
  /** Most results (default 5). */
  limit?: number;
  /** Leave out matches scoring below this (default 0.001). */
  minScore?: number;
  /** Only tools from this source. */
  source?: ToolSource;
  /** How much the keyword ranking counts in the fused score (default 0.5). */
  ftsWeight?: number;
  /** How much the vector ranking counts (default 0.5). */
  vectorWeight?: number;
};

export type ToolDiscoveryConfig = {
  /** A file the index lives in, shared by every process that opens it; `:memory:` (the default) keeps it in memory. */
  dbPath?: string;
  /** Vector search is on when there is an embedder, unless this is false. */
  enableVectorSearch?: boolean;
  embedder?: (text: string) => Promise<Float32Array | readonly number[]>;
  /** How many dimensions the embedder's vectors have (default 384); others are refused. */
  vectorDimensions?: number;
};

export type ToolDiscoveryStats = {
  total: number;
  bySource: Partial<Record<ToolSource, number>>;
};

export type ToolDiscovery = {
  index: (tool: IndexedTool) => Promise<void>;
  indexBatch: (tools: IndexedTool[]) => Promise<void>;
  search: (intent: string, options?: SearchOptions) => Promise<ToolMatch[]>;
  all: () => IndexedTool[];
  bySource: (source: ToolSource) => IndexedTool[];
  /** Removes a tool by name; true when there was one. (`remove` and `unregister` are the same.) */
  remove: (name: string) => boolean;
  unregister: (name: string) => boolean;
  clearSource: (source: ToolSource) => void;
  stats: () => ToolDiscoveryStats;
  close: () => void;
};
