// Which FOR and IF belong to a list comprehension (`[p.name FOR p IN products IF p.price > 100]`).
//
// A statement's FOR and IF open a block that an END closes, and several passes rely on that before
// the grammar runs: the block pass matches each with its END (blocks.ts), the mistakes pass follows
// the blocks it is in, the lexer counts them as nesting, and the staged parser splits them into
// pieces. A comprehension's FOR and IF have no END. So one walk over the tokens, before any of
// those passes, gives them types of their own (ComprehensionFor, ComprehensionIf), which no pass
// takes for a block and which the grammar's list rule asks for.
//
// A FOR is a comprehension's when it stands directly inside square brackets (not inside a deeper
// `(` or `{` there) and those brackets close with their `]`; so is an IF beside such a FOR in the
// same brackets (after it, where it belongs, or before it, as Python's `[a if c else b for ...]`
// puts it, which the grammar then reports). No statement can stand inside brackets, so nothing
// else is taken. A `[` left open (a forgotten `]`) leaves its FOR a statement's, so the FOR loop
// that follows a forgotten `]` is still matched with its END and only the bracket is reported.
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { retype } from './mistakes.js';

const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};
/** The only tokens the walk looks at, by tokenTypeIdx. */
const RELEVANT = table([T.LParen, T.LBracket, T.LBrace, T.RParen, T.RBracket, T.RBrace, T.For, T.If]);
const OPENS = table([T.LParen, T.LBracket, T.LBrace]);
const LBRACKET = T.LBracket.tokenTypeIdx!;
const RBRACKET = T.RBracket.tokenTypeIdx!;
const FOR = T.For.tokenTypeIdx!;

/** An open bracket: its type, and the FOR and IF tokens standing directly inside it (square brackets only). */
interface Group {
  type: number;
  candidates: number[] | null;
  /** Whether one of the candidates is a FOR: without one, there is no comprehension. */
  hasFor: boolean;
}

/**
 * Gives the FOR and IF of every comprehension in `tokens` their comprehension types, in place.
 * With `unfinished` (text still being typed, as in the REPL), brackets still open at the end count
 * as comprehensions' too: their `]` has not been typed yet.
 */
export function markComprehensions(tokens: IToken[], unfinished = false): void {
  const open: Group[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (!RELEVANT[type]) continue;
    if (OPENS[type]) {
      open.push({ type, candidates: null, hasFor: false });
      continue;
    }
    const top = open[open.length - 1];
    if (type === FOR || type === T.If.tokenTypeIdx) {
      if (top === undefined || top.type !== LBRACKET) continue;
      (top.candidates ??= []).push(i);
      if (type === FOR) top.hasFor = true;
      continue;
    }
    // A closer closes the innermost bracket, matching or not (the grammar reports a mismatch).
    const group = open.pop();
    if (group?.hasFor && group.type === LBRACKET && type === RBRACKET) retypeCandidates(tokens, group.candidates!);
  }
  if (unfinished) for (const group of open) if (group.hasFor) retypeCandidates(tokens, group.candidates!);
}

function retypeCandidates(tokens: IToken[], candidates: number[]): void {
  for (const at of candidates) {
    const token = tokens[at]!;
    tokens[at] = retype(token, token.tokenTypeIdx === FOR ? T.ComprehensionFor : T.ComprehensionIf);
  }
}
