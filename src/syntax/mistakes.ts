// The mistakes pass: one walk over the token stream that recognises what other languages taught the
// author (lowercase keywords, ELSEIF, WHILE, RETURN, True/None, `x = 1` without LET, PRINT without
// parentheses, a tool named without CALL) where it stands, reports one problem for each, and
// rewrites the stream so the grammar parses the structure the author meant: `if x then ... end` is
// an IF, so nothing after it cascades.
//
// Whether a word is a mistake is decided by its position, because these words are also legal names
// (LANGUAGE.md §1: lowercase `let` is an identifier). A lowercase keyword counts as a keyword only
// where a name could not sensibly stand: `end` closes a block only at the start of a statement while
// a block is open, `and` joins two operands, `let` starts `let x = ...`. After `.`, after LET or FOR,
// as an object key, or anywhere inside an expression, the same word stays a name: `range.end`,
// `{ end: 5 }`, `LET end = 3`, `SLICE(xs, 0, end)`. True, None and their kin are reported only when
// the script never binds that name itself.
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { callToolHint, constructHint, keywordCaseHint, literalHint, LITERAL_WORDS, MISTAKE_WORDS, printHint } from './hints.js';
import { repaired, type ProblemList } from './problems.js';

// Open blocks, as the pass sees them: which part of the block the walk is in.
const enum Part {
  IfCondition,
  IfBody,
  ForHead,
  ForIterable,
  LoopBody,
  WhileCondition,
}

const index = (types: TokenType[]): boolean[] => {
  const table: boolean[] = [];
  for (const type of types) table[type.tokenTypeIdx!] = true;
  return table;
};

const ENDS_OPERAND = index([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.RParen, T.RBracket, T.RBrace]);
const STARTS_OPERAND = index([
  T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.LParen, T.LBracket, T.LBrace,
  T.Not, T.Bang, T.Minus, T.Plus, T.Call, T.Calc,
]);
/** After these a new statement starts. */
const BEFORE_STATEMENT = index([T.Then, T.Else, T.Do, T.End, T.Colon]);
/** Statement keywords: seeing one inside brackets means a bracket was left open. */
const STATEMENT_KEYWORDS = index([T.Let, T.If, T.For, T.End, T.Else, T.Then, T.Do]);
const OPENS = index([T.LParen, T.LBracket, T.LBrace]);
const CLOSES = index([T.RParen, T.RBracket, T.RBrace]);
const ASSIGNS = index([T.Assign, T.CompoundAssign]);
/** Where an operand (a value) is expected, before a name that then reads as a value. */
const VALUE_BEFORE = index([T.Assign, T.LParen, T.Comma, T.Colon, T.LBracket]);

const IDENTIFIER = T.Identifier.tokenTypeIdx!;
const END = T.End.tokenTypeIdx!;
/** Tokens that change the structure the pass follows (trackStructure). */
const STRUCTURAL = index([
  T.LParen, T.LBracket, T.LBrace, T.RParen, T.RBracket, T.RBrace, T.Let, T.If, T.For, T.End, T.Else, T.Then, T.Do,
  T.ElseIf, T.Colon, T.In, T.While, T.ComprehensionFor,
]);

const KEYWORD_TYPES: ReadonlyMap<string, TokenType> = new Map([
  ['LET', T.Let], ['CALL', T.Call], ['IF', T.If], ['THEN', T.Then], ['ELSE', T.Else], ['END', T.End], ['FOR', T.For],
  ['IN', T.In], ['DO', T.Do], ['AND', T.And], ['OR', T.Or], ['NOT', T.Not], ['CALC', T.Calc],
]);
const LITERAL_TYPES: ReadonlyMap<string, TokenType> = new Map([['true', T.True], ['false', T.False], ['null', T.Null]]);

export function retype(token: IToken, tokenType: TokenType, image = token.image): IToken {
  return { ...token, tokenType, tokenTypeIdx: tokenType.tokenTypeIdx!, image };
}

const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && token.tokenTypeIdx === type.tokenTypeIdx;
const isIdentifier = (token: IToken | undefined): boolean => is(token, T.Identifier);
const sameLine = (a: IToken, b: IToken | undefined): boolean => b !== undefined && b.startLine === a.startLine;

/** Tokens walked between two pauses of a sliced parse (a power of two; see lexer.ts). */
export const STEP_MASK = 0x7fff;

/**
 * Rewrites `tokens` in place (and returns the possibly shorter list); problems go to `problems`. A
 * generator that pauses every 32,768 tokens, so that a sliced parse can let the event loop in; the
 * lexer drives it to its end.
 */
export function* recogniseMistakes(tokens: IToken[], problems: ProblemList): Generator<void, IToken[], void> {
  const state: Structure = { blocks: [], depth: 0, brackets: [], comprehensionAt: -1 };
  const bound = new Set<string>();
  const literals: Array<{ at: number; literal: 'true' | 'false' | 'null' }> = [];
  let removed = false;
  /** Tokens to insert before (or after) a token of the stream, where the pass repairs what is missing. */
  const before = new Map<IToken, IToken[]>();
  const after = new Map<IToken, IToken[]>();
  const report = (token: IToken, message: string, fixed = false) => {
    const problem = { line: token.startLine!, column: token.startColumn!, message };
    problems.add(fixed ? repaired(problem) : problem);
  };
  const insert = { before, after };

  let previous: IToken | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    let token = tokens[i]!;
    if (token === REMOVED) continue;
    const next = tokens[i + 1];
    /** An ELSE in a comprehension (a mistake the grammar reports): not an IF's, so not a block's. */
    let elseInBrackets = false;

    if (token.tokenTypeIdx === IDENTIFIER) {
      const top = state.blocks[state.blocks.length - 1];
      const atStatementStart =
        state.depth === 0 && (previous === undefined || ENDS_OPERAND[previous.tokenTypeIdx] === true || BEFORE_STATEMENT[previous.tokenTypeIdx] === true);
      const name = token.image;
      if (is(previous, T.Let) || is(previous, T.For) || is(previous, T.ComprehensionFor) || (is(previous, T.Comma) && top === Part.ForHead)) {
        // A name being bound: always a name. Kept only if it could be taken for a literal (True,
        // None...): a long script binds tens of thousands of other names.
        if (LITERAL_WORDS.has(name)) bound.add(name);
      } else if (!is(previous, T.Dot) && !(state.depth > 0 && is(next, T.Colon))) {
        // (after `.` or as an object key it is always a name)
        const word = MISTAKE_WORDS.get(name);
        let type: TokenType | undefined;
        let message: string | undefined;
        /** Whether the retyped token is what the author meant there (problems.ts). */
        let fixed = false;
        switch (word?.kind) {
          case 'keyword':
            if (comprehensionWord(word.keyword, tokens, i, previous, state)) {
              // Python's `[x for x in xs if x]`: the comprehension's FOR or IF, lowercase.
              type = word.keyword === 'FOR' ? T.ComprehensionFor : word.keyword === 'IF' ? T.ComprehensionIf : T.Else;
              message = word.keyword === 'FOR' ? comprehensionCaseHint(tokens, i) : keywordCaseHint(word.keyword);
              elseInBrackets = type === T.Else;
              fixed = type !== T.Else;
            } else if (isKeywordHere(word.keyword, tokens, i, previous, top, atStatementStart, state.blocks.length > 0)) {
              type = KEYWORD_TYPES.get(word.keyword)!;
              // `x in list` outside a FOR header is reported by the expression builder ("use CONTAINS");
              // after a comprehension's `FOR x` the grammar takes it as the IN it is, so it is reported here.
              if (!(word.keyword === 'IN' && top !== Part.ForHead && !is(tokens[i - 2], T.ComprehensionFor))) message = keywordCaseHint(word.keyword);
              fixed = true;
            }
            break;
          case 'elseif':
            if (atStatementStart && top === Part.IfBody) [type, message, fixed] = [T.ElseIf, constructHint(name), true];
            break;
          case 'while':
            if (atStatementStart && next !== undefined && STARTS_OPERAND[next.tokenTypeIdx]) [type, message] = [T.While, constructHint(name)];
            break;
          case 'jump':
            if (atStatementStart) [type, message] = [T.Jump, constructHint(name)];
            break;
          case 'end':
            // (`fi` and `done` are names too: only a word alone on its line closes a block.)
            if (atStatementStart && state.blocks.length > 0 && (!/^(fi|done)$/i.test(name) || !sameLine(token, next))) [type, message, fixed] = [T.End, constructHint(name), true];
            break;
          case 'literal':
            if (!is(next, T.Assign)) literals.push({ at: i, literal: word.literal });
            break;
          case 'print':
            if (atStatementStart && sameLine(token, next) && STARTS_OPERAND[next!.tokenTypeIdx] && !is(next, T.LParen)) {
              // `PRINT total`: read as PRINT(total), up to the end of the line, when its brackets balance there.
              const last = lastOnLine(tokens, i + 1);
              if (last !== undefined) {
                token = tokens[i] = retype(token, T.Identifier, 'PRINT');
                insert.after.set(token, [retype(next!, T.LParen, '(')]);
                insert.after.set(tokens[last]!, [...(insert.after.get(tokens[last]!) ?? []), retype(tokens[last]!, T.RParen, ')')]);
              }
              report(token, printHint(name, restOfLine(tokens, i + 1)), last !== undefined);
            }
            break;
        }
        if (type) {
          token = tokens[i] = retype(token, type);
          if (message) report(token, message, fixed);
        } else if (word === undefined || word.kind === 'print') {
          reportNameMisuse(tokens, i, previous, atStatementStart, report, insert);
        }
      }
    }

    // `END IF` / `END FOR` at the end of a line: END alone closes any block.
    if (token.tokenTypeIdx === END && sameLine(token, next) && /^(if|for|while)$/i.test(next!.image) && !sameLine(next!, tokens[i + 2])) {
      report(next!, `write END alone: END closes any block (there is no END ${next!.image.toUpperCase()})`, true);
      tokens[i + 1] = REMOVED;
      removed = true;
    }

    if (STRUCTURAL[token.tokenTypeIdx] && !elseInBrackets && !(token.tokenTypeIdx === ELSE_IDX && insideComprehensionBrackets(tokens, i, state))) trackStructure(token, state);
    previous = token;
  }

  for (const { at, literal } of literals) {
    const token = tokens[at]!;
    if (bound.has(token.image)) continue;
    tokens[at] = retype(token, LITERAL_TYPES.get(literal)!);
    report(token, literalHint(literal), true);
  }
  if (before.size === 0 && after.size === 0) return removed ? tokens.filter((t) => t !== REMOVED) : tokens;
  const out: IToken[] = [];
  for (const token of tokens) {
    if (token === REMOVED) continue;
    const first = before.get(token);
    if (first) out.push(...first);
    out.push(token);
    const then = after.get(token);
    if (then) out.push(...then);
  }
  return out;
}

/**
 * The index of the last token on the line that starts at `start`, when the brackets opened on that
 * line close on it (so the line is one complete piece); undefined otherwise.
 */
function lastOnLine(tokens: IToken[], start: number): number | undefined {
  let depth = 0;
  let i = start;
  for (; i < tokens.length && tokens[i]!.startLine === tokens[start]!.startLine; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth < 0) return undefined;
    else if (STATEMENT_KEYWORDS[type]) return undefined;
  }
  return depth === 0 && i > start ? i - 1 : undefined;
}

/**
 * Python's `[d.amount for d in deals if d.ok]`: one message at the `for` with the whole
 * comprehension as it is written in Nuwa (every keyword uppercase), when it fits on a line.
 */
function comprehensionCaseHint(tokens: IToken[], i: number): string {
  let open = i;
  for (let depth = 0; open > 0; open--) {
    const type = tokens[open - 1]!.tokenTypeIdx;
    if (CLOSES[type]) depth++;
    else if (OPENS[type]) {
      if (depth === 0) break;
      depth--;
    }
  }
  const start = open - 1;
  if (start < 0 || tokens[start]!.tokenTypeIdx !== LBRACKET) return keywordCaseHint('FOR');
  let end = i;
  for (let depth = 0; end < tokens.length; end++) {
    const type = tokens[end]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth < 0) break;
  }
  if (end >= tokens.length || end - start > 40) return keywordCaseHint('FOR');
  const words = tokens.slice(start, end + 1).map((token) => {
    const word = MISTAKE_WORDS.get(token.image);
    return word?.kind === 'keyword' && ['FOR', 'IN', 'IF', 'AND', 'OR', 'NOT'].includes(word.keyword) ? word.keyword : word?.kind === 'literal' ? word.literal : token.image;
  });
  // The example shows only what the comprehension is in Nuwa: not with a part that is another
  // mistake (Python's `x if c else y`, `&&`), which its own message reports.
  const foreign = tokens.slice(start, end + 1).some((token, k) => /^(else|elif)$/i.test(words[k]!) || FOREIGN_OPERATORS[token.tokenTypeIdx] === true);
  if (foreign) return keywordCaseHint('FOR');
  return `keywords are uppercase: write \`FOR\`, as in ${joinTokens(tokens.slice(start, end + 1), words)}`;
}

/** Operators of other languages, which a suggestion never shows. */
const FOREIGN_OPERATORS = index([T.AmpAmp, T.BarBar, T.Bang, T.StrictEquality, T.LessGreater, T.CompoundAssign, T.Increment, T.Arrow, T.Spread]);

/** Tokens as text, a space where the source had one. */
function joinTokens(tokens: IToken[], images = tokens.map((t) => t.image)): string {
  let text = '';
  for (let k = 0; k < tokens.length; k++) {
    const previous = tokens[k - 1];
    if (previous && tokens[k]!.startOffset > previous.startOffset + previous.image.length) text += ' ';
    text += images[k];
  }
  return text;
}

/** The text of the tokens from `start` to the end of its line, as written (for quoting in a message). */
function restOfLine(tokens: IToken[], start: number): string {
  let text = '';
  let end = -1;
  for (let i = start; i < tokens.length && tokens[i]!.startLine === tokens[start]!.startLine; i++) {
    const token = tokens[i]!;
    text += (end >= 0 && token.startOffset > end ? ' ' : '') + token.image;
    end = token.startOffset + token.image.length;
    if (text.length > 40) return '...';
  }
  return text;
}

const REMOVED = { image: '', startOffset: -1, tokenTypeIdx: -1 } as unknown as IToken;

/**
 * Whether a lowercase `for`, `if` or `else` is a list comprehension's: directly inside square
 * brackets, after an operand, `for` before `name in`; `if` after the comprehension's FOR, or before
 * it (and `else` before it), as Python's `[a if c else b for x in xs]` has them.
 */
function comprehensionWord(keyword: string, tokens: IToken[], i: number, previous: IToken | undefined, state: Structure): boolean {
  if (keyword !== 'FOR' && keyword !== 'IF' && keyword !== 'ELSE') return false;
  if (state.brackets[state.brackets.length - 1] !== LBRACKET || previous === undefined || ENDS_OPERAND[previous.tokenTypeIdx] !== true) return false;
  const next = tokens[i + 1];
  if (keyword === 'FOR') return isComprehensionFor(tokens, i);
  if (next === undefined || STARTS_OPERAND[next.tokenTypeIdx] !== true) return false;
  return (keyword === 'IF' && state.comprehensionAt === state.depth) || forFollows(tokens, i);
}

/** `for name in` (any case) at `i`. */
function isComprehensionFor(tokens: IToken[], i: number): boolean {
  const afterNext = tokens[i + 2];
  return (is(tokens[i], T.For) || /^for$/i.test(tokens[i]!.image)) && isIdentifier(tokens[i + 1]) && (is(afterNext, T.In) || /^in$/i.test(afterNext?.image ?? ''));
}

const ELSE_IDX = T.Else.tokenTypeIdx!;

/** Whether the ELSE at `i` stands in a comprehension's brackets (`[a IF c ELSE b FOR x IN xs]`): then it closes no block. */
function insideComprehensionBrackets(tokens: IToken[], i: number, state: Structure): boolean {
  return state.brackets[state.brackets.length - 1] === LBRACKET && forFollows(tokens, i);
}

/** How far forFollows looks: a comprehension's element is short, and hostile text must not make the pass quadratic. */
const LOOK_AHEAD = 200;

/** Whether a comprehension's `for x in` follows `i` in the same brackets (at their level, before they close). */
function forFollows(tokens: IToken[], i: number): boolean {
  let depth = 0;
  for (let j = i + 1; j < tokens.length && j <= i + LOOK_AHEAD; j++) {
    const type = tokens[j]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth < 0) return false;
    else if (depth === 0 && STATEMENT_KEYWORDS[type] && type !== FOR) return false;
    else if (depth === 0 && (type === COMPREHENSION_FOR || isComprehensionFor(tokens, j))) return true;
  }
  return false;
}

function isKeywordHere(keyword: string, tokens: IToken[], i: number, previous: IToken | undefined, top: Part | undefined, atStatementStart: boolean, blockOpen: boolean): boolean {
  const next = tokens[i + 1];
  const afterNext = tokens[i + 2];
  const afterOperand = previous !== undefined && ENDS_OPERAND[previous.tokenTypeIdx] === true;
  const beforeOperand = next !== undefined && STARTS_OPERAND[next.tokenTypeIdx] === true;
  switch (keyword) {
    case 'LET':
      return atStatementStart && isIdentifier(next) && afterNext !== undefined && ASSIGNS[afterNext.tokenTypeIdx] === true;
    case 'IF':
      return (atStatementStart || is(previous, T.Else)) && beforeOperand;
    case 'THEN':
      return top === Part.IfCondition && afterOperand;
    case 'ELSE':
      return top === Part.IfBody && atStatementStart;
    case 'END':
      return blockOpen && atStatementStart;
    case 'FOR':
      return atStatementStart && isIdentifier(next) && (is(afterNext, T.In) || is(afterNext, T.Comma) || /^in$/i.test(afterNext?.image ?? ''));
    case 'IN':
      return top === Part.ForHead ? isIdentifier(previous) : afterOperand && beforeOperand;
    case 'DO':
      return (top === Part.ForIterable || top === Part.WhileCondition) && afterOperand;
    case 'AND':
    case 'OR':
      return afterOperand && beforeOperand;
    case 'NOT':
      return !afterOperand && beforeOperand;
    case 'CALL':
      return isIdentifier(next) && (is(afterNext, T.LBrace) || is(afterNext, T.Dot) || is(afterNext, T.LParen));
    case 'CALC':
      return is(next, T.LBrace);
  }
  return false;
}

/**
 * An ordinary name in a place that shows a mistake: `get_weather { ... }` (CALL forgotten),
 * `total = 1` at the start of a statement (LET forgotten), `item.price = 2` (objects cannot be
 * changed in place). Each is read as what it means, with the keyword inserted: CALL get_weather
 * { ... }, LET total = 1, and LET item.price = 2, whose LET rule suggests SET (grammar.ts).
 */
function reportNameMisuse(
  tokens: IToken[],
  i: number,
  previous: IToken | undefined,
  atStatementStart: boolean,
  report: (token: IToken, message: string, fixed?: boolean) => void,
  insert: { before: Map<IToken, IToken[]> },
): void {
  const token = tokens[i]!;
  const next = tokens[i + 1];
  if (next === undefined) return;
  if (is(next, T.LBrace) && (atStatementStart || (previous !== undefined && VALUE_BEFORE[previous.tokenTypeIdx] === true))) {
    report(token, callToolHint(token.image), true);
    insert.before.set(token, [retype(token, T.Call, 'CALL')]);
    return;
  }
  if (!atStatementStart) return;
  if (is(next, T.Assign)) {
    report(token, `to set a variable, write LET ${token.image} = ...`, true);
    insert.before.set(token, [retype(token, T.Let, 'LET')]);
    return;
  }
  // `total += x`: the lexer reported the `+=`; the LET rule reads it as LET total = total + x.
  if (is(next, T.CompoundAssign)) {
    insert.before.set(token, [retype(token, T.Let, 'LET')]);
    return;
  }
  // A member or index chain, then `=` (or `+=`): skip `.name` and balanced `[...]`.
  let j = i + 1;
  while (j < tokens.length) {
    const t = tokens[j]!;
    if (is(t, T.Dot) && isIdentifier(tokens[j + 1])) j += 2;
    else if (is(t, T.LBracket)) {
      let level = 0;
      for (; j < tokens.length; j++) {
        if (OPENS[tokens[j]!.tokenTypeIdx]) level++;
        else if (CLOSES[tokens[j]!.tokenTypeIdx] && --level === 0) break;
      }
      j++;
    } else break;
  }
  if (j > i + 1 && (is(tokens[j], T.Assign) || is(tokens[j], T.CompoundAssign))) {
    // Reported by the LET rule, which knows the whole target.
    insert.before.set(token, [retype(token, T.Let, 'LET')]);
  }
}

const [IF, ELSE_IF, THEN, COLON, FOR, IN, WHILE, DO, COMPREHENSION_FOR, LBRACKET] = [T.If, T.ElseIf, T.Then, T.Colon, T.For, T.In, T.While, T.Do, T.ComprehensionFor, T.LBracket].map(
  (t) => t.tokenTypeIdx!,
);

interface Structure {
  blocks: Part[];
  /** Open brackets. */
  depth: number;
  /** The open brackets' types (tokenTypeIdx), innermost last. */
  brackets: number[];
  /** The depth of the brackets of the comprehension whose FOR was seen last, while they are open; else -1. */
  comprehensionAt: number;
}

/** Follows blocks and brackets, for the position rules above. */
function trackStructure(token: IToken, state: Structure): void {
  const type = token.tokenTypeIdx;
  if (OPENS[type]) {
    state.depth++;
    state.brackets.push(type);
    return;
  }
  if (CLOSES[type]) {
    state.depth = Math.max(0, state.depth - 1);
    state.brackets.pop();
    if (state.depth < state.comprehensionAt) state.comprehensionAt = -1;
    return;
  }
  if (type === COMPREHENSION_FOR) {
    state.comprehensionAt = state.depth;
    return;
  }
  if (state.depth > 0 && STATEMENT_KEYWORDS[type]) {
    // a bracket was left open: statements go on
    state.depth = 0;
    state.brackets.length = 0;
    state.comprehensionAt = -1;
  }
  const { blocks } = state;
  const top = blocks.length - 1;
  switch (type) {
    case IF:
      blocks.push(Part.IfCondition);
      break;
    case ELSE_IF:
      if (blocks[top] === Part.IfBody) blocks[top] = Part.IfCondition;
      break;
    case THEN:
      if (blocks[top] === Part.IfCondition) blocks[top] = Part.IfBody;
      break;
    case COLON: // Python's `if x:`, reported by the grammar
      if (state.depth === 0 && blocks[top] === Part.IfCondition) blocks[top] = Part.IfBody;
      else if (state.depth === 0 && (blocks[top] === Part.ForIterable || blocks[top] === Part.WhileCondition)) blocks[top] = Part.LoopBody;
      break;
    case FOR:
      blocks.push(Part.ForHead);
      break;
    case IN:
      if (blocks[top] === Part.ForHead) blocks[top] = Part.ForIterable;
      break;
    case WHILE:
      blocks.push(Part.WhileCondition);
      break;
    case DO:
      if (blocks[top] === Part.ForIterable || blocks[top] === Part.WhileCondition) blocks[top] = Part.LoopBody;
      break;
    case END:
      blocks.pop();
      break;
  }
}
