// What is still open at the end of a piece of text: for an interactive session, which must tell an
// entry that is not finished yet (an IF without its END, an open bracket, a string without its
// closing quote) from one that is wrong and should be reported.
import * as T from './tokens.js';
import { tokenize } from './lexer.js';

export interface OpenAtEnd {
  /** IF, FOR and WHILE blocks without their END. */
  blocks: number;
  /** `(`, `[` and `{` not closed. */
  brackets: number;
  /** The text ends in a string with no closing quote. */
  string: boolean;
}

const NAME_BEFORE = new Set([T.Let.tokenTypeIdx, T.For.tokenTypeIdx, T.ComprehensionFor.tokenTypeIdx, T.Dot.tokenTypeIdx]);
const OPENS_BLOCK = new Set([T.If.tokenTypeIdx, T.For.tokenTypeIdx, T.While.tokenTypeIdx]);
const OPENS_BRACKET = new Set([T.LParen.tokenTypeIdx, T.LBracket.tokenTypeIdx, T.LBrace.tokenTypeIdx]);
const CLOSES_BRACKET = new Set([T.RParen.tokenTypeIdx, T.RBracket.tokenTypeIdx, T.RBrace.tokenTypeIdx]);

/**
 * Counts what `source` leaves open at its end, as the parser would see it (lowercase `if ... then`
 * counts as an IF). An entry is unfinished when any count is positive; whether it is also wrong is
 * for `parse` to say once it is finished.
 */
export function openAtEnd(source: string): OpenAtEnd {
  const { tokens } = tokenize(source, { unfinished: true });
  let blocks = 0;
  let brackets = 0;
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (i > 0 && NAME_BEFORE.has(tokens[i - 1]!.tokenTypeIdx)) continue; // `LET END = 1` is no block
    if (OPENS_BLOCK.has(type)) blocks++;
    else if (type === T.End.tokenTypeIdx) blocks = Math.max(0, blocks - 1);
    else if (OPENS_BRACKET.has(type)) brackets++;
    else if (CLOSES_BRACKET.has(type)) brackets = Math.max(0, brackets - 1);
  }
  return { blocks, brackets, string: endsInOpenString(source) };
}

/** True when the last line has an odd number of unescaped double quotes outside comments. */
function endsInOpenString(source: string): boolean {
  const lastLine = source.slice(Math.max(source.lastIndexOf('\n'), source.lastIndexOf('\r')) + 1);
  let inString = false;
  for (let i = 0; i < lastLine.length; i++) {
    const char = lastLine[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '/' && lastLine[i + 1] === '/') break;
  }
  return inString;
}
