// Operators borrowed from other languages, rewritten in the token stream after the mistakes pass
// (when lowercase `and`, `not` and `in` are keywords): SQL's LIKE, BETWEEN ... AND, IN (...) and
// IS NULL, Python's `is None` and slices `xs[1:3]`, and `LET x == ...`. borrowed.ts explains the
// approach; its statements' pass runs before the mistakes pass.
import type { IToken } from './chevrotain.js';
import * as T from './tokens.js';
import { STEP_MASK } from './mistakes.js';
import type { ProblemList } from './problems.js';
import { quote } from './print.js';
import { closing, CLOSES, Edits, is, make, named, opening, OPENS, report, sameLine, table, textOf } from './borrowed-edits.js';

const ENDS_OPERAND = table([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.RParen, T.RBracket, T.RBrace]);

/** Rewrites SQL's LIKE, BETWEEN, IN (...), IS NULL and Python's slices and `is None` (after the mistakes pass); pauses as rewriteStatements does. */
export function* rewriteOperators(tokens: IToken[], problems: ProblemList): Generator<void, IToken[], void> {
  const edits = new Edits(tokens);
  for (let i = 1; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    if (edits.isRemoved(i)) continue;
    const token = tokens[i]!;
    const previous = tokens[i - 1]!;
    if (is(token, T.EqualEqual) && is(previous, T.Identifier) && is(tokens[i - 2], T.Let) && tokens[i - 2]!.startLine === token.startLine) {
      // LET n == 0: a comparison's `==` where the LET's `=` belongs.
      edits.replace(i, [make(token, T.Assign, '=')]);
      const statement = lineText(tokens, i - 2, i, '=');
      report(problems, token, `LET takes one \`=\`: write ${statement ?? `LET ${previous.image} = ...`}`);
      continue;
    }
    if (!ENDS_OPERAND[previous.tokenTypeIdx] && !is(previous, T.Not)) continue;
    if (is(token, T.Identifier)) {
      const word = token.image.toUpperCase();
      if (word === 'LIKE') like(edits, i, problems);
      else if (word === 'BETWEEN') between(edits, i, problems);
      else if ((word === 'IS' && (token.image === 'IS' || token.image === 'is')) && ENDS_OPERAND[previous.tokenTypeIdx]) isNull(edits, i, problems);
    } else if (is(token, T.In) && is(tokens[i + 1], T.LParen)) {
      // x IN ("a", "b"): the parentheses are a list (the IN itself is reported by precedence.ts).
      const close = closing(tokens, i + 1);
      if (close > 0) {
        edits.replace(i + 1, [make(tokens[i + 1]!, T.LBracket, '[')]);
        edits.replace(close, [make(tokens[close]!, T.RBracket, ']')]);
      }
    } else if (is(token, T.LBracket) && ENDS_OPERAND[previous.tokenTypeIdx]) {
      slice(edits, i, problems);
    }
  }
  return edits.apply();
}

/**
 * The text of the line of tokens[from], from there to its end, with tokens[replaced] written as
 * `image`; spaces where the source had them. Undefined when long.
 */
function lineText(tokens: IToken[], from: number, replaced: number, image: string): string | undefined {
  let text = '';
  let end = -1;
  for (let k = from; k < tokens.length && tokens[k]!.startLine === tokens[from]!.startLine; k++) {
    const t = tokens[k]!;
    if (end >= 0 && t.startColumn! > end) text += ' ';
    text += k === replaced ? image : t.image;
    end = t.startColumn! + t.image.length;
  }
  return text.length <= 120 ? text : undefined;
}

/** The first token of the operand that ends at `end` (a name, a member or index chain, a call, a literal), or -1. */
function operandStart(tokens: IToken[], end: number): number {
  let i = end;
  for (;;) {
    const token = tokens[i];
    if (token === undefined) return -1;
    if (is(token, T.RParen) || is(token, T.RBracket)) {
      const open = opening(tokens, i);
      if (open < 0) return -1;
      const before = tokens[open - 1];
      // A call's name, or the operand an index applies to.
      if (is(tokens[open], T.LParen) && is(before, T.Identifier)) i = open - 1;
      else if (is(tokens[open], T.LBracket) && before !== undefined && ENDS_OPERAND[before.tokenTypeIdx]) {
        i = open - 1;
        continue;
      } else return open;
    } else if (!ENDS_OPERAND[token.tokenTypeIdx]) return -1;
    if (is(tokens[i - 1], T.Dot) && tokens[i - 2] !== undefined && ENDS_OPERAND[tokens[i - 2]!.tokenTypeIdx]) {
      i -= 2;
      continue;
    }
    return i;
  }
}

/** The last token of the operand that starts at `start` (optionally negated), or -1. */
function operandEnd(tokens: IToken[], start: number): number {
  let i = start;
  if (is(tokens[i], T.Minus)) i++;
  const first = tokens[i];
  if (first === undefined) return -1;
  if (OPENS[first.tokenTypeIdx]) i = closing(tokens, i);
  else if (!ENDS_OPERAND[first.tokenTypeIdx]) return -1;
  if (i < 0) return -1;
  for (;;) {
    const next = tokens[i + 1];
    if (is(next, T.Dot) && is(tokens[i + 2], T.Identifier)) i += 2;
    else if ((is(next, T.LBracket) || (is(next, T.LParen) && is(tokens[i], T.Identifier))) && sameLine(tokens[i]!, next)) {
      const close = closing(tokens, i + 1);
      if (close < 0) return -1;
      i = close;
    } else return i;
  }
}

/** Copies of tokens, placed at `at` (a token stream stays in source order, which the parser searches by offset). */
const copies = (tokens: IToken[], from: number, to: number, at: IToken): IToken[] =>
  tokens.slice(from, to + 1).map((t) => ({ ...t, startOffset: at.startOffset, startLine: at.startLine, startColumn: at.startColumn }));

/** `x LIKE "%abc%"` → CONTAINS(x, "abc"); "abc%" → SLICE(x, 0, 3) == "abc"; "%abc" → SLICE(x, -3) == "abc". */
function like(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const token = tokens[i]!;
  const negated = is(tokens[i - 1], T.Not);
  const end = negated ? i - 2 : i - 1;
  const start = operandStart(tokens, end);
  const pattern = tokens[i + 1];
  const value = pattern !== undefined && is(pattern, T.StringLiteral) ? (JSON.parse(pattern.image) as string) : undefined;
  const core = value?.replace(/^%/, '').replace(/%$/, '');
  if (start < 0 || value === undefined || core === undefined || /[%_]/.test(core)) {
    report(problems, token, 'there is no LIKE: test a part of a string with CONTAINS(text, "part"), or compare a SLICE, e.g. SLICE(text, 0, 3) == "abc"', false);
    return;
  }
  const first = tokens[start]!;
  const text = textOf(tokens.slice(start, end + 1));
  const not = negated ? 'NOT ' : '';
  const starts = value.endsWith('%') && !value.startsWith('%');
  const ends = value.startsWith('%') && !value.endsWith('%');
  const contains = value.startsWith('%') && value.endsWith('%');
  const literal = quote(core);
  let suggestion: string;
  let open: IToken[];
  let middle: IToken[];
  if (contains) {
    suggestion = `${not}CONTAINS(${text}, ${literal})`;
    open = [make(first, T.Identifier, 'CONTAINS'), make(first, T.LParen, '(')];
    middle = [make(token, T.Comma, ','), make(pattern!, T.StringLiteral, literal), make(pattern!, T.RParen, ')')];
  } else if (starts || ends) {
    const bounds = starts ? `0, ${core.length}` : `-${core.length}`;
    suggestion = `${not}SLICE(${text}, ${bounds}) == ${literal}`;
    open = [make(first, T.Identifier, 'SLICE'), make(first, T.LParen, '(')];
    const numbers = starts
      ? [make(token, T.Comma, ','), make(token, T.NumberLiteral, '0'), make(token, T.Comma, ','), make(token, T.NumberLiteral, String(core.length))]
      : [make(token, T.Comma, ','), make(token, T.Minus, '-'), make(token, T.NumberLiteral, String(core.length))];
    middle = [...numbers, make(token, T.RParen, ')'), make(token, T.EqualEqual, '=='), make(pattern!, T.StringLiteral, literal)];
  } else {
    suggestion = `${text} ${negated ? '!=' : '=='} ${literal}`;
    open = [];
    middle = [make(token, negated ? T.NotEqual : T.EqualEqual, negated ? '!=' : '=='), pattern!];
  }
  report(problems, token, `there is no LIKE: write ${suggestion}`);
  if (negated) {
    edits.remove(i - 1);
    open = [make(first, T.Not, 'NOT'), ...open];
  }
  edits.insertBefore(start, open);
  edits.replace(i, []);
  edits.replace(i + 1, middle);
}

/** `x BETWEEN a AND b` → (x >= a AND x <= b). */
function between(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const token = tokens[i]!;
  const start = operandStart(tokens, i - 1);
  const lowEnd = operandEnd(tokens, i + 1);
  const and = lowEnd + 1;
  const highEnd = lowEnd < 0 || !is(tokens[and], T.And) ? -1 : operandEnd(tokens, and + 1);
  if (start < 0 || highEnd < 0) {
    report(problems, token, 'there is no BETWEEN: write x >= low AND x <= high', false);
    return;
  }
  const subject = textOf(tokens.slice(start, i));
  const low = textOf(tokens.slice(i + 1, lowEnd + 1));
  const high = textOf(tokens.slice(and + 1, highEnd + 1));
  report(problems, token, `there is no BETWEEN: write ${subject} >= ${low} AND ${subject} <= ${high}`);
  edits.insertBefore(start, [make(tokens[start]!, T.LParen, '(')]);
  edits.replace(i, [make(token, T.GreaterEqual, '>=')]);
  edits.insertBefore(and + 1, [...copies(tokens, start, i - 1, tokens[and]!), make(tokens[and]!, T.LessEqual, '<=')]);
  edits.insertBefore(highEnd + 1, [make(tokens[highEnd]!, T.RParen, ')')]);
}

/** `x IS NULL`, `x IS NOT NULL`, Python's `x is None`, `x is not None` → x == null, x != null. */
function isNull(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const token = tokens[i]!;
  const negated = is(tokens[i + 1], T.Not) || named(tokens[i + 1], 'not', 'NOT');
  const value = tokens[negated ? i + 2 : i + 1];
  if (value === undefined || !(is(value, T.Null) || /^(NULL|None|null|Null|NONE)$/.test(value.image))) return;
  const start = operandStart(tokens, i - 1);
  const subject = start < 0 ? 'x' : textOf(tokens.slice(start, i));
  report(problems, token, `there is no \`${token.image}\`: write ${subject} ${negated ? '!=' : '=='} null`);
  edits.replace(i, [make(token, negated ? T.NotEqual : T.EqualEqual, negated ? '!=' : '==')]);
  if (negated) edits.remove(i + 1);
  const at = negated ? i + 2 : i + 1;
  edits.replace(at, [make(value, T.Null, 'null')]);
}

/** Python's `xs[1:3]`, `xs[:5]`, `xs[-2:]` → SLICE(xs, 1, 3), SLICE(xs, 0, 5), SLICE(xs, -2). */
function slice(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const close = closing(tokens, i);
  if (close < 0) return;
  let colon = -1;
  for (let k = i + 1, depth = 0; k < close; k++) {
    const type = tokens[k]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type]) depth--;
    else if (depth === 0 && is(tokens[k], T.Colon)) {
      if (colon >= 0) return; // xs[::2]: no Nuwa form to offer
      colon = k;
    } else if (depth === 0 && (is(tokens[k], T.ComprehensionFor) || is(tokens[k], T.For))) return;
  }
  if (colon < 0) return;
  const start = operandStart(tokens, i - 1);
  if (start < 0) return;
  const list = textOf(tokens.slice(start, i));
  const from = textOf(tokens.slice(i + 1, colon)) || '0';
  const to = textOf(tokens.slice(colon + 1, close));
  const call = `SLICE(${list}, ${from}${to ? `, ${to}` : ''})`;
  report(problems, tokens[colon]!, `there are no slices with \`:\`: write ${call}`);
  const bracket = tokens[i]!;
  edits.insertBefore(start, [make(tokens[start]!, T.Identifier, 'SLICE'), make(tokens[start]!, T.LParen, '(')]);
  edits.replace(i, from === '0' && colon === i + 1 ? [make(bracket, T.Comma, ','), make(bracket, T.NumberLiteral, '0')] : [make(bracket, T.Comma, ',')]);
  edits.replace(colon, to ? [make(tokens[colon]!, T.Comma, ',')] : []);
  edits.replace(close, [make(tokens[close]!, T.RParen, ')')]);
}
