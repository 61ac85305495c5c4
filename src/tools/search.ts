// Tool search (TOOLS.md §5): which registered tools fit an intent such as "send an email to the team".
// Keyword ranking is a real full-text index (MiniSearch: BM25, prefix and fuzzy matching), with a
// tool's name and keywords weighing more than its description. A host may add an embedder: every
// tool is embedded once, tools are ranked by cosine similarity too, and the two rankings are fused by
// reciprocal rank fusion, so a query that shares no word with a tool can still find it.
//
// MiniSearch is loaded on the first search, not when the package loads (`#minisearch`, see
// minisearch-sync.ts): most runs (and every `nuwa run`) never search, and should not pay for the
// index at start-up. From the first search on, the index follows every register and unregister.
//
// The parts — the keyword index over search documents, the embedder's checks, cosine, and the
// weighted fusion of rankings — are exported for the other index the package has, Plaited's tool
// discovery (views/plaited/discovery.ts), which ranks its own entries the same way.
import MiniSearch from '#minisearch';
import type { Query, SearchOptions as MiniSearchOptions } from 'minisearch';
import { NuwaError } from '../errors.js';
import { Options, shown } from '../util/options.js';
import type { RegisteredTool } from './build.js';
import { CATEGORIES, SOURCES } from './build.js';
import type { Embedder, JsonSchema, ToolCategory, ToolSource } from './types.js';

export interface SearchOptions {
  /** How many tools at most (default 5). */
  limit?: number;
  /** Leave out tools scoring below this (scores are in 0..1, the best match near 1). */
  minScore?: number;
  category?: ToolCategory;
  source?: ToolSource;
}

export interface SearchResult {
  tool: RegisteredTool;
  /**
   * 0..1, best first. Keywords alone: the tool's full-text relevance relative to the best match.
   * With an embedder: the reciprocal-rank-fusion score, scaled so that first in both rankings is 1.
   */
  score: number;
  /** 1-based rank in the keyword ranking, when the tool matched keywords. */
  ftsRank?: number;
  /** 1-based rank in the embedder's (cosine) ranking. */
  vectorRank?: number;
}

/** What the keyword index reads of a tool: its key, and its words field by field. */
export interface SearchDocument {
  id: string;
  name: string;
  keywords: string;
  description: string;
  parameters: string;
}

/** The usual constant of reciprocal rank fusion (Cormack et al.): damps the weight of the very top ranks. */
const RRF_K = 60;
const DEFAULT_LIMIT = 5;
/** An intent is a phrase: beyond this, text only costs time (fuzzy matching is per word). */
const MAX_INTENT_LENGTH = 1000;

// Words that say nothing about which tool is meant; left out of the index and of queries.
const STOP_WORDS = new Set(
  'a all also an and any are as at be by can could did do does for from had has have how i if in into is it its just many me much my need of on or our please should so some that the their them then there this to up use using want was we were what when where which who why will with would you your'.split(' '),
);

const SEARCH_OPTIONS: MiniSearchOptions = {
  boost: { name: 3, keywords: 2, description: 1, parameters: 0.5 },
  prefix: (term) => term.length >= 3,
  // Typos: one edit (a letter missing, extra or wrong) in words of four to six letters, two from seven
  // on (so also two swapped letters); more would match unrelated short words. Two swapped letters in
  // a shorter word (`emial`) are two edits for Levenshtein: `transpositions` below adds those.
  fuzzy: (term) => (fuzzyDistance(term) === 0 ? false : fuzzyDistance(term)),
  combineWith: 'OR',
};

function fuzzyDistance(term: string): number {
  return term.length < 4 ? 0 : term.length < 7 ? 1 : 2;
}

/**
 * A swapped pair of adjacent letters is the commonest typo there is, and counts as one edit in the
 * Damerau sense; MiniSearch's fuzzy matching is Levenshtein, where it costs two. So each query word
 * allowed only one edit is also looked up with each adjacent pair swapped, exactly (no prefix, no
 * further fuzziness), weighted as a fuzzy match is.
 */
function transpositions(query: string): string[] {
  const variants = new Set<string>();
  for (const word of tokenize(query)) {
    const term = processTerm(word);
    if (term === null || fuzzyDistance(term) !== 1) continue;
    const letters = [...term];
    for (let i = 0; i + 1 < letters.length; i++) {
      if (letters[i] === letters[i + 1]) continue;
      const swapped = [...letters];
      [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
      variants.add(swapped.join(''));
    }
  }
  return [...variants];
}

/** What MiniSearch weighs a fuzzy match by (its default `weights.fuzzy`); a transposition weighs the same. */
const TRANSPOSITION_WEIGHT = 0.45;

/** The intent as MiniSearch's query: its words as they are, or with one transposition each. */
function keywordQuery(query: string): Query {
  const swapped = transpositions(query);
  if (swapped.length === 0) return query;
  return {
    combineWith: 'OR',
    queries: [query, { queries: swapped, combineWith: 'OR', prefix: false, fuzzy: false, boostTerm: () => TRANSPOSITION_WEIGHT }],
  };
}

/** Splits names and prose alike: `get_weather`, `sendEmail`, `fs.read_file` and "read a file". */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return STOP_WORDS.has(word) ? null : word;
}

/** The words of something to be found: its names, extra keywords, description and parameters. */
export interface Searchable {
  names: string[];
  keywords: readonly string[];
  description: string;
  parameters: JsonSchema | undefined;
}

/** The search document of `item`, under `id`. */
export function searchDocument(id: string, item: Searchable): SearchDocument {
  const schema = item.parameters;
  const properties = typeof schema === 'object' && schema !== null && typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, JsonSchema>) : {};
  const parameters = Object.entries(properties).map(([name, property]) => {
    const description = typeof property === 'object' && property !== null && typeof property.description === 'string' ? property.description : '';
    return `${name} ${description}`;
  });
  return { id, name: item.names.join(' '), keywords: item.keywords.join(' '), description: item.description, parameters: parameters.join(' ') };
}

function toDocument(tool: RegisteredTool): SearchDocument {
  return searchDocument(tool.name, {
    names: [tool.name, tool.title ?? '', tool.id ?? ''],
    keywords: [...tool.keywords, tool.category],
    description: tool.description,
    parameters: tool.parametersSchema,
  });
}

/** The text something is embedded from: what a person would read to choose it. */
export function embeddingText(name: string, description: string, keywords: readonly string[]): string {
  const words = tokenize(name).join(' ');
  return [`${words}: ${description}`, keywords.join(', ')].filter((part) => part !== '').join('\n');
}

export type Vector = Float32Array | readonly number[];

/**
 * A full-text index over search documents, built on first use from `current()` and kept current by
 * add and remove from then on. Synchronous: MiniSearch is required, not imported, when first needed.
 */
export class KeywordIndex {
  private engine: MiniSearch<SearchDocument> | undefined;

  constructor(private readonly current: () => SearchDocument[]) {}

  add(document: SearchDocument): void {
    this.engine?.add(document);
  }

  /** `document` must be the one that was added (MiniSearch removes a document's terms by reading them). */
  remove(document: SearchDocument): void {
    if (this.engine?.has(document.id)) this.engine.remove(document);
  }

  /** The ids of the documents that match `query` (or one swapped pair of its letters), best first, with MiniSearch's relevance. */
  search(query: string): Array<{ id: string; score: number }> {
    return this.load()
      .search(keywordQuery(query))
      .map((match) => ({ id: match.id as string, score: match.score }));
  }

  private load(): MiniSearch<SearchDocument> {
    if (this.engine === undefined) {
      const engine = new MiniSearch<SearchDocument>({
        fields: ['name', 'keywords', 'description', 'parameters'],
        storeFields: [],
        tokenize,
        processTerm,
        searchOptions: SEARCH_OPTIONS,
        // Removal is immediate (remove, not discard), so there is nothing to vacuum in the background.
        autoVacuum: false,
      });
      engine.addAll(this.current());
      this.engine = engine;
    }
    return this.engine;
  }
}

export class ToolIndex {
  private readonly keywords: KeywordIndex;
  private readonly vectors = new Map<RegisteredTool, Promise<Vector>>();

  /** `currentTools` gives the registry's tools when the index is first built. */
  constructor(
    private readonly currentTools: () => RegisteredTool[],
    private readonly embedder: Embedder | undefined,
  ) {
    this.keywords = new KeywordIndex(() => this.currentTools().map(toDocument));
  }

  add(tool: RegisteredTool): void {
    this.keywords.add(toDocument(tool));
  }

  remove(tool: RegisteredTool): void {
    this.keywords.remove(toDocument(tool));
    this.vectors.delete(tool);
  }

  async search(intent: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    const { query, minScore, limit, current, keywordRanking, eligible } = this.matchKeywords(intent, options);
    if (query === '') return [];
    let results: SearchResult[];
    if (this.embedder === undefined) {
      results = keywordResults(keywordRanking);
    } else {
      const candidates = [...current.values()].filter(eligible);
      const vectorRanking = await this.rankByEmbedding(query, candidates);
      results = fuseRankings([
        { items: keywordRanking.map((entry) => entry.tool), weight: 1 },
        { items: vectorRanking, weight: 1 },
      ]).map(({ item, score, ranks: [ftsRank, vectorRank] }) => ({ tool: item, score, ...(ftsRank && { ftsRank }), ...(vectorRank && { vectorRank }) }));
      // A tool unregistered while the embedder was working is not a result.
      const still = new Set(this.currentTools());
      results = results.filter((result) => still.has(result.tool));
    }
    return results.filter((result) => minScore === undefined || result.score >= minScore).slice(0, limit);
  }

  /** The keyword half of search, synchronously (no embedder); every match unless `limit` is given. */
  searchKeywords(intent: string, options: SearchOptions = {}): SearchResult[] {
    const { minScore, limit, keywordRanking } = this.matchKeywords(intent, options, Number.MAX_SAFE_INTEGER);
    return keywordResults(keywordRanking).filter((result) => minScore === undefined || result.score >= minScore).slice(0, limit);
  }

  private matchKeywords(intent: string, options: SearchOptions, defaultLimit = DEFAULT_LIMIT) {
    if (typeof intent !== 'string') throw new NuwaError('TypeError', `search(intent, options): intent must be a string, got ${shown(intent)}`);
    const { limit, minScore, category, source } = checkOptions(options, defaultLimit);
    const query = intent.trim().slice(0, MAX_INTENT_LENGTH);
    const current = new Map(this.currentTools().map((tool) => [tool.name, tool]));
    const eligible = (tool: RegisteredTool | undefined): tool is RegisteredTool =>
      tool !== undefined && (category === undefined || tool.category === category) && (source === undefined || tool.source === source);
    const keywordRanking: Array<{ tool: RegisteredTool; score: number }> = [];
    if (query !== '') {
      for (const match of this.keywords.search(query)) {
        const tool = current.get(match.id);
        if (eligible(tool)) keywordRanking.push({ tool, score: match.score });
      }
    }
    return { query, limit, minScore, current, keywordRanking, eligible };
  }

  private async rankByEmbedding(query: string, tools: RegisteredTool[]): Promise<RegisteredTool[]> {
    const [queryVector, toolVectors] = await Promise.all([embed(this.embedder!, query, 'the query'), Promise.all(tools.map((tool) => this.vectorOf(tool)))]);
    const scored = tools.map((tool, i) => ({ tool, similarity: cosine(queryVector, toolVectors[i]!, `tool "${tool.name}"`) }));
    scored.sort((a, b) => b.similarity - a.similarity);
    return scored.map((entry) => entry.tool);
  }

  /** Each tool is embedded once; a failed embedding is forgotten so that a later search retries it. */
  private vectorOf(tool: RegisteredTool): Promise<Vector> {
    let vector = this.vectors.get(tool);
    if (vector === undefined) {
      vector = embed(this.embedder!, embeddingText(tool.title ?? tool.name, tool.description, tool.keywords), `tool "${tool.name}"`);
      this.vectors.set(tool, vector);
      vector.catch(() => {
        if (this.vectors.get(tool) === vector) this.vectors.delete(tool);
      });
    }
    return vector;
  }
}

/** Keyword matches alone: relevance relative to the best match. */
function keywordResults(ranking: Array<{ tool: RegisteredTool; score: number }>): SearchResult[] {
  const best = ranking[0]?.score ?? 1;
  return ranking.map(({ tool, score }, i) => ({ tool, score: score / best, ftsRank: i + 1 }));
}

/** One ranking to fuse: items best first, and how much it counts. */
export interface Ranking<T> {
  items: readonly T[];
  weight: number;
}

export interface Fused<T> {
  item: T;
  /** 0..1: first in every ranking is 1. */
  score: number;
  /** The item's 1-based rank in each ranking (undefined where it is absent), in the order given. */
  ranks: Array<number | undefined>;
}

/**
 * Weighted reciprocal rank fusion: each ranking adds `weight / (k + rank)`, and the sum is scaled so
 * that an item first in every ranking scores 1. Best first; ties go to the better rank in the first
 * ranking, then the next. The weights must be non-negative and not all zero.
 */
export function fuseRankings<T>(rankings: ReadonlyArray<Ranking<T>>): Array<Fused<T>> {
  const fused = new Map<T, Fused<T>>();
  const best = rankings.reduce((sum, ranking) => sum + ranking.weight / (RRF_K + 1), 0);
  rankings.forEach((ranking, which) => {
    ranking.items.forEach((item, i) => {
      let entry = fused.get(item);
      if (entry === undefined) fused.set(item, (entry = { item, score: 0, ranks: rankings.map(() => undefined) }));
      entry.ranks[which] = i + 1;
      entry.score += ranking.weight / (RRF_K + i + 1) / best;
    });
  });
  const byRanks = (a: Fused<T>, b: Fused<T>): number => {
    for (let i = 0; i < rankings.length; i++) {
      const difference = (a.ranks[i] ?? Infinity) - (b.ranks[i] ?? Infinity);
      if (difference !== 0 && !Number.isNaN(difference)) return difference;
    }
    return 0;
  };
  return [...fused.values()].sort((a, b) => b.score - a.score || byRanks(a, b));
}

/** The embedder's vector for `text`, checked: a non-empty list of numbers (`what` names it in errors). */
export async function embed(embedder: Embedder, text: string, what: string): Promise<Vector> {
  let vector: unknown;
  try {
    vector = await embedder(text);
  } catch (error) {
    throw new Error(`search: the embedder failed on ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const ok = vector instanceof Float32Array || vector instanceof Float64Array || (Array.isArray(vector) && vector.every((x) => typeof x === 'number'));
  if (!ok || (vector as Vector).length === 0) throw new Error(`search: the embedder returned ${describe(vector)} for ${what}, not a vector of numbers`);
  return vector as Vector;
}

/** Cosine similarity of the query's vector and another's (`what` names the other in errors). */
export function cosine(a: Vector, b: Vector, what: string): number {
  if (a.length !== b.length) throw new Error(`search: the embedder gave the query ${a.length} dimensions but ${what} ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list with items that are not numbers';
  return typeof value === 'object' ? `a ${(value as object).constructor?.name ?? 'object'}` : `a ${typeof value}`;
}

/** The options, each read once and checked: a bad one is a NuwaError (TypeError) naming it. */
function checkOptions(options: unknown, defaultLimit: number): Required<Pick<SearchOptions, 'limit'>> & SearchOptions {
  const given = Options.of('search(intent, options)', options);
  const limit = given.check<number>('limit', (value) => Number.isInteger(value) && (value as number) >= 1, 'a whole number of at least 1') ?? defaultLimit;
  const minScore = given.check<number>('minScore', (value) => typeof value === 'number' && !Number.isNaN(value), 'a number');
  return { limit, minScore, category: given.oneOf('category', CATEGORIES), source: given.oneOf('source', SOURCES) };
}
