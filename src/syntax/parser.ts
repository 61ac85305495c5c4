// Driving the grammar (grammar.ts) over a token stream: a whole script, one CALC formula, or one
// piece of a deep script for the staged parser (stage.ts). When the grammar stops before the end
// (a stray `)` or `THEN`), the leftover token is reported and parsing resumes after it, so later
// errors still show.
import { EOF, type IToken } from './chevrotain.js';
import type * as A from './ast.js';
import * as T from './tokens.js';
import { unexpectedTokenMessage } from './messages.js';
import { nameHint } from './hints.js';
import { MAX_REPETITION_RECOVERIES, sharedParser, type PrebuiltToken } from './grammar.js';
import { isRepaired, repaired, REPORTED_PROBLEMS } from './problems.js';
import { pending } from './methods.js';
import type { SyntaxProblem } from '../errors.js';

export interface ParsedTokens {
  body: A.Statement[];
  /** How many list comprehensions the body holds. */
  comprehensions: number;
  problems: SyntaxProblem[];
  /** Certain run-time mistakes in valid syntax (grammar.ts `notes`), reported only alongside syntax errors. */
  notes: SyntaxProblem[];
  /** What the noted calls mean (grammar.ts `noteRepairs`). */
  noteRepairs: Array<[A.FunctionCall, A.Expression]>;
}

/** Starts a parse: problems and notes are collected over every piece until `finish`. */
export function beginParse(): void {
  const parser = sharedParser();
  pending.clear();
  parser.extraProblems = [];
  parser.notes = [];
  parser.noteRepairs = [];
  parser.comprehensions = 0;
  parser.repetitionRecoveries = MAX_REPETITION_RECOVERIES;
}

/** Parses a token stream into statements. */
export function parseTokens(tokens: IToken[], { fresh = true }: { fresh?: boolean } = {}): ParsedTokens {
  if (fresh) beginParse();
  const parser = sharedParser();
  const body: A.Statement[] = [];
  const problems: SyntaxProblem[] = [];
  runWithRestarts(tokens, undefined, () => parser.script(), body, problems);
  const parsed = { body, comprehensions: parser.comprehensions, problems: [...problems, ...collectExtra(tokens)].slice(0, REPORTED_PROBLEMS * 2), notes: parser.notes, noteRepairs: parser.noteRepairs };
  releaseTokens();
  return parsed;
}

const NO_TOKENS: IToken[] = [];

/**
 * Lets go of the tokens the shared parser last read (its input and its errors): otherwise they stay
 * alive until the next parse, a megabyte of text's tokens about 100 MB.
 */
function releaseTokens(): void {
  sharedParser().input = NO_TOKENS;
}

/**
 * Runs `rule` over `tokens` (plus `follower`, the token after the piece, which the rule must stop
 * at), resuming after each token the rule stops at early.
 */
function runWithRestarts(tokens: IToken[], follower: IToken | undefined, rule: () => A.Statement[], body: A.Statement[], problems: SyntaxProblem[]): void {
  const parser = sharedParser();
  const input = follower ? [...tokens, follower] : tokens;
  let start = 0;
  while (start < tokens.length && problems.length < REPORTED_PROBLEMS) {
    parser.input = start === 0 ? input : input.slice(start);
    const statements = rule();
    for (let i = 0; i < statements.length; i++) body.push(statements[i]!);
    let stoppedAt: IToken | undefined;
    for (const error of parser.errors) {
      if (error.name === 'NotAllInputParsedException') stoppedAt = error.token;
      else problems.push(problemOf(tokens, error.token, (error as { previousToken?: IToken }).previousToken, error.message, follower));
    }
    if (!stoppedAt || stoppedAt === follower) break;
    problems.push(problemOf(tokens, stoppedAt, undefined, unexpectedTokenMessage(stoppedAt), follower));
    const index = indexOfToken(tokens, stoppedAt);
    start = index < 0 ? tokens.length : index + 1;
  }
}

/** The problems the grammar's actions found since `beginParse`, with hints. */
function collectExtra(tokens: IToken[]): SyntaxProblem[] {
  const parser = sharedParser();
  const out: SyntaxProblem[] = [];
  for (const { problem, token } of parser.extraProblems) {
    const hint = token && hintNear(tokens, token);
    if (!hint || problem.message.includes(hint)) out.push(problem);
    else {
      const hinted = { ...problem, message: `${problem.message}: ${hint}` };
      out.push(isRepaired(problem) ? repaired(hinted) : hinted);
    }
  }
  parser.extraProblems = [];
  out.push(...unusedPieces());
  return out;
}

/**
 * Arrow functions and spreads no method took (`LET double = x => x * 2`, `[...a, ...b]`): each is
 * reported on its own. Their stand-ins are values nobody knows, so the tree keeps its shape.
 */
function unusedPieces(): SyntaxProblem[] {
  const out: SyntaxProblem[] = [];
  for (const { at } of pending.lambdas.values()) {
    out.push(repaired({ ...at, message: 'there are no functions or arrow functions (`=>`): use a list comprehension, [expression FOR x IN list IF condition], or a FOR loop' }));
  }
  for (const at of pending.spreads.values()) {
    out.push(repaired({ ...at, message: 'there is no spread (`...`): pass the list itself (MAX(list), SUM(list)); to join two lists, APPEND the items of one to the other in a FOR loop' }));
  }
  pending.clear();
  return out;
}

/** One piece of a deep script (stage.ts): an expression, or the statements of a block. */
export function parseSegment<K extends 'expression' | 'block'>(
  kind: K,
  tokens: IToken[],
  follower: IToken | undefined,
): { result: K extends 'expression' ? A.Expression : A.Statement[]; problems: SyntaxProblem[] } {
  const parser = sharedParser();
  const problems: SyntaxProblem[] = [];
  if (kind === 'block') {
    const body: A.Statement[] = [];
    runWithRestarts(tokens, follower, () => parser.block(), body, problems);
    problems.push(...collectExtra(tokens));
    return { result: body as never, problems };
  }
  parser.input = follower ? [...tokens, follower] : tokens;
  const expression = parser.expression();
  for (const error of parser.errors) {
    const leftover = error.name === 'NotAllInputParsedException';
    if (leftover && error.token === follower) continue;
    problems.push(problemOf(tokens, error.token, undefined, leftover ? unexpectedTokenMessage(error.token) : error.message, follower));
  }
  problems.push(...collectExtra(tokens));
  return { result: expression as never, problems };
}

/** The problems where the grammar itself failed (error recovery took over there), as opposed to those its actions report. */
const recoveryProblems = new WeakSet<SyntaxProblem>();

export function isRecoveryProblem(problem: SyntaxProblem): boolean {
  return recoveryProblems.has(problem);
}

function problemOf(tokens: IToken[], token: IToken, previous: IToken | undefined, message: string, follower?: IToken): SyntaxProblem {
  const problem = locate(tokens, token, previous, message, follower);
  recoveryProblems.add(problem);
  return problem;
}

function locate(tokens: IToken[], token: IToken, previous: IToken | undefined, message: string, follower?: IToken): SyntaxProblem {
  const hint = hintNear(tokens, token);
  const text = hint && !message.includes(hint) ? `${message}: ${hint}` : message;
  // At the end of the text Chevrotain reports the EOF token, which has no position: point just
  // after the last real token instead.
  if (token.tokenType === EOF || token.startLine === undefined || Number.isNaN(token.startLine)) {
    const candidate = previous && Number.isFinite(previous.startLine) ? previous : (follower ?? tokens[tokens.length - 1]);
    // A stand-in for a parsed piece (stage.ts) ends where the piece's last token does.
    const last = (candidate as Partial<PrebuiltToken<unknown>> | undefined)?.last ?? candidate;
    const after = last !== follower;
    return { line: last?.startLine ?? 1, column: last ? last.startColumn! + (after ? last.image.length : 0) : 1, message: text };
  }
  return { line: token.startLine, column: token.startColumn ?? 1, message: text };
}

function indexOfToken(tokens: IToken[], token: IToken): number {
  if (token.tokenType === EOF || Number.isNaN(token.startOffset)) return tokens.length;
  let low = 0;
  let high = tokens.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const offset = tokens[middle]!.startOffset;
    if (offset === token.startOffset) {
      // Stand-in tokens (an END the block pass inserted) share their neighbour's offset.
      let index = middle;
      while (index > 0 && tokens[index - 1]!.startOffset === offset) index--;
      while (index < tokens.length - 1 && tokens[index] !== token && tokens[index + 1]!.startOffset === offset) index++;
      return index;
    }
    if (offset < token.startOffset) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Looks at the offending token and the two before it for a mistake we can name. */
function hintNear(tokens: IToken[], token: IToken): string | undefined {
  const index = indexOfToken(tokens, token);
  if (index < 0) return undefined;
  for (let i = Math.min(index, tokens.length - 1); i >= Math.max(0, index - 2); i--) {
    const candidate = tokens[i];
    if (candidate?.tokenType === T.Identifier) {
      const hint = nameHint(candidate.image);
      if (hint) return hint;
    }
  }
  return undefined;
}

/** Parses tokens as one expression (CALC formulas). Leftover tokens are a problem. */
export function parseExpressionTokens(tokens: IToken[]): { expression: A.Expression; problems: SyntaxProblem[] } {
  beginParse();
  const parser = sharedParser();
  parser.input = tokens;
  const expression = parser.expression();
  const problems = collectExtra(tokens);
  for (const error of parser.errors) problems.push(problemOf(tokens, error.token, undefined, error.message));
  releaseTokens();
  return { expression, problems };
}

/** The grammar as Chevrotain serializes it: for the syntax diagrams and the EBNF check (`npm run grammar`). */
export function serializedGrammar(): ReturnType<ReturnType<typeof sharedParser>['getSerializedGastProductions']> {
  return sharedParser().getSerializedGastProductions();
}

/** True when more text could still complete `tokens` into a valid script (grammar only; for the REPL's continuation lines). */
export function canContinue(tokens: IToken[]): boolean {
  return sharedParser().computeContentAssist('script', tokens).length > 0;
}
