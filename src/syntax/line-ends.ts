// What a line leaves open at its end: brackets, and an IF or FOR header without its THEN or DO.
//
// Brackets left open at the end of a line. `PRINT(FORMAT("{v}", { v: x })` followed by a line that
// starts a statement: the grammar would go on reading the next line as part of the open call, fail
// there ("expected `)` but found `PRINT`") and point at a line without a mistake, and its recovery
// would guess on from there. The author meant the line to end the statement, and the indentation
// says so. This pass (after the mistakes pass, before the blocks are balanced) closes such brackets
// where the line ends — before THEN or DO on an IF or FOR header — and reports the missing closers
// on the line that lacks them, with the line as it would run when nothing else is wrong on it.
//
// A bracket counts as left open only when all of these hold, so that an expression written over
// several lines is never touched: the line does not end in a token that runs on (`,`, `(`, `+`...),
// the next line starts a statement (LET, IF, FOR, END, ELSE, CALL, or a name followed by `(` or
// `=`), and it is indented no deeper than the line the outermost open bracket is on.
//
// An IF, ELSE IF or FOR header whose line has no THEN or DO (`IF price < 20` and the body below):
// the grammar would report the missing word at the body's first token, a line below. The header's
// line is complete when it does not run on, so the word is added at its end and reported there.
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { retype, STEP_MASK } from './mistakes.js';
import { repaired, type ProblemList } from './problems.js';

const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};

const CLOSER_OF: ReadonlyMap<number, TokenType> = new Map([
  [T.LParen.tokenTypeIdx!, T.RParen],
  [T.LBracket.tokenTypeIdx!, T.RBracket],
  [T.LBrace.tokenTypeIdx!, T.RBrace],
]);
const CLOSES = table([T.RParen, T.RBracket, T.RBrace]);

/** A line ending in one of these goes on on the next line. */
const RUNS_ON: boolean[] = table([T.Comma, T.LParen, T.LBracket, T.LBrace, T.Assign, T.CompoundAssign, T.Colon, T.Dot, T.Arrow]);
for (const type of T.allTokens) if (type.CATEGORIES?.includes(T.BinaryOperator) || type.CATEGORIES?.includes(T.PrefixOperator)) RUNS_ON[type.tokenTypeIdx!] = true;

/** Tokens that start a statement wherever they stand at the start of a line. */
const STARTS_STATEMENT = table([T.Let, T.If, T.For, T.End, T.Else, T.ElseIf, T.While, T.Call]);
/** After a name at the start of a line, these make it a statement (`PRINT(...)`, `x = 1`). */
const AFTER_NAME = table([T.LParen, T.Assign, T.CompoundAssign]);

/** A line starting with one of these goes on from the line before. */
const CONTINUES: boolean[] = table([T.Then, T.Do, T.Colon, T.RParen, T.RBracket, T.RBrace, T.Comma, T.Dot, T.In]);
for (const type of T.allTokens) if (type.CATEGORIES?.includes(T.BinaryOperator)) CONTINUES[type.tokenTypeIdx!] = true;

const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && token.tokenTypeIdx === type.tokenTypeIdx;
const HEADER_END = table([T.Then, T.Do, T.Colon]);

interface Open {
  token: IToken;
  /** Column of the first token of the line it is on. */
  indent: number;
  /** Its index in the tokens. */
  at: number;
  /** A `(` that groups (not a call's) and holds a `,` at its own level: it cannot be what was meant. */
  grouping: boolean;
  comma: boolean;
}

/** Tokens after which `(` is a call's: a name (`ROUND(`), or a call or index that returns something (`f(x)(`). */
const CALLS = table([T.Identifier, T.RParen, T.RBracket]);

/**
 * Closes the brackets each line leaves open when the next line starts a statement, and adds the THEN
 * or DO a header lacks (see above), and
 * reports them; returns the tokens with the closers inserted (or `tokens` itself when none are).
 */
export function* completeLineEnds(tokens: IToken[], source: string, problems: ProblemList): Generator<void, IToken[], void> {
  let stack: Open[] = [];
  /** After a closer that matches no open bracket the grammar reports: leave the brackets to it until they balance. */
  let confused = false;
  const inserts = new Map<number, IToken[]>();
  const removed = new Set<number>();
  /** The last grouping `(` of the current line that held a comma, by its index. */
  let surplus: number | undefined;
  let lineStart = 0;
  for (let i = 0; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    const token = tokens[i]!;
    if (i > 0 && token.startLine !== tokens[i - 1]!.startLine) {
      lineStart = i;
      surplus = undefined;
    }
    const closer = CLOSER_OF.get(token.tokenTypeIdx);
    if (closer !== undefined) {
      const grouping = is(token, T.LParen) && !CALLS[tokens[i - 1]?.tokenTypeIdx ?? -1];
      stack.push({ token, indent: tokens[lineStart]!.startColumn!, at: i, grouping, comma: false });
    } else if (CLOSES[token.tokenTypeIdx]) {
      const top = stack.pop();
      if (top === undefined || CLOSER_OF.get(top.token.tokenTypeIdx) !== token.tokenType) confused = true;
      else if (top.grouping && top.comma && top.token.startLine === token.startLine) surplus = top.at;
    } else if (is(token, T.Comma) && stack.length > 0) {
      stack[stack.length - 1]!.comma = true;
    }
    if (stack.length === 0) confused = false;
    const next = tokens[i + 1];
    if (confused || next === undefined || next.startLine === token.startLine) continue;
    if (stack.length === 0) {
      // A header may go on on the next line (`IF a\n  AND b THEN`, `if x\nthen`).
      const word = CONTINUES[next.tokenTypeIdx] ? undefined : missingHeaderWord(tokens, lineStart, i);
      if (word !== undefined) {
        inserts.set(i + 1, [placed(retype(token, word, word === T.Then ? 'THEN' : 'DO'), token)]);
        reportHeader(tokens, lineStart, i, word === T.Then ? 'THEN' : 'DO', source, problems);
      }
      continue;
    }
    // `token` ends a line with brackets open: a header's THEN or DO ends them, and otherwise the next
    // line does when it is a statement of its own.
    const header = isHeader(tokens, lineStart, i);
    if (!header) {
      if (RUNS_ON[token.tokenTypeIdx]) continue;
      const name = is(next, T.Identifier) && tokens[i + 2]?.startLine === next.startLine && AFTER_NAME[tokens[i + 2]!.tokenTypeIdx];
      if (!(STARTS_STATEMENT[next.tokenTypeIdx] || name) || next.startColumn! > stack[0]!.indent) continue;
    }
    if (surplus !== undefined && stack.length === 1 && is(stack[0]!.token, T.LParen) && stack[0]!.token.startLine === token.startLine) {
      // `ROUND((x * 10, 2)`: the `(` that cannot hold its comma is the one too many.
      removed.add(surplus);
      reportSurplus(tokens, lineStart, i, surplus, source, problems);
      stack = [];
      continue;
    }
    const at = headerEnd(tokens, lineStart, i);
    inserts.set(at, closersFor(stack, at < i + 1 ? tokens[at]! : token, at < i + 1));
    report(tokens, lineStart, i, at, stack, source, problems);
    stack = [];
  }
  if (inserts.size === 0 && removed.size === 0) return tokens;
  const out: IToken[] = [];
  for (let i = 0; i <= tokens.length; i++) {
    const inserted = inserts.get(i);
    if (inserted !== undefined) for (const t of inserted) out.push(t);
    if (i < tokens.length && !removed.has(i)) out.push(tokens[i]!);
  }
  return out;
}

/** A token placed just after `near`, on its line. */
function placed(token: IToken, near: IToken): IToken {
  token.startOffset = near.startOffset + near.image.length;
  token.startColumn = near.startColumn! + near.image.length;
  return token;
}

/**
 * THEN or DO, when tokens[from..to] are an IF, ELSE IF or FOR header that lacks it: no THEN, DO or
 * `:` on the line, and the line does not run on into the next.
 */
function missingHeaderWord(tokens: IToken[], from: number, to: number): TokenType | undefined {
  const first = tokens[from]!;
  const isFor = is(first, T.For);
  if (!(isFor || is(first, T.If) || is(first, T.ElseIf) || (is(first, T.Else) && is(tokens[from + 1], T.If)))) return undefined;
  if (RUNS_ON[tokens[to]!.tokenTypeIdx] || to === from || (is(first, T.Else) && to === from + 1)) return undefined;
  for (let k = is(first, T.Else) ? from + 2 : from + 1; k <= to; k++) {
    const type = tokens[k]!.tokenTypeIdx;
    if (HEADER_END[type] || STARTS_STATEMENT[type]) return undefined;
  }
  if (isFor && !tokens.slice(from, to + 1).some((t) => is(t, T.In))) return undefined;
  return isFor ? T.Do : T.Then;
}

function reportHeader(tokens: IToken[], from: number, to: number, word: 'THEN' | 'DO', source: string, problems: ProblemList): void {
  const last = tokens[to]!;
  const line = last.startLine!;
  const text = `${source.slice(tokens[from]!.startOffset, last.startOffset + last.image.length)} ${word}`;
  const clean = !problems.list.some((p) => p.line === line) && !text.includes('\n') && text.length <= 120;
  const header = word === 'THEN' ? 'expected THEN after the IF condition' : 'expected DO after FOR x IN list';
  const message = `${header}: add ${word} at the end of the line${clean ? `, ${text}` : ''}`;
  problems.add(repaired({ line, column: last.startColumn! + last.image.length, message }));
}

/** Whether tokens[from..to] are an IF, ELSE IF or FOR header ending in THEN or DO (or Python's `:`). */
function isHeader(tokens: IToken[], from: number, to: number): boolean {
  const first = tokens[from]!;
  const opens = is(first, T.If) || is(first, T.ElseIf) || is(first, T.For) || (is(first, T.Else) && is(tokens[from + 1], T.If));
  return opens && HEADER_END[tokens[to]!.tokenTypeIdx] === true;
}

/** Where the closers go on the line tokens[from..to]: before a header's THEN or DO, else after the line. */
function headerEnd(tokens: IToken[], from: number, to: number): number {
  return isHeader(tokens, from, to) ? to : to + 1;
}

/** The closers of the open brackets, innermost first, placed at `near` (before it, or just after it). */
function closersFor(stack: Open[], near: IToken, before: boolean): IToken[] {
  const offset = before ? near.startOffset : near.startOffset + near.image.length;
  const column = before ? near.startColumn! : near.startColumn! + near.image.length;
  return [...stack].reverse().map(({ token }, k) => {
    const type = CLOSER_OF.get(token.tokenTypeIdx)!;
    const closer = retype(near, type, type.name === 'RParen' ? ')' : type.name === 'RBracket' ? ']' : '}');
    closer.startOffset = offset;
    closer.startColumn = column + (before ? 0 : k);
    return closer;
  });
}

function report(tokens: IToken[], from: number, to: number, at: number, stack: Open[], source: string, problems: ProblemList): void {
  const line = tokens[from]!.startLine!;
  const closing = [...stack].reverse().map(({ token }) => (token.image === '(' ? ')' : token.image === '[' ? ']' : '}'));
  const closers = closing.join('');
  const opened = stack.map(({ token }) => `\`${token.image}\` ${token.startLine === line ? `at column ${token.startColumn}` : `on line ${token.startLine}`}`);
  const what = opened.length === 1 ? `${opened[0]} is` : `${opened.slice(0, -1).join(', ')} and ${opened[opened.length - 1]} are`;
  const last = tokens[to]!;
  if (at <= to) {
    // A header: where in the condition the closer belongs is the author's to say, so the closers put
    // before THEN are a guess (the problem is not repaired) that keeps the blocks as written.
    const message = `${what} not closed before ${last.image}: add \`${closers}\` where it belongs in the ${is(tokens[from], T.For) ? 'list' : 'condition'}`;
    problems.add({ line, column: last.startColumn!, message });
    return;
  }
  // The line as it would run, when it is short and nothing else on it was reported.
  const text = `${source.slice(tokens[from]!.startOffset, last.startOffset + last.image.length).trimEnd()}${closing.map((c) => (c === '}' ? ' }' : c)).join('')}`;
  const clean = !problems.list.some((p) => p.line === line) && !text.includes('\n') && text.length <= 120 && stack.every(({ token }) => token.startLine === line);
  const message = `${what} not closed: add \`${closers}\` at the end of ${stack.every(({ token }) => token.startLine === line) ? 'the' : 'this'} line${clean ? `: write ${text}` : ''}`;
  problems.add(repaired({ line, column: last.startColumn! + last.image.length, message }));
}

function reportSurplus(tokens: IToken[], from: number, to: number, surplus: number, source: string, problems: ProblemList): void {
  const extra = tokens[surplus]!;
  const line = extra.startLine!;
  const start = tokens[from]!.startOffset;
  const end = tokens[to]!.startOffset + tokens[to]!.image.length;
  const text = `${source.slice(start, extra.startOffset)}${source.slice(extra.startOffset + 1, end)}`;
  const clean = !problems.list.some((p) => p.line === line) && !text.includes('\n') && text.length <= 120;
  const message = `one \`(\` too many on this line: remove the \`(\` at column ${extra.startColumn}${clean ? `: write ${text}` : ''}`;
  problems.add(repaired({ line, column: extra.startColumn!, message }));
}
