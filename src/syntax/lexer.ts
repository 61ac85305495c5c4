// Text → tokens. Wraps the Chevrotain lexer and turns its raw failures into syntax problems that
// say what to write instead, runs the mistakes pass (mistakes.ts), and measures how deeply the text
// nests before anything recursive runs.
import { Lexer, type ILexingResult, type IToken, type TokenType } from './chevrotain.js';
import type { SyntaxProblem } from '../errors.js';
import * as T from './tokens.js';
import { recogniseMistakes, retype } from './mistakes.js';
import { markComprehensions } from './comprehensions.js';
import { rewriteStatements } from './borrowed.js';
import { rewriteOperators } from './borrowed-operators.js';
import { completeLineEnds } from './line-ends.js';
import { ProblemList } from './problems.js';
import { notTextProblem, showCharacter } from './source.js';
import { repaired } from './problems.js';
import { standInToken } from './nodes.js';
import { formatCallFor } from './templates.js';
import { nameHint } from './hints.js';

export { byPosition } from './problems.js';

/** Brackets, parentheses, unary operators and blocks may nest this deep (LANGUAGE.md §1). */
export const MAX_NESTING = 1000;

// Start positions are enough: no token spans a line (whitespace is skipped), so a token ends at
// startColumn + image.length - 1. Not tracking ends saves a fifth of the lexer's time and memory.
export const LEXER_OPTIONS = { positionTracking: 'onlyStart', ensureOptimizations: true } as const;
// Chevrotain's validations of the token definitions take longer than the rest of building the lexer;
// the definitions are fixed, and test/unit/syntax/definitions.test.ts runs the validations on them.
// Built when first used, like the parser (grammar.ts, sharedParser), not when the package loads.
let shared: Lexer | undefined;
const lexer = (): Lexer => (shared ??= new Lexer(T.allTokens, { ...LEXER_OPTIONS, skipValidations: true }));

export interface LexResult {
  tokens: IToken[];
  /** The first problems found (at most REPORTED_PROBLEMS), in source order. */
  problems: SyntaxProblem[];
  /** How many problems there are in all (more than `problems.length` for hopeless text). */
  problemCount: number;
  /** Deepest nesting seen (brackets + blocks + a run of prefix operators). */
  maxNesting: number;
  /** True when nesting exceeded MAX_NESTING: the tokens must not be parsed. */
  tooDeep: boolean;
}

const CHARACTER_HINTS: ReadonlyMap<string, string> = new Map([
  [';', 'statements need no separator: remove the `;`'],
  ['`', 'strings use double quotes: "like this"'],
  ['?', 'there is no `?:`: use IF ... THEN ... ELSE ... END'],
  ['$', 'names use letters, digits and `_` only'],
  ['@', 'names use letters, digits and `_` only'],
  ['^', 'there is no power operator: multiply, or use CALC'],
]);

type Habit = (token: IToken, previous: IToken | undefined, rest: string | undefined) => string;
/** Problems for tokens that stand for another language's habit, by tokenTypeIdx (one array read per token). */
const HABITS: Array<Habit | undefined> = [];
const habit = (type: TokenType, problem: Habit) => void (HABITS[type.tokenTypeIdx!] = problem);
habit(T.AmpAmp, (t) => `use AND instead of \`${t.image}\``);
habit(T.BarBar, (t) => `use OR instead of \`${t.image}\``);
habit(T.Bang, () => 'use NOT instead of `!` (`!=` means "not equal")');
habit(T.LessGreater, () => 'use `!=` for "not equal"');
habit(T.StrictEquality, (t) => `write \`${t.image.slice(0, 2)}\`: there is no \`${t.image}\` (== never converts types)`);
habit(T.CompoundAssign, (t, previous, rest) => {
  const name = previous?.tokenType === T.Identifier ? previous.image : 'x';
  // The right side as written when it is plain (names, numbers, strings, arithmetic, calls), in
  // parentheses where the operator binds tighter than what it holds (`n *= a + b`).
  const operator = t.image[0]!;
  const value = rest === undefined ? '...' : operator !== '+' && /[-+*/%]/.test(rest.replace(/"(?:[^"\\]|\\.)*"/g, '')) ? `(${rest})` : rest;
  return `there is no \`${t.image}\`: write LET ${name} = ${name} ${operator} ${value}`;
});
/** Token types the loop below looks at at all. */
const SPECIAL: boolean[] = [];
for (const type of [
  T.BadString, T.SingleQuotedString, T.TemplateString, T.LeadingDotNumber, T.NumberLiteral, T.AmpAmp, T.BarBar, T.Bang, T.LessGreater,
  T.StrictEquality, T.CompoundAssign, T.Increment, T.StringLiteral,
]) SPECIAL[type.tokenTypeIdx!] = true;

export interface TokenizeOptions {
  /**
   * The text is one expression (a CALC formula), not a script: skip the mistakes pass, whose rules
   * are about statements (`x = 1` there is "write LET", in a formula it is "use ==").
   */
  expression?: boolean;
  /**
   * The text may be cut short (an entry still being typed): a `[` still open at its end holds a
   * list comprehension if it holds a FOR (comprehensions.ts).
   */
  unfinished?: boolean;
}

export function tokenize(text: string, options: TokenizeOptions = {}): LexResult {
  const source = withoutByteOrderMark(text);
  const notText = notTextProblem(source);
  if (notText) return { tokens: [], problems: [notText], problemCount: 1, maxNesting: 0, tooDeep: false };
  return drain(finishLexing(source, lexer().tokenize(source), options));
}

/** What the parse calls between slices of its work: throws to stop it, or returns a promise to let the event loop in. */
export type Between = () => Promise<void> | undefined;

/**
 * tokenize, for long text that must not hold the event loop for the whole of it: the text is lexed
 * in slices of about `sliceChars`, cut after a line break (no token spans a line, so the tokens are
 * those of one pass, their positions shifted), with `between` called after each slice. The passes
 * over the whole token list that follow are linear and cheap beside the lexer.
 */
export async function tokenizeInSlices(text: string, between: Between, sliceChars: number): Promise<LexResult> {
  const source = withoutByteOrderMark(text);
  const notText = notTextProblem(source);
  if (notText) return { tokens: [], problems: [notText], problemCount: 1, maxNesting: 0, tooDeep: false };
  const merged: ILexingResult = { tokens: [], errors: [], groups: { mistakes: [] } };
  for (const slice of lexSlices(source, sliceChars)) {
    append(merged.tokens, slice.tokens);
    append(merged.groups.mistakes!, slice.groups.mistakes ?? []);
    append(merged.errors, slice.errors);
    if (slice.end < source.length) await between();
  }
  const steps = finishLexing(source, merged, {});
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await between();
  }
}

/**
 * The lexer's output for `source` (without its byte-order mark) a slice at a time, each slice about
 * `sliceChars` long and cut after a line break, with positions in the whole text; `end` is where the
 * slice ends in it. No pass has run on the tokens yet (finishTokens).
 */
export function* lexSlices(source: string, sliceChars: number): Generator<ILexingResult & { end: number }, void, void> {
  let start = 0;
  let line = 0;
  while (start < source.length) {
    const cut = source.indexOf('\n', Math.min(start + sliceChars, source.length) - 1);
    const end = cut === -1 ? source.length : cut + 1;
    const slice = lexer().tokenize(end - start === source.length ? source : source.slice(start, end));
    for (const token of slice.tokens) shift(token, start, line);
    for (const token of slice.groups.mistakes ?? []) shift(token, start, line);
    for (const error of slice.errors) {
      error.offset += start;
      if (error.line !== undefined) error.line += line;
    }
    line += countLines(source, start, end);
    start = end;
    yield { ...slice, end };
  }
}

/**
 * The passes that follow the lexer (repairs, the mistakes pass, nesting), over tokens of a script
 * lexed with lexSlices: a run of whole statements of a longer text (streamed.ts). Pauses as tokenize's do.
 */
export function finishTokens(source: string, tokens: IToken[]): Generator<void, LexResult, void> {
  return finishLexing(source, { tokens, errors: [], groups: { mistakes: [] } }, {});
}

/** Runs steps (a generator that pauses now and then) to their end, without pausing. */
function drain<T>(steps: Generator<void, T, void>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Tokens looked at between two pauses of finishLexing (a power of two, less one). */
const STEP_MASK = 0x7fff;

function shift(token: IToken, offset: number, lines: number): void {
  token.startOffset += offset;
  if (token.startLine !== undefined) token.startLine += lines;
}

function append<T>(to: T[], items: T[]): void {
  for (const item of items) to.push(item);
}

/** Line breaks in text[start, end) as the lexer counts them: `\n`, `\r\n` and a lone `\r`. */
function countLines(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  for (let i = text.indexOf('\r', start); i !== -1 && i < end; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) count++;
  return count;
}

export function withoutByteOrderMark(text: string): string {
  // A byte-order mark is not part of the script (and would shift every column of line 1).
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The passes after the lexer: its failures as problems, the repairs, the mistakes pass, nesting.
 * Steps that pause every 32,768 tokens, for a sliced parse (tokenize runs them through).
 */
function* finishLexing(source: string, result: ILexingResult, options: TokenizeOptions): Generator<void, LexResult, void> {
  const problems = new ProblemList();
  for (const error of result.errors) {
    if (problems.full) {
      problems.count += result.errors.length - problems.count;
      break;
    }
    const char = String.fromCodePoint(source.codePointAt(error.offset) ?? 0xfffd);
    problems.add(characterProblem(char, source, error.offset, error.line ?? 1, error.column ?? 1));
  }
  reportMistakenText(result.groups.mistakes ?? [], problems);

  let tokens = result.tokens;
  let dropped = false;
  const expanded = new Map<IToken, IToken[]>();
  for (let i = 0; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    const token = tokens[i]!;
    if (!SPECIAL[token.tokenTypeIdx]) continue;
    const type = token.tokenType;
    if (type === T.BadString) {
      const problem = badStringProblem(token);
      // A string with a bad escape still ends where it should; one without its closing quote took
      // the rest of the line with it.
      problems.add(problem.closed ? repaired(problem.problem) : problem.problem);
      tokens[i] = standInToken(retype(token, T.StringLiteral, '""'));
    } else if (type === T.SingleQuotedString) {
      const closed = token.image.endsWith("'") && token.image.length > 1;
      const inner = token.image.slice(1, closed ? -1 : undefined);
      const image = doubleQuoted(inner);
      const body = image === undefined ? inner : image.slice(1, -1);
      const problem = at(token, `strings use double quotes: write "${body.length > 60 ? `${body.slice(0, 57)}...` : body}"`);
      problems.add(closed ? repaired(problem) : problem);
      tokens[i] = image === undefined || !closed ? standInToken(retype(token, T.StringLiteral, '""')) : retype(token, T.StringLiteral, image);
    } else if (type === T.TemplateString) {
      const call = formatCallFor(token.image.slice(1, -1), 'template');
      problems.add(repaired(at(token, `there are no template strings: write ${call ?? 'FORMAT("... {name} ...", { name: value })'} with double quotes`)));
      tokens[i] = standInToken(retype(token, T.StringLiteral, '""'));
    } else if (type === T.Increment) {
      const previous = tokens[i - 1];
      const name = previous?.tokenType === T.Identifier ? previous.image : 'x';
      const problem = at(token, `there is no \`${token.image}\`: write LET ${name} = ${name} + 1`);
      // `count++` on a line of its own is `LET count = count + 1`: read it so.
      const statement = previous?.tokenType === T.Identifier && startsStatement(tokens, i - 1) && !sameLine(token, tokens[i + 1]);
      if (statement) {
        const again = { ...previous, startOffset: token.startOffset, startLine: token.startLine, startColumn: token.startColumn };
        expanded.set(previous, [retype(previous, T.Let, 'LET'), previous, retype(token, T.Assign, '='), again, retype(token, T.Plus, '+'), retype(token, T.NumberLiteral, '1')]);
        problems.add(repaired(problem));
      } else {
        problems.add(problem);
      }
      tokens[i] = DROPPED;
      dropped = true;
    } else if (type === T.StringLiteral) {
      // Python's f"...": the f is a name standing right before the string.
      const previous = tokens[i - 1];
      if (previous?.tokenType === T.Identifier && /^[fF]$/.test(previous.image) && previous.startOffset + 1 === token.startOffset) {
        const call = formatCallFor(token.image.slice(1, -1), 'f-string');
        problems.add(repaired(at(previous, `there are no f-strings: write ${call ?? 'FORMAT("... {name} ...", { name: value })'}`)));
        tokens[i - 1] = DROPPED;
        tokens[i] = standInToken(token);
        dropped = true;
      }
    } else if (type === T.LeadingDotNumber) {
      const previous = tokens[i - 1];
      const index = previous !== undefined && previous.startOffset + previous.image.length === token.startOffset && isOperandEnd(previous);
      const digits = token.image.slice(1);
      problems.add(repaired(at(token, index ? `to index a list write [${digits}], not .${digits}` : `write 0${token.image}: a number starts with a digit`)));
      if (index) {
        // Read `xs.0` as the `xs[0]` it means, so what follows (`.name`) still parses.
        expanded.set(token, [retype(token, T.LBracket, '['), { ...retype(token, T.NumberLiteral, digits), startOffset: token.startOffset + 1, startColumn: token.startColumn! + 1 }, retype(token, T.RBracket, ']')]);
        dropped = true;
      } else {
        tokens[i] = retype(token, T.NumberLiteral, `0${token.image}`);
      }
    } else if (type === T.NumberLiteral && mayOverflow(token.image) && !Number.isFinite(Number(token.image))) {
      problems.add(at(token, `the number ${token.image} is too large`));
      tokens[i] = standInToken(token);
    } else {
      // &&, ||, !, <>, ===, += ...: read as the operator they stand for (precedence.ts).
      const problem = HABITS[token.tokenTypeIdx];
      if (problem) problems.add(repaired(at(token, problem(token, tokens[i - 1], plainRest(tokens, i, source)))));
    }
  }
  if (dropped) tokens = tokens.flatMap((t) => (t === DROPPED ? [] : (expanded.get(t) ?? [t])));
  if (!options.expression) {
    markComprehensions(tokens, options.unfinished === true);
    tokens = yield* rewriteStatements(tokens, problems);
    tokens = yield* recogniseMistakes(tokens, problems);
    tokens = yield* rewriteOperators(tokens, problems);
    // An entry still being typed may close its brackets on its next line.
    if (options.unfinished !== true) tokens = yield* completeLineEnds(tokens, source, problems);
  }

  const depth = yield* measureNesting(tokens);
  if (depth.tooDeepAt) {
    problems.add(at(depth.tooDeepAt, `nesting deeper than ${MAX_NESTING} levels (brackets, parentheses, unary operators and blocks): split the expression with LET`));
  }
  return { tokens, problems: problems.list.sort(byPositionLocal), problemCount: problems.count, maxNesting: depth.max, tooDeep: depth.tooDeepAt !== undefined };
}

/**
 * The tokens of `text` as written, for syntax highlighting: the lexer's own output before the
 * repairs above and the mistakes pass (a single-quoted string is still one, `&&` is still `&&`,
 * lowercase `if` is still a name), with the other languages' comments and fences merged in, in
 * source order. `//` comments and white space are not tokens; rejected characters are left out.
 */
export function tokensAsWritten(text: string): IToken[] {
  const result = lexer().tokenize(text);
  const aside = result.groups.mistakes ?? [];
  if (aside.length === 0) return result.tokens;
  const merged: IToken[] = [];
  let i = 0;
  for (const token of result.tokens) {
    while (i < aside.length && aside[i]!.startOffset < token.startOffset) merged.push(aside[i++]!);
    merged.push(token);
  }
  while (i < aside.length) merged.push(aside[i++]!);
  return merged;
}

/** Tokens a right side shown in a message may hold: nothing another message would correct. */
const PLAIN: boolean[] = [];
for (const t of [T.Identifier, T.NumberLiteral, T.StringLiteral, T.Dot, T.Comma, T.LParen, T.RParen, T.LBracket, T.RBracket, T.Plus, T.Minus, T.Star, T.Slash, T.Percent]) {
  PLAIN[t.tokenTypeIdx!] = true;
}

/**
 * The text after tokens[i] to the end of its line, when every token of it is plain and no name in it
 * is a known mistake (`len`, `True`); undefined otherwise.
 */
function plainRest(tokens: IToken[], i: number, source: string): string | undefined {
  const line = tokens[i]!.startLine;
  let j = i + 1;
  for (; j < tokens.length && tokens[j]!.startLine === line; j++) {
    const t = tokens[j]!;
    if (!PLAIN[t.tokenTypeIdx] || (t.tokenTypeIdx === T.Identifier.tokenTypeIdx && (nameHint(t.image) !== undefined || /^[a-z]/.test(t.image) && tokens[j + 1]?.image === '('))) return undefined;
  }
  if (j === i + 1) return undefined;
  const last = tokens[j - 1]!;
  const text = source.slice(tokens[i + 1]!.startOffset, last.startOffset + last.image.length);
  return text.length <= 60 && !text.includes('\n') ? text : undefined;
}

/** Whether a number's text could be past the largest number (about 1.8e308): only with an exponent or 309 digits. */
function mayOverflow(image: string): boolean {
  return image.length > 308 || image.includes('e') || image.includes('E');
}

/** Marks a token the loop above removes (`x++`, the f of f"..."). */
const DROPPED = { image: '', startOffset: -1, tokenTypeIdx: -1 } as unknown as IToken;

const byPositionLocal = (a: SyntaxProblem, b: SyntaxProblem) => a.line - b.line || a.column - b.column;

function at(token: IToken, message: string): SyntaxProblem {
  return { line: token.startLine!, column: token.startColumn!, message };
}

/** Comments and fences of other languages: one problem each, and one for all fences of a script. */
function reportMistakenText(tokens: IToken[], problems: ProblemList): void {
  let fenceSeen = false;
  for (const token of tokens) {
    if (token.tokenType === T.Fence) {
      // Every fence line is the same mistake: report the first only.
      if (!fenceSeen) problems.add(repaired(at(token, "the script is wrapped in a markdown fence: remove the ``` lines (extractScript(reply) takes the script out of a model's reply)")));
      fenceSeen = true;
    } else if (token.tokenType === T.HashComment) {
      problems.add(repaired(at(token, token.startOffset === 0 && token.image.startsWith('#!') ? 'remove the `#!` line: a script cannot start with one' : 'comments start with `//`, not `#`')));
    } else {
      problems.add(repaired(at(token, 'comments start with `//` (there are no /* */ comments): put // at the start of each comment line')));
    }
  }
}

function isOperandEnd(token: IToken): boolean {
  return ENDS_OPERAND[token.tokenTypeIdx] === true;
}

function badStringProblem(token: IToken): { problem: SyntaxProblem; closed: boolean } {
  const text = token.image;
  const closed = text.length > 1 && text.endsWith('"') && /(^|[^\\])(\\\\)*"$/.test(text.slice(1));
  for (let i = text.indexOf('\\', 1); i >= 0 && i < text.length; i = text.indexOf('\\', i + 2)) {
    const next = text[i + 1];
    const unicodeOk = next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6));
    if (next === undefined || (!'"\\/bfnrt'.includes(next) && !unicodeOk)) {
      const shown = next === undefined ? '\\' : next === 'u' ? `\\u${text.slice(i + 2, i + 6)}` : `\\${next}`;
      const message = `invalid escape \`${showCharacter(shown)}\` in string: the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX${next === undefined || next === 'u' ? '' : ` (for a backslash write \\\\${next})`}`;
      return { problem: { line: token.startLine!, column: token.startColumn! + i, message }, closed };
    }
  }
  return {
    problem: { line: token.startLine!, column: token.startColumn!, message: 'unterminated string: close it with `"` on the same line (write \\n for a line break)' },
    closed: false,
  };
}

/** A rejected character, with what to write instead where that is clear. */
function characterProblem(char: string, source: string, offset: number, line: number, column: number): SyntaxProblem {
  const at = { line, column };
  // `$total` (shell, PHP): the name without its `$` is what was meant.
  if (char === '$' && /[A-Za-z_]/.test(source[offset + 1] ?? '')) {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(offset + 1, offset + 41))![0];
    return repaired({ ...at, message: `unexpected character \`$\`: names have no \`$\`: write ${name}` });
  }
  if (char === '?') {
    const ternary = ternaryAsIf(source, offset);
    if (ternary !== undefined) return { ...at, message: `unexpected character \`?\`: there is no \`?:\`: write ${ternary}` };
  }
  const hint = CHARACTER_HINTS.get(char);
  const what = char === '`' ? 'backquote' : `character \`${showCharacter(char)}\``;
  const problem = { ...at, message: `unexpected ${what}${hint ? `: ${hint}` : ''}` };
  // A `;` between statements: leaving it out is all there is to it.
  return char === ';' ? repaired(problem) : problem;
}

/**
 * `LET label = total > 100 ? "big" : "small"` as the IF that sets the variable on both branches, from
 * the line's own text; undefined for any other line, or when a part holds another mistake.
 */
function ternaryAsIf(source: string, offset: number): string | undefined {
  const start = source.lastIndexOf('\n', offset) + 1;
  const end = source.indexOf('\n', offset);
  const line = source.slice(start, end < 0 ? undefined : end).replace(/\s*\/\/.*$/, '');
  const parts = /^\s*(?:LET\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*\?\s*([^?:]+?)\s*:\s*([^?:]+?)\s*$/.exec(line);
  if (parts === null || start + line.indexOf('?') !== offset) return undefined;
  const [, name, condition, yes, no] = parts as unknown as [string, string, string, string, string];
  if ([condition, yes, no].some((part) => /===|!==|&&|\|\||'|`|\?/.test(part))) return undefined;
  const text = `IF ${condition.replace(/^\((.*)\)$/, '$1')} THEN LET ${name} = ${yes} ELSE LET ${name} = ${no} END`;
  return text.length <= 160 ? text : undefined;
}

/** A single-quoted string's body as a double-quoted string literal; undefined if its escapes are not Nuwa's. */
function doubleQuoted(inner: string): string | undefined {
  const image = `"${inner.replace(/\\'/g, "'").replace(/(^|[^\\])((?:\\\\)*)"/g, '$1$2\\"')}"`;
  try {
    JSON.parse(image);
    return image;
  } catch {
    return undefined;
  }
}

/** Whether the token at `i` starts a statement (first token, or after one that ends an operand or a header). */
function startsStatement(tokens: IToken[], i: number): boolean {
  const previous = tokens[i - 1];
  if (previous === undefined) return true;
  return previous.startLine !== tokens[i]!.startLine || previous.tokenType === T.Then || previous.tokenType === T.Do || previous.tokenType === T.Else;
}

function sameLine(a: IToken, b: IToken | undefined): boolean {
  return b !== undefined && b.startLine === a.startLine;
}

// What each token type does to the nesting depth, indexed by tokenTypeIdx (one array read per
// token instead of set lookups): +1 opens, -1 closes.
const DEPTH_CHANGE: number[] = [];
for (const t of [T.LParen, T.LBracket, T.LBrace, T.If, T.For, T.While]) DEPTH_CHANGE[t.tokenTypeIdx!] = 1;
for (const t of [T.RParen, T.RBracket, T.RBrace, T.End]) DEPTH_CHANGE[t.tokenTypeIdx!] = -1;
// After one of these, a `-` or `+` is a binary operator; anywhere else it is a prefix operator.
const ENDS_OPERAND: boolean[] = [];
for (const t of [T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.RParen, T.RBracket, T.RBrace]) ENDS_OPERAND[t.tokenTypeIdx!] = true;
// Tokens that end every expression at their level (statement and argument boundaries).
const ENDS_EXPRESSION: boolean[] = [];
for (const t of [T.Comma, T.Colon, T.Then, T.Do, T.Else, T.ElseIf, T.Let, T.If, T.For, T.While, T.In, T.Assign, T.ReportedAssign, T.CompoundAssign, T.ComprehensionFor, T.ComprehensionIf]) ENDS_EXPRESSION[t.tokenTypeIdx!] = true;
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
function* measureNesting(tokens: IToken[]): Generator<void, { max: number; tooDeepAt?: IToken }, void> {
  const not = T.Not.tokenTypeIdx!;
  const bang = T.Bang.tokenTypeIdx!;
  const minus = T.Minus.tokenTypeIdx!;
  const plus = T.Plus.tokenTypeIdx!;
  const and = T.And.tokenTypeIdx!;
  const or = T.Or.tokenTypeIdx!;
  const ampAmp = T.AmpAmp.tokenTypeIdx!;
  const barBar = T.BarBar.tokenTypeIdx!;
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
  for (let i = 0; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    const token = tokens[i]!;
    const type = token.tokenTypeIdx;
    const change = DEPTH_CHANGE[type];
    if (change === -1) {
      if (depth > 0) {
        release(depth, true);
        depth--;
      }
    } else if (type === not || type === bang) {
      nots[depth]!++;
      openPrefixes++;
    } else if ((type === minus || type === plus) && !previousEndsOperand) {
      signs[depth]!++;
      openPrefixes++;
    } else if (IS_BINARY_OPERATOR[type] || ENDS_EXPRESSION[type]) {
      release(depth, type === and || type === or || type === ampAmp || type === barBar || ENDS_EXPRESSION[type] === true);
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
