// When is a REPL entry finished? Decided from the tokens and the grammar, never from the wording of
// error messages: an entry goes on to a `...` line while it is the start of some valid script that
// is not complete yet (an open IF/FOR, bracket or string, or a statement cut short like `LET x =`).
// Anything else is run at once: a complete script runs, and a broken one reports its error.
//
// Two questions, two mechanisms. What is still open at the end (blocks, brackets, a string) is
// openAtEnd's to say (src/syntax/incomplete.ts). But an open block does not make an entry
// unfinished when it is already wrong (`IF x THEN )` should be reported now, not after an END),
// and a statement cut short leaves nothing open (`LET x =`, `x +`, `CALL tool`): both need the
// grammar itself, asked through Chevrotain's content assist (canContinue).
import type { IToken } from '../syntax/chevrotain.js';
import { openAtEnd } from '../syntax/incomplete.js';
import { tokenize } from '../syntax/lexer.js';
import { canContinue } from '../syntax/parser.js';
import * as T from '../syntax/tokens.js';

export type EntryStatus =
  | { complete: true }
  /** `openString`: the last line ends inside a string, so the next line continues that string. */
  | { complete: false; openString: boolean };

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
  const open = openAtEnd(text);
  const openString = open.string;
  const unfinished = { complete: false as const, openString };
  const anythingOpen = openString || open.blocks > 0 || open.brackets > 0;
  // Lexed as if the open string were closed, so that it is one ordinary string token (a string
  // that is wrong anyway, like one cut after a backslash, stays wrong and is reported).
  const lexed = tokenize(openString ? `${text}"` : text, { unfinished: true });
  if (lexed.problems.length > 0) return { complete: true };
  if (lexed.tokens.length > MAX_CHECKED_TOKENS) return anythingOpen ? unfinished : { complete: true };
  if (!canContinue(lexed.tokens)) return { complete: true };
  if (anythingOpen) return unfinished;
  if (!canContinue([...lexed.tokens, STATEMENT_START])) return unfinished;
  return { complete: true };
}
