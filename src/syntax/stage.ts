// Deep scripts, parsed bottom-up on the caller's stack. The grammar is recursive descent: every level
// of brackets or blocks costs a few Chevrotain frames, and on Node's default stack a cold parser
// overflows a few hundred levels down, while the language allows 1,000 (LANGUAGE.md §1).
//
// So, for text nested deeper than STAGE_HEIGHT, one walk over the tokens finds each bracket group or
// block as it closes; when a group holds STAGE_HEIGHT levels, the pieces inside it (the expressions
// between its commas, a condition, the statements of a body) are parsed on their own, each a shallow
// parse, and replaced by one token carrying the parsed AST (a PrebuiltExpression or PrebuiltBlock),
// which the grammar accepts as a primary or a body. The group then counts as one level, and so no
// parse, the last included, is ever more than STAGE_HEIGHT + 1 levels deep. Each token is parsed once
// (the stand-ins once more), so this stays linear; text that nests less is parsed directly.
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { beginParse, parseSegment, parseTokens, type ParsedTokens } from './parser.js';
import { prebuiltToken } from './prebuilt.js';
import type { SyntaxProblem } from '../errors.js';

/** Nesting a single parse may reach; anything deeper is parsed in stages. */
export const STAGE_HEIGHT = 24;

const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};
const OPENS = table([T.LParen, T.LBracket, T.LBrace, T.If, T.For, T.While]);
const CLOSES = table([T.RParen, T.RBracket, T.RBrace, T.End]);

/**
 * Parses a script's tokens, in stages when it nests deeper than `height` (STAGE_HEIGHT; tests pass
 * a small height to stage shallow scripts).
 */
export function parseScriptTokens(tokens: IToken[], maxNesting: number, height = STAGE_HEIGHT): ParsedTokens {
  if (maxNesting <= height) return parseTokens(tokens);
  beginParse();
  const problems: SyntaxProblem[] = [];
  const staged = stage(tokens, problems, height);
  const parsed = parseTokens(staged, { fresh: false });
  return { body: parsed.body, comprehensions: parsed.comprehensions, problems: [...problems, ...parsed.problems], notes: parsed.notes, noteRepairs: parsed.noteRepairs };
}

interface Group {
  /** Index in `out` of the opening token. */
  start: number;
  /** Levels of nesting inside the group, itself included once it closes. */
  height: number;
}

function stage(tokens: IToken[], problems: SyntaxProblem[], stageHeight: number): IToken[] {
  const out: IToken[] = [];
  const open: Group[] = [];
  const close = (group: Group, closer: IToken | undefined) => {
    let height = group.height + 1;
    if (height >= stageHeight) {
      collapse(out, group.start, closer, problems);
      height = 1;
    }
    const parent = open[open.length - 1];
    if (parent && parent.height < height) parent.height = height;
  };
  for (const token of tokens) {
    const type = token.tokenTypeIdx;
    if (CLOSES[type]) {
      const group = open.pop();
      if (group) close(group, token);
    }
    out.push(token);
    if (OPENS[type]) open.push({ start: out.length - 1, height: 0 });
  }
  // Groups never closed (a syntax error): their pieces end at the end of the text.
  while (open.length > 0) close(open.pop()!, undefined);
  return out;
}

type Role = 'expression' | 'block' | 'keep';

/**
 * Replaces the contents of the group opened at out[start] (everything after it in `out`) by the
 * same separators and stand-ins for the pieces between them.
 */
function collapse(out: IToken[], start: number, closer: IToken | undefined, problems: SyntaxProblem[]): void {
  const opener = out[start]!;
  const content = out.splice(start + 1);
  const pieces = split(opener, content);
  for (const piece of pieces) {
    if (piece.role === 'keep' || piece.tokens.length === 0 || !piece.tokens.some((t) => OPENS[t.tokenTypeIdx])) {
      out.push(...piece.tokens);
    } else {
      const follower = piece.follower ?? closer;
      const parsed = parseSegment(piece.role, piece.tokens, follower);
      problems.push(...parsed.problems);
      out.push(prebuiltToken(piece.role === 'block' ? T.PrebuiltBlock : T.PrebuiltExpression, piece.tokens[0]!, piece.tokens[piece.tokens.length - 1]!, parsed.result));
    }
    if (piece.separator) out.push(piece.separator);
  }
}

interface Piece {
  role: Role;
  tokens: IToken[];
  /** The token after the piece inside the group (a separator), or undefined for the last piece. */
  separator?: IToken;
  follower?: IToken;
}

/**
 * The pieces of a group's contents at its own level: for brackets, what lies between commas (for
 * braces, what follows each key's `:`; for a comprehension's square brackets, the element, the list
 * after IN and the condition after IF); for blocks, the condition or list expression and the bodies.
 */
function split(opener: IToken, content: IToken[]): Piece[] {
  const pieces: Piece[] = [];
  const type = opener.tokenTypeIdx;
  const isBlock = type === T.If.tokenTypeIdx || type === T.For.tokenTypeIdx || type === T.While.tokenTypeIdx;
  const isBrace = type === T.LBrace.tokenTypeIdx;
  const isSquare = type === T.LBracket.tokenTypeIdx;
  // A FOR's head (`x IN`) and an object's keys are kept as they are.
  let role: Role = type === T.For.tokenTypeIdx || isBrace ? 'keep' : 'expression';
  let current: IToken[] = [];
  let depth = 0;
  const cut = (separator: IToken, nextRole: Role) => {
    pieces.push({ role, tokens: current, separator, follower: separator });
    current = [];
    role = nextRole;
  };
  for (const token of content) {
    const t = token.tokenTypeIdx;
    if (depth === 0) {
      if (!isBlock && t === T.Comma.tokenTypeIdx) {
        cut(token, isBrace ? 'keep' : 'expression');
        continue;
      }
      if (isBrace && role === 'keep' && (t === T.Colon.tokenTypeIdx || t === T.Assign.tokenTypeIdx)) {
        cut(token, 'expression');
        continue;
      }
      if (isSquare) {
        // `[element FOR x IN list IF condition]`: the comprehension's `x` is kept as it is.
        if (t === T.ComprehensionFor.tokenTypeIdx) {
          cut(token, 'keep');
          continue;
        }
        if ((t === T.In.tokenTypeIdx && role === 'keep') || t === T.ComprehensionIf.tokenTypeIdx) {
          cut(token, 'expression');
          continue;
        }
      }
      if (isBlock) {
        if (t === T.Then.tokenTypeIdx || t === T.Do.tokenTypeIdx || (t === T.Colon.tokenTypeIdx && (role as Role) !== 'block')) {
          cut(token, 'block');
          continue;
        }
        if (t === T.Else.tokenTypeIdx) {
          cut(token, 'block');
          continue;
        }
        if (t === T.ElseIf.tokenTypeIdx) {
          cut(token, 'expression');
          continue;
        }
        if (t === T.In.tokenTypeIdx && role === 'keep') {
          cut(token, 'expression');
          continue;
        }
      }
    }
    if (OPENS[t]) depth++;
    else if (CLOSES[t] && depth > 0) depth--;
    current.push(token);
  }
  pieces.push({ role, tokens: current });
  return pieces;
}

