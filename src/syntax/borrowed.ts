// Statements and operators borrowed from other languages, rewritten in the token stream into the
// Nuwa Script they stand for, each with one problem that says so: Python's `try:` / `except:` and
// JavaScript's `try { } catch { }` (Nuwa has no exceptions: a failing CALL stops the script),
// `await CALL`, `const x = ...`, arrow functions and lambdas (read by methods.ts), SQL's LIKE,
// BETWEEN ... AND, IN (...) and IS NULL, and Python's slices `xs[1:3]`.
//
// Like the mistakes pass (mistakes.ts), a rewrite gives the grammar the structure the author meant,
// so nothing after a mistake cascades and the checker can read the script (problems.ts, repaired).
// The message is built from the tokens as rewritten, never from the mistaken text. Two passes:
// `rewriteStatements` runs before the mistakes pass (which would take `try {` for a tool called
// without CALL), `rewriteOperators` after it (when lowercase `and`, `not` and `in` are keywords).
import type { IToken, TokenType } from './chevrotain.js';
import * as T from './tokens.js';
import { retype, STEP_MASK } from './mistakes.js';
import { repaired, type ProblemList } from './problems.js';
import { pending } from './methods.js';
import { quote } from './print.js';

const table = (types: TokenType[]): boolean[] => {
  const out: boolean[] = [];
  for (const type of types) out[type.tokenTypeIdx!] = true;
  return out;
};
const OPENS = table([T.LParen, T.LBracket, T.LBrace]);
const CLOSES = table([T.RParen, T.RBracket, T.RBrace]);
const ENDS_OPERAND = table([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.RParen, T.RBracket, T.RBrace]);
const STARTS_OPERAND = table([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.LParen, T.LBracket, T.LBrace, T.Call, T.Calc, T.Not, T.Minus]);
/** After these a statement starts. */
const BEFORE_STATEMENT = table([T.Then, T.Else, T.Do, T.End]);

const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && token.tokenTypeIdx === type.tokenTypeIdx;
const named = (token: IToken | undefined, ...names: string[]): boolean => is(token, T.Identifier) && names.includes(token!.image);
const sameLine = (a: IToken, b: IToken | undefined): boolean => b !== undefined && b.startLine === a.startLine;

/** The edits of one pass: tokens to remove, to put in place of others, and to insert. */
class Edits {
  private readonly removed = new Set<number>();
  private readonly replaced = new Map<number, IToken[]>();
  private readonly before = new Map<number, IToken[]>();

  constructor(readonly tokens: IToken[]) {}

  remove(from: number, to = from): void {
    for (let i = from; i <= to; i++) this.removed.add(i);
  }

  isRemoved(i: number): boolean {
    return this.removed.has(i) || this.replaced.has(i);
  }

  replace(i: number, tokens: IToken[]): void {
    this.replaced.set(i, tokens);
  }

  insertBefore(i: number, tokens: IToken[]): void {
    this.before.set(i, [...(this.before.get(i) ?? []), ...tokens]);
  }

  get empty(): boolean {
    return this.removed.size === 0 && this.replaced.size === 0 && this.before.size === 0;
  }

  apply(): IToken[] {
    if (this.empty) return this.tokens;
    const out: IToken[] = [];
    for (let i = 0; i <= this.tokens.length; i++) {
      const first = this.before.get(i);
      if (first) out.push(...first);
      if (i === this.tokens.length) break;
      const replacement = this.replaced.get(i);
      if (replacement) out.push(...replacement);
      else if (!this.removed.has(i)) out.push(this.tokens[i]!);
    }
    return out;
  }
}

/** Whether the token at `i` begins a statement. */
function startsStatement(tokens: IToken[], i: number): boolean {
  const previous = tokens[i - 1];
  return previous === undefined || !sameLine(previous, tokens[i]) || BEFORE_STATEMENT[previous.tokenTypeIdx] === true;
}

/**
 * How far the passes look for a matching bracket. The constructs they read are short; text with
 * thousands of brackets left open must not cost a walk to its end for each one.
 */
const SCAN_LIMIT = 1024;

/** The index of the bracket that closes the one opened at `open` (within `limit` tokens), or -1. */
function closing(tokens: IToken[], open: number, limit = SCAN_LIMIT): number {
  let depth = 0;
  const end = Math.min(tokens.length, open + limit);
  for (let i = open; i < end; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (OPENS[type]) depth++;
    else if (CLOSES[type] && --depth === 0) return i;
  }
  return -1;
}

/** The index of the bracket that opens the one closed at `close` (within SCAN_LIMIT tokens), or -1. */
function opening(tokens: IToken[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - SCAN_LIMIT; i--) {
    const type = tokens[i]!.tokenTypeIdx;
    if (CLOSES[type]) depth++;
    else if (OPENS[type] && --depth === 0) return i;
  }
  return -1;
}

/** Tokens as text, with a space where the source had one. */
export function textOf(tokens: readonly IToken[]): string {
  let text = '';
  for (let k = 0; k < tokens.length; k++) {
    const previous = tokens[k - 1];
    if (previous && (tokens[k]!.startOffset > previous.startOffset + previous.image.length || tokens[k]!.startOffset === previous.startOffset)) text += ' ';
    text += tokens[k]!.image;
  }
  return text;
}

/** A new token of `type` at the place of `near` (the grammar reads its position for the tree). */
const make = (near: IToken, type: TokenType, image: string): IToken => retype(near, type, image);

function report(problems: ProblemList, token: IToken, message: string, fixed = true): void {
  const problem = { line: token.startLine!, column: token.startColumn!, message };
  problems.add(fixed ? repaired(problem) : problem);
}

// --- statements -----------------------------------------------------------------------------------

/** How many `for (` and `if (` headers one parse reads as blocks in braces (braceBlock). */
const MAX_BRACE_TRIES = 64;

const TRY_MESSAGE = 'there is no try/except in Nuwa Script: a CALL that fails stops the script with its error';

/**
 * Rewrites `try`, `except`, `await`, `const`, lambdas and arrow parameters (before the mistakes pass).
 * A generator that pauses as recogniseMistakes does, for a sliced parse.
 */
export function* rewriteStatements(tokens: IToken[], problems: ProblemList): Generator<void, IToken[], void> {
  pending.lambdaParams.clear();
  pending.definitions.clear();
  const edits = new Edits(tokens);
  let braceTries = 0;
  for (let i = 0; i < tokens.length; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield;
    if (edits.isRemoved(i)) continue;
    const token = tokens[i]!;
    const next = tokens[i + 1];
    if (token.tokenTypeIdx === T.Identifier.tokenTypeIdx) {
      const word = token.image;
      if (startsStatement(tokens, i)) {
        if ((word === 'try' || word === 'Try') && (is(next, T.Colon) || is(next, T.LBrace))) {
          tryBlock(edits, i, problems);
          continue;
        }
        if (/^(except|catch|finally)$/.test(word) && pythonHandler(edits, i, problems)) continue;
        // Each try looks for the block's closing brace: a bounded number of them, so that text made of
        // thousands of `if (x) {` never costs a walk to the end of the text for each.
        if ((word === 'for' || word === 'if') && is(next, T.LParen) && braceTries++ < MAX_BRACE_TRIES && braceBlock(edits, i, problems)) continue;
        if (/^(def|function|func|fn|fun|sub|Sub|FUNCTION|DEF)$/.test(word) && is(next, T.Identifier) && is(tokens[i + 2], T.LParen) && sameLine(token, tokens[i + 2])) {
          definition(edits, i, problems);
          continue;
        }
        if (/^(const|var|val|auto|local|my|dim|Dim|DIM|set|SET)$/.test(word) && is(next, T.Identifier) && is(tokens[i + 2], T.Assign)) {
          report(problems, token, `write LET: there is no \`${word}\`, a variable is set with LET ${next!.image} = ...`);
          edits.replace(i, [make(token, T.Let, 'LET')]);
          continue;
        }
      }
      if (/^(await|async)$/.test(word) && sameLine(token, next) && STARTS_OPERAND[next!.tokenTypeIdx]) {
        const rest = restOfLine(tokens, i + 1);
        report(problems, token, `there is no \`${word}\`: every CALL waits for its result, so remove it: write ${rest}`);
        edits.remove(i);
        continue;
      }
      if (word === 'lambda' && is(next, T.Identifier)) {
        lambda(edits, i, problems);
        continue;
      }
    }
    // `(a, b) => ...`: the arrow function's first parameter stands for all of them (methods.ts).
    if (is(token, T.LParen)) {
      const close = closing(tokens, i, 64);
      if (close > i && is(tokens[close + 1], T.Arrow) && isParameterList(tokens, i + 1, close)) {
        const params = tokens.slice(i + 1, close).filter((t) => is(t, T.Identifier));
        if (params.length > 0) {
          pending.lambdaParams.set(`${params[0]!.startLine}:${params[0]!.startColumn}`, params.map((p) => p.image));
          edits.remove(i);
          for (let k = i + 2; k <= close; k++) edits.remove(k);
        }
      }
    }
  }
  return edits.apply();
}

function isParameterList(tokens: IToken[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!(is(tokens[k], (k - from) % 2 === 0 ? T.Identifier : T.Comma))) return false;
  return true;
}

/** `lambda x, y: body` → `x => body`, the parameters recorded. */
function lambda(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const params: IToken[] = [];
  let k = i + 1;
  for (; k < tokens.length && is(tokens[k], T.Identifier); k += 2) {
    params.push(tokens[k]!);
    if (!is(tokens[k + 1], T.Comma)) {
      k++;
      break;
    }
  }
  if (!is(tokens[k], T.Colon)) {
    report(problems, tokens[i]!, 'there are no functions (lambda): use a list comprehension, [expression FOR x IN list IF condition]', false);
    return;
  }
  edits.remove(i);
  for (let p = i + 2; p < k; p++) edits.remove(p);
  edits.replace(k, [make(tokens[k]!, T.Arrow, '=>')]);
  pending.lambdaParams.set(`${params[0]!.startLine}:${params[0]!.startColumn}`, params.map((p) => p.image));
}

/**
 * `try:` (Python) or `try {` ... `} catch (e) { ... }` (JavaScript): the guarded statements stay, the
 * handler goes (a failing CALL stops the script, and the handler could never run).
 */
function tryBlock(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const token = tokens[i]!;
  if (is(tokens[i + 1], T.Colon)) {
    report(problems, token, `${TRY_MESSAGE}: remove the \`try:\` line and keep the statements under it (to guard against a bad value, check it with IF ... THEN ... END)`);
    edits.remove(i, i + 1);
    return;
  }
  const close = closing(tokens, i + 1);
  if (close < 0) {
    report(problems, token, `${TRY_MESSAGE}: remove \`try {\` and its \`}\``, false);
    return;
  }
  report(problems, token, `${TRY_MESSAGE}: remove \`try {\` and its \`}\`, keep the statements inside, and remove the catch block`);
  edits.remove(i, i + 1);
  edits.remove(close);
  let k = close + 1;
  while (named(tokens[k], 'catch', 'finally')) {
    const handler = named(tokens[k], 'catch');
    let open = k + 1;
    if (is(tokens[open], T.LParen)) open = closing(tokens, open) + 1;
    if (open <= 0 || !is(tokens[open], T.LBrace)) return;
    const end = closing(tokens, open);
    if (end < 0) return;
    if (handler) edits.remove(k, end);
    else {
      edits.remove(k, open);
      edits.remove(end);
    }
    k = end + 1;
  }
}

/**
 * Python's `except ValueError as e:` and `finally:`: the handler and the statements indented under
 * it go (an `END` after them too); `finally:` keeps its statements, which run anyway.
 */
function pythonHandler(edits: Edits, i: number, problems: ProblemList): boolean {
  const { tokens } = edits;
  const token = tokens[i]!;
  let colon = i + 1;
  while (colon < tokens.length && sameLine(token, tokens[colon]) && !is(tokens[colon], T.Colon)) colon++;
  if (!is(tokens[colon], T.Colon) || !sameLine(token, tokens[colon])) return false;
  if (token.image === 'finally') {
    report(problems, token, `${TRY_MESSAGE}: remove the \`finally:\` line and keep the statements under it`);
    edits.remove(i, colon);
    return true;
  }
  report(problems, token, `${TRY_MESSAGE}: remove the \`${token.image}\` line and the statements under it`);
  let end = colon;
  const indent = token.startColumn!;
  for (let k = colon + 1; k < tokens.length; k++) {
    const t = tokens[k]!;
    const firstOnLine = !sameLine(t, tokens[k - 1]);
    if (firstOnLine && t.startColumn! <= indent) {
      // An END that closed the try "block" belongs to the mistake too.
      if (is(t, T.End) && t.startColumn === indent && !sameLine(t, tokens[k + 1])) end = k;
      break;
    }
    end = k;
  }
  edits.remove(i, end);
  return true;
}

/** The rest of the line from `start`, as the message's suggestion (a CALL's arguments shortened). */
function restOfLine(tokens: IToken[], start: number): string {
  const line: IToken[] = [];
  for (let k = start; k < tokens.length && sameLine(tokens[start]!, tokens[k]); k++) line.push(tokens[k]!);
  const text = textOf(line);
  if (text.length <= 60) return text;
  if (is(line[0], T.Call) && is(line[1], T.Identifier)) return `CALL ${line[1]!.image} { ... }`;
  return `${text.slice(0, 56)}...`;
}

// --- operators ------------------------------------------------------------------------------------

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
 * JavaScript's blocks: `for (let i = 0; i < n; i++) {`, `for (const x of xs) {` and `if (c) {`, each
 * with its `}` (and `} else {`), as FOR ... IN ... DO, IF ... THEN, ELSE and END. The lexer reported
 * the header's `;` and `++` on their own; they are part of this one mistake, so those reports go.
 * False when the header is none of these.
 */
function braceBlock(edits: Edits, i: number, problems: ProblemList): boolean {
  const { tokens } = edits;
  const close = closing(tokens, i + 1);
  const brace = close + 1;
  if (close < 0 || !is(tokens[brace], T.LBrace) || !sameLine(tokens[i]!, tokens[brace])) return false;
  const end = closing(tokens, brace);
  if (end < 0) return false;
  const inner = tokens.slice(i + 2, close);
  const header = tokens[i]!.image === 'for' ? forHeader(inner, tokens[i]!) : inner.length > 0 ? [make(tokens[i]!, T.If, 'IF'), ...inner, make(tokens[brace]!, T.Then, 'THEN')] : undefined;
  if (header === undefined) return false;
  const line = tokens[i]!.startLine!;
  const dropped = problems.list.filter((p) => p.line === line && (p.message.startsWith('unexpected character `;`') || p.message.startsWith('there is no `++`')));
  for (const problem of dropped) problems.list.splice(problems.list.indexOf(problem), 1);
  problems.count -= dropped.length;
  edits.remove(i, brace);
  edits.insertBefore(i, header);
  report(problems, tokens[i]!, `there are no braces around blocks: write ${spaced(header)} ... END`);
  // `} else {`: ELSE, and the block goes on to the next `}`.
  let closer = end;
  while (is(tokens[closer + 1], T.Identifier) && tokens[closer + 1]!.image === 'else' && is(tokens[closer + 2], T.LBrace)) {
    const next = closing(tokens, closer + 2);
    if (next < 0) break;
    edits.replace(closer, [make(tokens[closer]!, T.Else, 'ELSE')]);
    edits.remove(closer + 1, closer + 2);
    report(problems, tokens[closer]!, 'write ELSE: there are no braces around blocks (`} else {`)');
    closer = next;
  }
  edits.replace(closer, [make(tokens[closer]!, T.End, 'END')]);
  report(problems, tokens[closer]!, 'write END: a block ends with END, not `}`');
  return true;
}

/** Tokens some of which are new (without a place in the text), written with the usual spaces. */
function spaced(tokens: readonly IToken[]): string {
  let text = '';
  tokens.forEach((token, k) => {
    const previous = tokens[k - 1];
    const tight =
      previous === undefined ||
      is(previous, T.LParen) || is(previous, T.LBracket) || is(previous, T.Dot) ||
      is(token, T.RParen) || is(token, T.RBracket) || is(token, T.Comma) || is(token, T.Dot) || is(token, T.Colon) ||
      ((is(token, T.LParen) || is(token, T.LBracket)) && (is(previous, T.Identifier) || is(previous, T.RParen) || is(previous, T.RBracket)));
    text += `${tight ? '' : ' '}${token.image}`;
  });
  return text;
}

/**
 * The FOR header for what a C-style `for (...)` holds: `let i = a; i < b; i++` counts with RANGE,
 * `const x of xs` loops over a list, `const k in obj` over an object's keys. Undefined otherwise.
 */
function forHeader(inner: IToken[], at: IToken): IToken[] | undefined {
  const body = /^(let|var|const)$/.test(inner[0]?.image ?? '') ? inner.slice(1) : inner;
  const name = body[0];
  if (!is(name, T.Identifier)) return undefined;
  const loop = (iterable: IToken[]) => [make(at, T.For, 'FOR'), name!, make(at, T.In, 'IN'), ...iterable, make(at, T.Do, 'DO')];
  const word = body[1]?.image;
  if ((word === 'of' || word === 'in' || is(body[1], T.In)) && body.length > 2) {
    const list = body.slice(2);
    return loop(word === 'of' ? list : [make(at, T.Identifier, 'KEYS'), make(at, T.LParen, '('), ...list, make(at, T.RParen, ')')]);
  }
  // i = a (i < b | i <= b) i: the `;` and `++` are gone already.
  if (!is(body[1], T.Assign)) return undefined;
  const test = body.findIndex((t, k) => k > 2 && t.image === name!.image && (is(body[k + 1], T.Less) || is(body[k + 1], T.LessEqual)));
  const last = body.length - 1;
  if (test < 0 || body[last]!.image !== name!.image || last <= test + 2) return undefined;
  const start = body.slice(2, test);
  const bound = body.slice(test + 2, last);
  const upTo = is(body[test + 1], T.LessEqual) ? [...bound, make(at, T.Plus, '+'), make(at, T.NumberLiteral, '1')] : bound;
  const zero = start.length === 1 && start[0]!.image === '0';
  const args = zero ? upTo : [...start, make(at, T.Comma, ','), ...upTo];
  return loop([make(at, T.Identifier, 'RANGE'), make(at, T.LParen, '('), ...args, make(at, T.RParen, ')')]);
}

/**
 * `def to_f(c):` or `function toF(c) {`: there are no functions of a script's own. The header is
 * left out (its body's statements are read, and reported, as they stand), and a call of the name is
 * answered with where it was defined (grammar.ts).
 */
function definition(edits: Edits, i: number, problems: ProblemList): void {
  const { tokens } = edits;
  const name = tokens[i + 1]!;
  pending.definitions.set(name.image, name.startLine!);
  let k = i;
  while (k + 1 < tokens.length && tokens[k + 1]!.startLine === tokens[i]!.startLine) k++;
  edits.remove(i, k);
  report(
    problems,
    tokens[i]!,
    `there are no functions of your own (\`${tokens[i]!.image}\`): write what ${name.image} computes where it is used, or keep a value in a variable with LET`,
    false,
  );
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
