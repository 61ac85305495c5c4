// Text → tokens. Wraps the Chevrotain lexer and turns its raw failures into syntax problems that
// say what to write instead, and measures how deeply the text nests before anything recursive runs.
import { Lexer, type IToken, type TokenType } from './chevrotain.js';
import type { SyntaxProblem } from '../errors.js';
import * as T from './tokens.js';

/** Brackets, parentheses, unary operators and blocks may nest this deep (LANGUAGE.md §1). */
export const MAX_NESTING = 1000;

// Start positions are enough: no token spans a line (whitespace is skipped), so a token ends at
// startColumn + image.length - 1. Not tracking ends saves a fifth of the lexer's time and memory.
const lexer = new Lexer(T.allTokens, { positionTracking: 'onlyStart', ensureOptimizations: true });

export interface LexResult {
  tokens: IToken[];
  problems: SyntaxProblem[];
  /** Deepest nesting seen (brackets + blocks + a run of prefix operators). */
  maxNesting: number;
  /** True when nesting exceeded MAX_NESTING: the tokens must not be parsed. */
  tooDeep: boolean;
}

const CHARACTER_HINTS: Record<string, string> = {
  '&': 'use AND for "and"',
  '|': 'use OR for "or"',
  '!': 'use NOT for negation (`!=` means "not equal")',
  ';': 'statements need no separator: remove the `;`',
  '#': 'comments start with `//`',
  '`': 'strings use double quotes: "like this"',
  '?': 'there is no `?:`: use IF ... THEN ... ELSE ... END',
  '$': 'names use letters, digits and `_` only',
  '@': 'names use letters, digits and `_` only',
};

export function tokenize(text: string): LexResult {
  // A byte-order mark is not part of the script (and would shift every column of line 1).
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const result = lexer.tokenize(source);
  const problems: SyntaxProblem[] = result.errors.map((error) => {
    const char = String.fromCodePoint(source.codePointAt(error.offset) ?? 0xfffd);
    const hint = CHARACTER_HINTS[char];
    const shown = char === '\n' ? '\\n' : char;
    return {
      line: error.line ?? 1,
      column: error.column ?? 1,
      message: `unexpected character \`${shown}\`${hint ? `: ${hint}` : ''}`,
    };
  });

  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    if (type === T.BadString) {
      problems.push(badStringProblem(token));
      tokens[i] = retype(token, T.StringLiteral, '""');
    } else if (type === T.SingleQuotedString) {
      problems.push({
        line: token.startLine!,
        column: token.startColumn!,
        message: `strings use double quotes: write "${token.image.slice(1, token.image.endsWith("'") && token.image.length > 1 ? -1 : undefined)}"`,
      });
      tokens[i] = retype(token, T.StringLiteral, '""');
    } else if (type === T.NumberLiteral && !Number.isFinite(Number(token.image))) {
      problems.push({ line: token.startLine!, column: token.startColumn!, message: `the number ${token.image} is too large` });
    }
  }

  const depth = measureNesting(tokens);
  if (depth.tooDeepAt) {
    problems.push({
      line: depth.tooDeepAt.startLine!,
      column: depth.tooDeepAt.startColumn!,
      message: `nesting deeper than ${MAX_NESTING} levels (brackets, parentheses, unary operators and blocks): split the expression with LET`,
    });
  }
  problems.sort(byPosition);
  return { tokens, problems, maxNesting: depth.max, tooDeep: depth.tooDeepAt !== undefined };
}

export function byPosition(a: { line: number; column: number }, b: { line: number; column: number }): number {
  return a.line - b.line || a.column - b.column;
}

function badStringProblem(token: IToken): SyntaxProblem {
  const text = token.image;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') {
      const next = text[i + 1];
      const unicodeOk = next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6));
      if (next === undefined || (!'"\\/bfnrt'.includes(next) && !unicodeOk)) {
        const shown = next === undefined ? '\\' : next === 'u' ? `\\u${text.slice(i + 2, i + 6)}` : `\\${next}`;
        return {
          line: token.startLine!,
          column: token.startColumn! + i,
          message: `invalid escape \`${shown}\` in string: the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`,
        };
      }
      i++;
    }
  }
  return {
    line: token.startLine!,
    column: token.startColumn!,
    message: 'unterminated string: close it with `"` on the same line (write \\n for a line break)',
  };
}

function retype(token: IToken, tokenType: TokenType, image: string): IToken {
  return { ...token, tokenType, tokenTypeIdx: tokenType.tokenTypeIdx!, image };
}

// What each token type does to the nesting depth, indexed by tokenTypeIdx (one array read per
// token instead of set lookups): +1 opens, -1 closes.
const DEPTH_CHANGE: number[] = [];
for (const t of [T.LParen, T.LBracket, T.LBrace, T.If, T.For]) DEPTH_CHANGE[t.tokenTypeIdx!] = 1;
for (const t of [T.RParen, T.RBracket, T.RBrace, T.End]) DEPTH_CHANGE[t.tokenTypeIdx!] = -1;
// After one of these, a `-` or `+` is a binary operator; anywhere else it is a prefix operator.
const ENDS_OPERAND: boolean[] = [];
for (const t of [T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.RParen, T.RBracket, T.RBrace]) ENDS_OPERAND[t.tokenTypeIdx!] = true;
// Tokens that end every expression at their level (statement and argument boundaries).
const ENDS_EXPRESSION: boolean[] = [];
for (const t of [T.Comma, T.Colon, T.Then, T.Do, T.Else, T.Let, T.If, T.For, T.In, T.Assign]) ENDS_EXPRESSION[t.tokenTypeIdx!] = true;
const IS_BINARY_OPERATOR: boolean[] = [];
for (const t of T.allTokens) if (t.CATEGORIES?.includes(T.BinaryOperator)) IS_BINARY_OPERATOR[t.tokenTypeIdx!] = true;
const STARTS_OPERAND: boolean[] = [];
for (const t of [T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.Call, T.Calc, T.LBrace]) STARTS_OPERAND[t.tokenTypeIdx!] = true;

/**
 * One pass over the tokens measuring nesting: open brackets and blocks, plus prefix operators whose
 * operand is still being read (`- ( - ( 1 ) )` is four levels). An arithmetic `-`/`+` stays open
 * until the next binary operator at its bracket level, NOT until the next AND or OR (it binds looser
 * than comparisons), and either until its bracket closes or its expression ends. The parser and
 * evaluator are recursive, so this bound is what keeps hostile nesting a SyntaxError instead of a
 * stack overflow in the host.
 */
function measureNesting(tokens: IToken[]): { max: number; tooDeepAt?: IToken } {
  const not = T.Not.tokenTypeIdx!;
  const minus = T.Minus.tokenTypeIdx!;
  const plus = T.Plus.tokenTypeIdx!;
  const and = T.And.tokenTypeIdx!;
  const or = T.Or.tokenTypeIdx!;
  // Open prefix operators per bracket level: arithmetic ones, and NOTs.
  const signs: number[] = [0];
  const nots: number[] = [0];
  let depth = 0;
  let openPrefixes = 0;
  let max = 0;
  let previousEndsOperand = false;
  const release = (level: number, alsoNot: boolean) => {
    openPrefixes -= signs[level]!;
    signs[level] = 0;
    if (alsoNot) {
      openPrefixes -= nots[level]!;
      nots[level] = 0;
    }
  };
  for (const token of tokens) {
    const type = token.tokenTypeIdx;
    const change = DEPTH_CHANGE[type];
    if (change === -1) {
      if (depth > 0) {
        release(depth, true);
        depth--;
      }
    } else if (type === not) {
      nots[depth]!++;
      openPrefixes++;
    } else if ((type === minus || type === plus) && !previousEndsOperand) {
      signs[depth]!++;
      openPrefixes++;
    } else if (IS_BINARY_OPERATOR[type] || ENDS_EXPRESSION[type]) {
      release(depth, type === and || type === or || ENDS_EXPRESSION[type] === true);
    } else if (previousEndsOperand && STARTS_OPERAND[type]) {
      release(depth, true); // a new statement begins without a separator
    }
    if (change === 1) {
      depth++;
      signs[depth] = 0;
      nots[depth] = 0;
    }
    if (depth + openPrefixes > max) {
      max = depth + openPrefixes;
      if (max > MAX_NESTING) return { max, tooDeepAt: token };
    }
    previousEndsOperand = ENDS_OPERAND[type] === true;
  }
  return { max };
}
