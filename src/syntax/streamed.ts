// Long text without mistakes, parsed a run of statements at a time. The ordinary way (parse.ts)
// lexes the whole text and runs every pass over all its tokens before the grammar starts, so every
// token is alive at once: about 90 bytes each, 1.2 million of them for the 4 MB of a 100,000-statement
// script, twice what its tree takes. Here the text is lexed a slice at a time, and the tokens up to the last top-level
// statement that has started are put through the passes, the block check and the grammar before the
// next slice is lexed: one piece's tokens are alive at a time, the rest are already garbage.
//
// A piece ends where a LET, IF or FOR starts a line outside any bracket or block. Nothing the lexer's
// passes or the grammar do reaches across such a line without a problem to show for it, so the
// pieces' statements, one after another, are the statements of the whole text. Problems are another
// matter: what they say may depend on the whole text (how blocks balance, what a later line shows),
// so at the first problem of any kind this gives up, and the caller parses the whole text the
// ordinary way, whose report is the one a script always gets. (A piece can also show a problem the
// whole text has not: `TRUE` read as a name, bound by a LET in another piece. Then it gives up too.)
import type { IToken, TokenType } from './chevrotain.js';
import type * as A from './ast.js';
import * as T from './tokens.js';
import { finishTokens, lexSlices, withoutByteOrderMark, type Between } from './lexer.js';
import { notTextProblem } from './source.js';
import { balanceBlocks } from './blocks.js';
import { ProblemList } from './problems.js';
import { parseScriptTokens } from './stage.js';

export interface StreamedStatements {
  body: A.Statement[];
  /** How many list comprehensions the body holds. */
  comprehensions: number;
}

const table = (types: TokenType[], value: number): number[] => {
  const out: number[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = value;
  return out;
};
const BRACKET = table([T.LParen, T.LBracket, T.LBrace], 1);
for (const type of [T.RParen, T.RBracket, T.RBrace]) BRACKET[type.tokenTypeIdx!] = -1;
// Inside brackets a FOR or IF belongs to a list comprehension and opens no block.
const BLOCK = table([T.If, T.For, T.While], 1);
BLOCK[T.End.tokenTypeIdx!] = -1;
const STARTS_STATEMENT = table([T.Let, T.If, T.For], 1);
/**
 * Tokens a piece may grow to before this gives up: so long a piece is one huge statement, or (more
 * likely) a bracket or block left open near the top, which would otherwise be found only at the end,
 * after the whole text was parsed once for nothing.
 */
export const MAX_PIECE_TOKENS = 1 << 16;

/**
 * The statements of `source`, or undefined when it has a problem anywhere (then parse it the
 * ordinary way for its report). `between` is called after each slice of about `sliceChars` is lexed
 * and after its piece is parsed (and, for a piece of many statements, as its passes go).
 */
export async function parseStreamed(source: string, between: Between, sliceChars: number): Promise<StreamedStatements | undefined> {
  const steps = streamStatements(source, sliceChars);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await between();
  }
}

/** parseStreamed in one step, on the caller's stack (parse.ts, for long text parsed synchronously). */
export function parseStreamedNow(source: string, sliceChars: number): StreamedStatements | undefined {
  const steps = streamStatements(source, sliceChars);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** The work of parseStreamed, pausing (yield) where it calls `between`. */
function* streamStatements(text: string, sliceChars: number): Generator<void, StreamedStatements | undefined, void> {
  const source = withoutByteOrderMark(text);
  if (notTextProblem(source) !== undefined) return undefined;
  const out: StreamedStatements = { body: [], comprehensions: 0 };
  let pending: IToken[] = [];
  let brackets = 0;
  let blocks = 0;
  let previousLine = 0;
  for (const slice of lexSlices(source, sliceChars)) {
    if (slice.errors.length > 0 || (slice.groups.mistakes?.length ?? 0) > 0) return undefined;
    // Where the last statement that starts a line at the top level begins: the piece ends before it.
    let cut = -1;
    for (const token of slice.tokens) {
      const type = token.tokenTypeIdx;
      if (brackets === 0 && blocks === 0 && STARTS_STATEMENT[type] === 1 && token.startLine! > previousLine) cut = pending.length;
      previousLine = token.startLine!;
      pending.push(token);
      brackets += BRACKET[type] ?? 0;
      if (brackets === 0) blocks += BLOCK[type] ?? 0;
      // A closer with nothing open is a mistake the piece's parse reports.
      if (brackets < 0 || blocks < 0) return undefined;
    }
    const last = slice.end >= source.length;
    if (last) cut = pending.length;
    if (cut <= 0 && pending.length > MAX_PIECE_TOKENS) return undefined;
    if (cut > 0) {
      yield;
      const piece = cut === pending.length ? pending : pending.slice(0, cut);
      pending = cut === pending.length ? [] : pending.slice(cut);
      if (!(yield* parsePiece(source, piece, out))) return undefined;
    }
    if (!last) yield;
  }
  return out;
}

/** Parses one piece into `out`; false at its first problem. */
function* parsePiece(source: string, piece: IToken[], out: StreamedStatements): Generator<void, boolean, void> {
  const lexed = yield* finishTokens(source, piece);
  if (lexed.problemCount > 0 || lexed.tooDeep) return false;
  const blockProblems = new ProblemList();
  const tokens = balanceBlocks(lexed.tokens, blockProblems);
  if (blockProblems.count > 0) return false;
  const parsed = parseScriptTokens(tokens, lexed.maxNesting);
  if (parsed.problems.length > 0) return false;
  for (const statement of parsed.body) out.body.push(statement);
  out.comprehensions += parsed.comprehensions;
  return true;
}
