// Plaited's tool discovery (TOOLS.md §11): an index of tools from anywhere — this process, MCP
// servers, other agents (A2A) — that a host searches for the few a task needs before it offers them to
// a model. `createToolDiscovery({ dbPath?, embedder?, vectorDimensions? })` → index, indexBatch,
// search, all, bySource, remove / unregister, clearSource, stats, close.
//
// Ranking is the registry's own (tools/search.ts): the same full-text index (MiniSearch: prefix and
// fuzzy matching, names and keywords over descriptions), the same embedder checks and cosine, and
// the same reciprocal rank fusion, here weighted by `ftsWeight` and `vectorWeight`. Tools are embedded
// once, when indexed. With a `dbPath` the index lives in a file that several processes share
// (discovery-file.ts); without one (or with `:memory:`) it lives in memory.
import { SOURCES } from '../../tools/build.js';
import { cosine, embed, embeddingText, fuseRankings, KeywordIndex, searchDocument, type SearchDocument, type Vector } from '../../tools/search.js';
import type { Embedder } from '../../tools/types.js';
import { DiscoveryFile, type StoredIndex } from './discovery-file.js';
import type { IndexedTool, SearchOptions, ToolDiscovery, ToolDiscoveryConfig, ToolDiscoveryStats, ToolMatch, ToolSource } from './types.js';

const DEFAULT_DIMENSIONS = 384;
const DEFAULT_LIMIT = 5;
const DEFAULT_MIN_SCORE = 0.001;
const DEFAULT_WEIGHT = 0.5;
const MAX_INTENT_LENGTH = 1000;

interface Entry {
  tool: IndexedTool;
  document: SearchDocument;
  vector: readonly number[] | undefined;
}

export function createToolDiscovery(config: ToolDiscoveryConfig = {}): ToolDiscovery {
  return new Discovery(config);
}

class Discovery implements ToolDiscovery {
  private entries = new Map<string, Entry>();
  private keywords = new KeywordIndex(() => [...this.entries.values()].map((entry) => entry.document));
  private readonly file: DiscoveryFile | undefined;
  private readonly embedder: Embedder | undefined;
  private readonly dimensions: number;
  private closed = false;

  constructor(config: ToolDiscoveryConfig) {
    if (config === null || typeof config !== 'object') throw new TypeError('createToolDiscovery(config): config must be an object');
    const { dbPath, embedder, enableVectorSearch, vectorDimensions = DEFAULT_DIMENSIONS } = config;
    if (dbPath !== undefined && (typeof dbPath !== 'string' || dbPath === '')) throw new TypeError('createToolDiscovery: dbPath must be the path of a file (or ":memory:")');
    if (embedder !== undefined && typeof embedder !== 'function') throw new TypeError('createToolDiscovery: embedder must be a function (text) => Promise<Float32Array>');
    if (!Number.isInteger(vectorDimensions) || vectorDimensions < 1) throw new TypeError(`createToolDiscovery: vectorDimensions must be a whole number of at least 1, got ${String(vectorDimensions)}`);
    this.embedder = enableVectorSearch === false ? undefined : embedder;
    this.dimensions = vectorDimensions;
    this.file = dbPath === undefined || dbPath === ':memory:' ? undefined : new DiscoveryFile(dbPath);
    this.refresh(); // a file that cannot be read is an error now, not at the first search
  }

  async index(tool: IndexedTool): Promise<void> {
    await this.indexBatch([tool]);
  }

  async indexBatch(tools: IndexedTool[]): Promise<void> {
    this.checkOpen();
    if (!Array.isArray(tools)) throw new TypeError('indexBatch(tools): tools must be a list of tools');
    const checked = tools.map((tool, i) => checkTool(tool, tools.length === 1 ? 'index(tool)' : `indexBatch: tool ${i + 1}`));
    const vectors = this.embedder === undefined ? [] : await Promise.all(checked.map((tool) => this.vectorOf(embeddingText(tool.name, tool.description, tool.keywords), `tool "${tool.name}"`)));
    this.checkOpen();
    this.change((stored) => {
      const byName = new Map(stored.tools.map((entry) => [(entry.tool as IndexedTool).name, entry]));
      checked.forEach((tool, i) => byName.set(tool.name, vectors[i] === undefined ? { tool } : { tool, vector: vectors[i] }));
      return { tools: [...byName.values()] };
    });
  }

  async search(intent: string, options: SearchOptions = {}): Promise<ToolMatch[]> {
    this.checkOpen();
    if (typeof intent !== 'string') throw new TypeError('search(intent): intent must be a string');
    const { limit, minScore, source, ftsWeight, vectorWeight } = checkSearchOptions(options);
    const query = intent.trim().slice(0, MAX_INTENT_LENGTH);
    if (query === '') return [];
    const queryVector = this.embedder === undefined ? undefined : await this.vectorOf(query, 'the query');
    this.checkOpen();
    this.refresh(); // another process may have changed the index (also while the embedder worked)
    const eligible = (entry: Entry | undefined): entry is Entry => entry !== undefined && (source === undefined || entry.tool.source === source);

    const keywordRanking = this.keywords
      .search(query)
      .map((match) => this.entries.get(match.id))
      .filter(eligible);
    const rankings = [{ items: keywordRanking, weight: ftsWeight }];
    const distances = new Map<Entry, number>();
    if (queryVector !== undefined) {
      const candidates = [...this.entries.values()].filter((entry) => eligible(entry) && entry.vector !== undefined);
      for (const entry of candidates) distances.set(entry, 1 - cosine(queryVector, entry.vector!, `tool "${entry.tool.name}"`));
      rankings.push({ items: candidates.sort((a, b) => distances.get(a)! - distances.get(b)!), weight: vectorWeight });
    }
    return fuseRankings(rankings)
      .filter(({ score }) => score >= minScore)
      .slice(0, limit)
      .map(({ item, score, ranks: [ftsRank] }) => {
        const match: ToolMatch = { tool: item.tool, score };
        if (ftsRank !== undefined) match.ftsRank = ftsRank;
        const distance = distances.get(item);
        if (distance !== undefined) match.vectorDistance = distance;
        return match;
      });
  }

  all(): IndexedTool[] {
    this.checkOpen();
    this.refresh();
    return [...this.entries.values()].map((entry) => entry.tool);
  }

  bySource(source: ToolSource): IndexedTool[] {
    checkSource(source, 'bySource(source)');
    return this.all().filter((tool) => tool.source === source);
  }

  remove(name: string): boolean {
    this.checkOpen();
    if (typeof name !== 'string') throw new TypeError('remove(name): name must be a string');
    let removed = false;
    this.change((stored) => {
      const tools = stored.tools.filter((entry) => (entry.tool as IndexedTool).name !== name);
      removed = tools.length !== stored.tools.length;
      return { tools };
    });
    return removed;
  }

  unregister(name: string): boolean {
    return this.remove(name);
  }

  clearSource(source: ToolSource): void {
    this.checkOpen();
    checkSource(source, 'clearSource(source)');
    this.change((stored) => ({ tools: stored.tools.filter((entry) => (entry.tool as IndexedTool).source !== source) }));
  }

  stats(): ToolDiscoveryStats {
    const tools = this.all();
    const bySource: ToolDiscoveryStats['bySource'] = {};
    for (const tool of tools) bySource[tool.source] = (bySource[tool.source] ?? 0) + 1;
    return { total: tools.length, bySource };
  }

  /** Ends the use of the index; its file (if any) is already up to date. Later calls throw. */
  close(): void {
    this.closed = true;
    this.entries = new Map();
    this.keywords = new KeywordIndex(() => []);
  }

  // --- state ----------------------------------------------------------------------------------

  /** Applies a change: to the file under its lock (then the entries follow it), or to memory. */
  private change(apply: (stored: StoredIndex) => StoredIndex): void {
    if (this.file !== undefined) {
      this.load(this.file.update(apply));
      return;
    }
    const stored: StoredIndex = { tools: [...this.entries.values()].map((entry) => (entry.vector === undefined ? { tool: entry.tool } : { tool: entry.tool, vector: [...entry.vector] })) };
    this.load(apply(stored));
  }

  /** Reads the file again if another process (or another index on it) changed it. */
  private refresh(): void {
    const changed = this.file?.readIfChanged();
    if (changed !== undefined) this.load(changed);
  }

  /** Makes the entries (and a new keyword index) from stored tools, checking each as if indexed now. */
  private load(stored: StoredIndex): void {
    const entries = new Map<string, Entry>();
    for (const { tool, vector } of stored.tools) {
      const checked = checkTool(tool as IndexedTool, this.file ? `a tool in ${this.file.path}` : 'index(tool)');
      entries.set(checked.name, {
        tool: checked,
        document: documentOf(checked),
        vector: Array.isArray(vector) && vector.length === this.dimensions && vector.every((x) => typeof x === 'number') ? Object.freeze([...vector]) : undefined,
      });
    }
    this.entries = entries;
    this.keywords = new KeywordIndex(() => [...this.entries.values()].map((entry) => entry.document));
  }

  private async vectorOf(text: string, what: string): Promise<number[]> {
    const vector: Vector = await embed(this.embedder!, text, what);
    if (vector.length !== this.dimensions) {
      throw new Error(`tool discovery: the embedder returned ${vector.length} dimensions for ${what}, but vectorDimensions is ${this.dimensions}`);
    }
    return Array.from(vector, Number);
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('tool discovery: this index was closed');
  }
}

function documentOf(tool: IndexedTool): SearchDocument {
  return searchDocument(tool.name, { names: [tool.name], keywords: [...tool.keywords, tool.source], description: tool.description, parameters: tool.schema.parameters });
}

/** A checked, frozen copy of a tool to index (keywords default to none, schema to no parameters). */
function checkTool(tool: IndexedTool, where: string): IndexedTool {
  if (tool === null || typeof tool !== 'object') throw new TypeError(`${where}: a tool must be an object { name, description, keywords, source, schema }`);
  const { name, description, keywords = [], source, sourceUrl, schema } = tool;
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: a tool needs a name`);
  if (typeof description !== 'string') throw new TypeError(`${where}: tool "${name}" needs a description (string)`);
  if (!Array.isArray(keywords) || keywords.some((k) => typeof k !== 'string')) throw new TypeError(`${where}: tool "${name}": keywords must be a list of strings`);
  checkSource(source, `${where}: tool "${name}"`);
  if (sourceUrl !== undefined && typeof sourceUrl !== 'string') throw new TypeError(`${where}: tool "${name}": sourceUrl must be a string`);
  if (schema !== undefined && (schema === null || typeof schema !== 'object')) throw new TypeError(`${where}: tool "${name}": schema must be a function-calling schema { name, description, parameters }`);
  let copy: IndexedTool;
  try {
    copy = structuredClone({
      name,
      description,
      keywords,
      source,
      ...(sourceUrl === undefined ? {} : { sourceUrl }),
      schema: schema ?? { name, description, parameters: { type: 'object', properties: {} } },
    });
  } catch {
    throw new TypeError(`${where}: tool "${name}" must be plain data (no functions or class instances)`);
  }
  return deepFreeze(copy);
}

function checkSource(source: unknown, where: string): asserts source is ToolSource {
  if (!SOURCES.includes(source as ToolSource)) throw new TypeError(`${where}: source must be one of ${SOURCES.join(', ')}`);
}

function checkSearchOptions(options: SearchOptions): Required<Omit<SearchOptions, 'source'>> & Pick<SearchOptions, 'source'> {
  if (options === null || typeof options !== 'object') throw new TypeError('search(intent, options): options must be an object');
  const { limit = DEFAULT_LIMIT, minScore = DEFAULT_MIN_SCORE, source, ftsWeight = DEFAULT_WEIGHT, vectorWeight = DEFAULT_WEIGHT } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`search: limit must be a whole number of at least 1, got ${String(limit)}`);
  if (typeof minScore !== 'number' || Number.isNaN(minScore)) throw new TypeError(`search: minScore must be a number, got ${String(minScore)}`);
  if (source !== undefined) checkSource(source, 'search');
  for (const [key, weight] of [['ftsWeight', ftsWeight], ['vectorWeight', vectorWeight]] as const) {
    if (typeof weight !== 'number' || !(weight >= 0) || weight === Infinity) throw new TypeError(`search: ${key} must be a number of at least 0, got ${String(weight)}`);
  }
  if (ftsWeight === 0 && vectorWeight === 0) throw new TypeError('search: ftsWeight and vectorWeight cannot both be 0');
  return { limit, minScore, source, ftsWeight, vectorWeight };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

