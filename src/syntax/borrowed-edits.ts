// What the rewrites of borrowed constructs (borrowed.ts, borrowed-operators.ts) share: the edits
// of one pass over the token stream, questions about tokens (their type, their line, the bracket
// that matches), new tokens placed where the text had others, and the problem each rewrite reports.
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { retype } from './mistakes.js';
import { repaired, type ProblemList } from './problems.js';

/** A lookup by token type (tokenTypeIdx): true for the types given. */
export const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};
export const OPENS = table([T.LParen, T.LBracket, T.LBrace]);
export const CLOSES = table([T.RParen, T.RBracket, T.RBrace]);

export const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && token.tokenTypeIdx === type.tokenTypeIdx;
export const named = (token: IToken | undefined, ...names: string[]): boolean => is(token, T.Identifier) && names.includes(token!.image);
export const sameLine = (a: IToken, b: IToken | undefined): boolean => b !== undefined && b.startLine === a.startLine;

/** The edits of one pass: tokens to remove, to put in place of others, and to insert. */
export class Edits {
  private readonly removed = new Set<number>();
  private readonly replaced = new Map<number, IToken[]>();
  private readonly before = new Map<number, IToken[]>();

  constructor(readonly tokens: IToken[]) {}

  remove(from: number, to = from): void {
    for (let i = from; i <= to; i++) this.removed.add(i);
  }

  isRemoved(i: number): boolean {
    return this.removed.has(i) || this.replaced.has(i);
  }

  replace(i: number, tokens: IToken[]): void {
    this.replaced.set(i, tokens);
  }

  insertBefore(i: number, tokens: IToken[]): void {
    this.before.set(i, [...(this.before.get(i) ?? []), ...tokens]);
  }

  get empty(): boolean {
    return this.removed.size === 0 && this.replaced.size === 0 && this.before.size === 0;
  }

  apply(): IToken[] {
    if (this.empty) return this.tokens;
    const out: IToken[] = [];
    for (let i = 0; i <= this.tokens.length; i++) {
      const first = this.before.get(i);
      if (first) out.push(...first);
      if (i === this.tokens.length) break;
      const replacement = this.replaced.get(i);
      if (replacement) out.push(...replacement);
      else if (!this.removed.has(i)) out.push(this.tokens[i]!);
    }
    return out;
  }
}

/**
 * How far the passes look for a matching bracket. The constructs they read are short; text with
 * thousands of brackets left open must not cost a walk to its end for each one.
 */
const SCAN_LIMIT = 1024;

/** The index of the bracket that closes the one opened at `open` (within `limit` tokens), or -1. */
export function closing(tokens: IToken[], open: number, limit = SCAN_LIMIT): number {
  let depth = 0;
  const end = Math.min(tokens.length, open + limit);
  for (let i = open; i < end; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth === 0) return i;
  }
  return -1;
}

/** The index of the bracket that opens the one closed at `close` (within SCAN_LIMIT tokens), or -1. */
export function opening(tokens: IToken[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - SCAN_LIMIT; i--) {
    const type = tokens[i]!.tokenTypeIdx;
    if (CLOSES[type]) depth++;
    else if (OPENS[type] && --depth === 0) return i;
  }
  return -1;
}

/** Tokens as text, with a space where the source had one. */
export function textOf(tokens: readonly IToken[]): string {
  let text = '';
  for (let k = 0; k < tokens.length; k++) {
    const previous = tokens[k - 1];
    if (previous && (tokens[k]!.startOffset > previous.startOffset + previous.image.length || tokens[k]!.startOffset === previous.startOffset)) text += ' ';
    text += tokens[k]!.image;
  }
  return text;
}

/** A new token of `type` at the place of `near` (the grammar reads its position for the tree). */
export const make = (near: IToken, type: TokenType, image: string): IToken => retype(near, type, image);

export function report(problems: ProblemList, token: IToken, message: string, fixed = true): void {
  const problem = { line: token.startLine!, column: token.startColumn!, message };
  problems.add(fixed ? repaired(problem) : problem);
}
