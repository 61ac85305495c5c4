// How the parser decides between alternatives, from a cached form of the grammar's analysis.
//
// For every choice the grammar makes (each OR, OPTION, MANY...), Chevrotain works out the token
// sequences that lead into each alternative by analysing the whole grammar: about a third of
// building the parser, on every start of `nuwa run`. Those sequences depend only on the grammar, so
// they are computed once, by `npm run lookahead`, into lookahead-paths.ts, and the parser builds its
// decisions from there. The cache carries the grammar it was made from (Chevrotain's serialized
// form, compared as text: cheaper than any hash on a cold start): if the grammar changed since, the
// parser analyses it as Chevrotain always does (test/unit/syntax/lookahead.test.ts fails until the
// cache is made again), so a stale cache can never misparse.
import {
  EOF,
  getLookaheadPaths,
  LLkLookaheadStrategy,
  serializeGrammar,
  tokenMatcher,
  type IOrAlt,
  type IToken,
  type LookaheadProductionType,
  type OptionalProductionType,
  type Rule,
  type TokenType,
} from './chevrotain.js';
import { GRAMMAR, LOOKAHEAD_PATHS } from './lookahead-paths.js';
import * as T from './tokens.js';

type Paths = TokenType[][][];
/** What a decision function reads: the parser's next tokens. */
interface Lookahead {
  LA(i: number): IToken;
}

const key = (rule: string, type: LookaheadProductionType, occurrence: number, maxLookahead: number) => `${rule}|${type}|${occurrence}|${maxLookahead}`;

/** The grammar's rules as text (Chevrotain's serialized form). */
export function grammarText(rules: Rule[]): string {
  return JSON.stringify(serializeGrammar(rules));
}

/** Chevrotain's LL(k) decisions, from the cache when it was made from this grammar. */
export class CachedLookahead extends LLkLookaheadStrategy {
  private cached: Record<string, string[][][]> | undefined;
  private readonly tokens = new Map<string, TokenType>([...T.allTokens, EOF].map((type) => [type.name, type]));

  override initialize({ rules }: { rules: Rule[] }): void {
    this.cached = grammarText(rules) === GRAMMAR ? LOOKAHEAD_PATHS : undefined;
  }

  /** Whether the cache was made from this grammar (and so is used). */
  get fromCache(): boolean {
    return this.cached !== undefined;
  }

  private paths(rule: Rule, type: LookaheadProductionType, occurrence: number, maxLookahead: number): Paths | undefined {
    const names = this.cached?.[key(rule.name, type, occurrence, maxLookahead)];
    return names?.map((alternative) => alternative.map((path) => path.map((name) => this.tokens.get(name)!)));
  }

  override buildLookaheadForAlternation(options: { prodOccurrence: number; rule: Rule; maxLookahead: number; hasPredicates: boolean; dynamicTokensEnabled: boolean }) {
    const paths = options.dynamicTokensEnabled ? undefined : this.paths(options.rule, 'Alternation', options.prodOccurrence, options.maxLookahead);
    return paths === undefined ? super.buildLookaheadForAlternation(options) : alternativesDecision(paths, options.hasPredicates);
  }

  override buildLookaheadForOptional(options: { prodOccurrence: number; prodType: OptionalProductionType; rule: Rule; maxLookahead: number; dynamicTokensEnabled: boolean }) {
    const paths = options.dynamicTokensEnabled ? undefined : this.paths(options.rule, options.prodType, options.prodOccurrence, options.maxLookahead);
    return paths === undefined ? super.buildLookaheadForOptional(options) : optionalDecision(paths[0]!);
  }
}

/** Whether the next tokens are `path`. */
function follows(parser: Lookahead, path: TokenType[]): boolean {
  for (let i = 0; i < path.length; i++) if (!tokenMatcher(parser.LA(i + 1), path[i]!)) return false;
  return true;
}

/** The next token's type, and the types it is a category of, to `value`: the one-token decisions. */
function byFirstToken<V>(entries: Array<[TokenType, V]>): V[] {
  const table: V[] = [];
  for (const [type, value] of entries) {
    table[type.tokenTypeIdx!] ??= value;
    for (const member of type.categoryMatches ?? []) table[member] ??= value;
  }
  return table;
}

/** Which alternative the next tokens lead into (the first whose paths match), as Chevrotain decides it. */
function alternativesDecision(alternatives: Paths, hasPredicates: boolean): (this: Lookahead, orAlts?: IOrAlt<unknown>[]) => number | undefined {
  if (!hasPredicates && alternatives.every((paths) => paths.every((path) => path.length === 1))) {
    const table = byFirstToken(alternatives.flatMap((paths, alternative) => paths.map((path): [TokenType, number] => [path[0]!, alternative])));
    return function (this: Lookahead) {
      return table[this.LA(1).tokenTypeIdx];
    };
  }
  return function (this: Lookahead, orAlts?: IOrAlt<unknown>[]) {
    for (let alternative = 0; alternative < alternatives.length; alternative++) {
      const gate = hasPredicates ? orAlts?.[alternative]?.GATE : undefined;
      if (gate !== undefined && gate.call(this) === false) continue;
      for (const path of alternatives[alternative]!) if (follows(this, path)) return alternative;
    }
    return undefined;
  };
}

/** Whether the next tokens lead into an optional production (OPTION, MANY...). */
function optionalDecision(paths: TokenType[][]): (this: Lookahead) => boolean {
  if (paths.every((path) => path.length === 1)) {
    const table = byFirstToken(paths.map((path): [TokenType, true] => [path[0]!, true]));
    return function (this: Lookahead) {
      return table[this.LA(1).tokenTypeIdx] === true;
    };
  }
  return function (this: Lookahead) {
    for (const path of paths) if (follows(this, path)) return true;
    return false;
  };
}

/** Chevrotain's own analysis, recording the paths it finds: what `npm run lookahead` caches, and what the test compares the cache with. */
export class RecordingLookahead extends LLkLookaheadStrategy {
  readonly paths: Record<string, string[][][]> = {};
  grammar = '';

  override initialize({ rules }: { rules: Rule[] }): void {
    this.grammar = grammarText(rules);
  }

  private record(rule: Rule, type: LookaheadProductionType, occurrence: number, maxLookahead: number): void {
    const paths = getLookaheadPaths({ occurrence, rule, prodType: type, maxLookahead });
    this.paths[key(rule.name, type, occurrence, maxLookahead)] = paths.map((alternative) => alternative.map((path) => path.map((type) => type.name)));
  }

  override buildLookaheadForAlternation(options: { prodOccurrence: number; rule: Rule; maxLookahead: number; hasPredicates: boolean; dynamicTokensEnabled: boolean }) {
    this.record(options.rule, 'Alternation', options.prodOccurrence, options.maxLookahead);
    return super.buildLookaheadForAlternation(options);
  }

  override buildLookaheadForOptional(options: { prodOccurrence: number; prodType: OptionalProductionType; rule: Rule; maxLookahead: number; dynamicTokensEnabled: boolean }) {
    this.record(options.rule, options.prodType, options.prodOccurrence, options.maxLookahead);
    return super.buildLookaheadForOptional(options);
  }
}
