// When is a REPL entry finished? Decided from the tokens and the grammar, never from the wording of
// error messages: an entry goes on to a `...` line while it is the start of some valid script that
// is not complete yet (an open IF/FOR, bracket or string, or a statement cut short like `LET x =`).
// Anything else is run at once: a complete script runs, and a broken one reports its error.
import type { IToken } from '../syntax/chevrotain.js';
import { tokenize } from '../syntax/lexer.js';
import { canContinue } from '../syntax/parser.js';
import * as T from '../syntax/tokens.js';

export type EntryStatus =
  | { complete: true }
  /** `openString`: the last line ends inside a string, so the next line continues that string. */
  | { complete: false; openString: boolean };

const OPENS = new Set([T.If, T.For, T.LParen, T.LBracket, T.LBrace]);
const CLOSES = new Set([T.End, T.RParen, T.RBracket, T.RBrace]);

// A token that can only begin a statement: appended to an entry, it is accepted exactly when the
// entry stops at a statement boundary.
const STATEMENT_START: IToken = { image: 'LET', startOffset: Number.NaN, tokenType: T.Let, tokenTypeIdx: T.Let.tokenTypeIdx! };

/**
 * Asking the grammar costs time in proportion to the entry, and is asked again at every line. Past
 * this size (a few hundred lines) only open blocks, brackets and strings keep an entry going, and
 * any other error shows when the entry is run.
 */
const MAX_CHECKED_TOKENS = 2000;

export function entryStatus(text: string): EntryStatus {
  if (text.trim() === '') return { complete: true };
  const openString = endsInOpenString(text);
  // Lexed as if the open string were closed, so that it is one ordinary string token.
  const lexed = tokenize(openString ? `${text}"` : text);
  if (lexed.problems.length > 0) return { complete: true };
  if (lexed.tokens.length > MAX_CHECKED_TOKENS) return openString || openDepth(lexed.tokens) > 0 ? { complete: false, openString } : { complete: true };
  if (!canContinue(lexed.tokens)) return { complete: true };
  if (openString || openDepth(lexed.tokens) > 0) return { complete: false, openString };
  if (!canContinue([...lexed.tokens, STATEMENT_START])) return { complete: false, openString: false };
  return { complete: true };
}

/**
 * Blocks and brackets still open at the end. In a valid prefix of a script every END and closing
 * bracket closes the innermost opener, so counting is exact.
 */
function openDepth(tokens: IToken[]): number {
  let depth = 0;
  for (const token of tokens) {
    if (OPENS.has(token.tokenType)) depth++;
    else if (CLOSES.has(token.tokenType)) depth--;
  }
  return depth;
}

/**
 * True when the text's last line ends inside a double-quoted string: the lexer's last token is a
 * string with no closing quote. A string cut after a lone backslash is a broken escape, not an open
 * string.
 */
export function endsInOpenString(text: string): boolean {
  const tokens = tokenize(text).tokens;
  const last = tokens[tokens.length - 1];
  if (last === undefined || last.tokenType !== T.StringLiteral) return false;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const rest = text.slice(last.startOffset + bom);
  if (!rest.startsWith('"') || /[\r\n]/.test(rest)) return false;
  const closed = /^"(?:[^"\\]|\\.)*"/.exec(rest);
  if (closed) return false;
  const trailingBackslashes = /\\*$/.exec(rest)![0].length;
  return trailingBackslashes % 2 === 0;
}
