// Keeping a line's syntax error on its line. When the grammar fails inside a statement, Chevrotain's
// recovery guesses how to go on, and a wrong guess about where the statement ends shifts the blocks
// after it: an IF condition it cannot read makes it insert a THEN, read the rest of the line as the
// body, and the IF's own END then closes the wrong block, so that an "unexpected END" appears on a
// line with no mistake. A model told about an error on a correct line wastes its retry there.
//
// So, on the error path only (a script that parses never comes here), each line where the grammar
// failed is looked at once more: when it is a statement whose extent the line shows — an IF or ELSE
// IF header ending in THEN, a FOR header ending in DO, `LET name = ...`, or a line that is one
// expression — and its brackets balance there, the part the grammar could not read is replaced by
// a stand-in (nodes.ts), and the script is parsed again. The line keeps the errors first found on
// it; the errors the guesses caused elsewhere go away. Since every stand-in is a value nobody knows
// in a statement of the right kind, the tree keeps the script's structure and its variables, and
// the checker can read it (parse.ts `repaired`).
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { prebuiltToken } from './prebuilt.js';
import { placeholder } from './nodes.js';

const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};
const OPENS = table([T.LParen, T.LBracket, T.LBrace]);
const CLOSES = table([T.RParen, T.RBracket, T.RBrace]);
/** Tokens that shape blocks: a line holding one (besides its header's) is not one statement. */
const BLOCK_WORDS = table([T.Let, T.If, T.For, T.End, T.Else, T.Then, T.Do, T.ElseIf, T.While, T.Jump, T.PrebuiltBlock]);
const STARTS_EXPRESSION = table([
  T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.LParen, T.LBracket, T.LBrace, T.Call, T.Calc, T.Not, T.Minus, T.Plus, T.Bang,
]);

/** A line ending in one of these goes on on the next line. */
const RUNS_ON: boolean[] = table([T.Comma, T.LParen, T.LBracket, T.LBrace, T.Assign, T.CompoundAssign, T.Colon, T.Dot, T.Arrow]);
for (const type of T.allTokens) if (type.CATEGORIES?.includes(T.BinaryOperator) || type.CATEGORIES?.includes(T.PrefixOperator)) RUNS_ON[type.tokenTypeIdx!] = true;

const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && token.tokenTypeIdx === type.tokenTypeIdx;
const isThen = (token: IToken | undefined) => is(token, T.Then) || is(token, T.Colon);
const isDo = (token: IToken | undefined) => is(token, T.Do) || is(token, T.Then) || is(token, T.Colon);

/** The index range [from, to] of the tokens of each line, by line number. */
function lineRanges(tokens: IToken[]): Map<number, [number, number]> {
  const ranges = new Map<number, [number, number]>();
  for (let i = 0; i < tokens.length; i++) {
    const line = tokens[i]!.startLine!;
    const range = ranges.get(line);
    if (range === undefined) ranges.set(line, [i, i]);
    else range[1] = i;
  }
  return ranges;
}

/** Whether tokens[from..to] hold no block word and their brackets balance. */
function selfContained(tokens: IToken[], from: number, to: number): boolean {
  if (from > to) return false;
  let depth = 0;
  for (let i = from; i <= to; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (BLOCK_WORDS[type]) return false;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The part of the line [from, to] to stand in for, when the line is one statement whose extent it
 * shows; undefined otherwise.
 */
function isolatedPart(tokens: IToken[], from: number, to: number): [number, number] | undefined {
  // The line must be a whole statement: the line before does not run on into it, nor it into the next.
  const first = tokens[from]!;
  const before = tokens[from - 1];
  if (before !== undefined && RUNS_ON[before.tokenTypeIdx]) return undefined;
  if (RUNS_ON[tokens[to]!.tokenTypeIdx] && !isThen(tokens[to]) && !isDo(tokens[to])) return undefined;
  let start: number;
  let end = to;
  if (is(first, T.If) || is(first, T.ElseIf) || (is(first, T.Else) && is(tokens[from + 1], T.If))) {
    if (!isThen(tokens[to])) return undefined;
    start = is(first, T.Else) ? from + 2 : from + 1;
    end = to - 1;
  } else if (is(first, T.For)) {
    if (!isDo(tokens[to]) || !is(tokens[from + 1], T.Identifier) || !is(tokens[from + 2], T.In)) return undefined;
    start = from + 3;
    end = to - 1;
  } else if (is(first, T.Let)) {
    if (!is(tokens[from + 1], T.Identifier) || !(is(tokens[from + 2], T.Assign) || is(tokens[from + 2], T.CompoundAssign))) return undefined;
    start = from + 3;
  } else if (STARTS_EXPRESSION[first.tokenTypeIdx]) {
    start = from;
  } else {
    return undefined;
  }
  return selfContained(tokens, start, end) ? [start, end] : undefined;
}

/**
 * The tokens with a stand-in for the unreadable part of each of `lines`, and the lines that got
 * one; undefined when none of them is a statement whose extent its line shows.
 */
export function isolateLines(tokens: IToken[], lines: ReadonlySet<number>): { tokens: IToken[]; isolated: Set<number> } | undefined {
  const ranges = lineRanges(tokens);
  const parts: Array<[number, number]> = [];
  const isolated = new Set<number>();
  for (const line of lines) {
    const range = ranges.get(line);
    const part = range && isolatedPart(tokens, range[0], range[1]);
    if (part === undefined) continue;
    parts.push(part);
    isolated.add(line);
  }
  if (parts.length === 0) return undefined;
  parts.sort((a, b) => a[0] - b[0]);
  const out: IToken[] = [];
  let next = 0;
  for (const [from, to] of parts) {
    for (; next < from; next++) out.push(tokens[next]!);
    out.push(prebuiltToken(T.PrebuiltExpression, tokens[from]!, tokens[to]!, placeholder()));
    next = to + 1;
  }
  for (; next < tokens.length; next++) out.push(tokens[next]!);
  return { tokens: out, isolated };
}
