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
//
// This module rewrites the statements; borrowed-operators.ts the operators, and borrowed-edits.ts
// holds what both passes share.
import type { IToken } from './chevrotain.js';
import * as T from './tokens.js';
import { STEP_MASK } from './mistakes.js';
import type { ProblemList } from './problems.js';
import { pending } from './methods.js';
import { closing, Edits, is, make, named, report, sameLine, table, textOf } from './borrowed-edits.js';

const STARTS_OPERAND = table([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Null, T.LParen, T.LBracket, T.LBrace, T.Call, T.Calc, T.Not, T.Minus]);
/** After these a statement starts. */
const BEFORE_STATEMENT = table([T.Then, T.Else, T.Do, T.End]);

/** Whether the token at `i` begins a statement. */
function startsStatement(tokens: IToken[], i: number): boolean {
  const previous = tokens[i - 1];
  return previous === undefined || !sameLine(previous, tokens[i]) || BEFORE_STATEMENT[previous.tokenTypeIdx] === true;
}

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
