// The syntax layer's entry point: source text → Program, or one SyntaxError listing every problem.
//   tokenize (lexer.ts, with the mistakes pass) → balanceBlocks (blocks.ts) → the grammar, in
//   stages for deep text (stage.ts) — all on the caller's stack, synchronously; or, for a run
//   (parseInSlices), long text in slices with the event loop let in between. Long text is first
//   tried a run of statements at a time (streamed.ts), which keeps few tokens alive; at any problem
//   it is parsed whole as above, for the report.
import type { Program } from './ast.js';
import { NuwaError, type SyntaxProblem } from '../errors.js';
import type { IToken } from './chevrotain.js';
import { tokenize, tokenizeInSlices, type Between, type LexResult } from './lexer.js';
import type { ParsedTokens } from './parser.js';
import * as T from './tokens.js';
import { balanceBlocks } from './blocks.js';
import { parseScriptTokens } from './stage.js';
import { isRecoveryProblem } from './parser.js';
import { isolateLines } from './isolate.js';
import { parseStreamed, parseStreamedNow, type StreamedStatements } from './streamed.js';
import { anyCall } from './nodes.js';
import { byPosition, isRepaired, ProblemList, REPORTED_PROBLEMS } from './problems.js';

export interface ParseOptions {
  /** Used in error positions. */
  fileName?: string;
}

export function parse(source: string, options: ParseOptions = {}): Program {
  const outcome = parseProblems(source);
  if ('problems' in outcome) throw syntaxError(outcome.problems, options.fileName, outcome.problemCount);
  return outcome.program;
}

export type ParseOutcome = { program: Program } | { problems: SyntaxProblem[]; /** All problems found, listed or not. */ problemCount?: number };

/**
 * What error recovery made of a script with syntax errors: the tree, with stand-ins where text was
 * skipped or a value could not be recovered (nodes.ts), and whether every problem was repaired where
 * it stands (problems.ts), so that the tree is the script its author meant.
 */
export interface Recovered {
  program: Program;
  repaired: boolean;
}

export type RecoveringOutcome = { program: Program } | { problems: SyntaxProblem[]; problemCount?: number; recovered?: Recovered };

/**
 * Parses without throwing. (The second argument is ignored: deep text no longer goes to a worker
 * thread, and callers written for that version may still pass `{ allowWorker }`.)
 */
export function parseProblems(source: string, _options?: { allowWorker?: boolean }): ParseOutcome {
  const outcome = parseWithRecovery(source);
  if (!('recovered' in outcome)) return outcome;
  const { recovered: _, ...problems } = outcome;
  return problems;
}

/**
 * parseProblems, and for a script with syntax errors also what error recovery made of it (absent
 * for text the grammar never ran on: hopeless or nested too deep). The checker reads it to report
 * the script's other mistakes together with its syntax errors (check/recovered.ts).
 */
export function parseWithRecovery(source: string): RecoveringOutcome {
  if (typeof source !== 'string') {
    return { problems: [{ line: 1, column: 1, message: `a script must be text, not ${source === null ? 'null' : typeof source}` }] };
  }
  try {
    return parseText(source);
  } catch (error) {
    // Whatever the text, parsing ends in a Program or a SyntaxError, never a host crash. The parser
    // is bounded in depth (stage.ts), so this is a last line of defence for a host whose own stack is
    // nearly used up when it calls parse().
    if (!(error instanceof RangeError)) throw error;
    return { problems: [{ line: 1, column: 1, message: 'the script is too large or nests too deeply for this host to parse: split it with LET' }] };
  }
}

function parseText(source: string): RecoveringOutcome {
  if (!isShortSource(source)) {
    // Long text without mistakes a piece at a time (streamed.ts), as parseInSlices does.
    const streamed = streamedNow(source);
    if (streamed !== undefined) return { program: programOf(streamed.body, streamed.comprehensions) };
  }
  const lexed = tokenize(source);
  const early = stopsAtTokens(lexed);
  if (early !== undefined) return early;
  const blockProblems = new ProblemList();
  const tokens = balanceBlocks(lexed.tokens, blockProblems);
  const { parsed, isolated } = isolateFailures(lexed, tokens, parseScriptTokens(tokens, lexed.maxNesting));
  return outcome(lexed, blockProblems, parsed, isolated);
}

// The streamed parse's outcome, or undefined where it overflowed the stack: then the ordinary parse
// decides what to report (it catches RangeError itself).
function streamedNow(source: string): StreamedStatements | undefined {
  try {
    return parseStreamedNow(source, STREAM_SLICE_CHARS);
  } catch (error) {
    return overflowAsNothing(error);
  }
}

async function streamedInSlices(source: string, between: Between): Promise<StreamedStatements | undefined> {
  try {
    return await parseStreamed(source, between, STREAM_SLICE_CHARS);
  } catch (error) {
    return overflowAsNothing(error);
  }
}

function overflowAsNothing(error: unknown): undefined {
  if (!(error instanceof RangeError)) throw error;
  return undefined;
}

/** Text with problems that the grammar must not see, or would only add noise to. */
function stopsAtTokens(lexed: LexResult): ParseOutcome | undefined {
  if (lexed.tooDeep) return finish(lexed.problems, lexed.problemCount);
  // Text with this many problems at the level of characters is not a script gone slightly wrong;
  // what the grammar would add is noise (and, for a megabyte of junk, a long wait).
  if (lexed.problemCount >= REPORTED_PROBLEMS) return finish(lexed.problems, lexed.problemCount);
  return undefined;
}

/**
 * Where the grammar failed, keep the failure on its line (isolate.ts): the failing lines are parsed
 * again with their unreadable parts standing in as unknown values, so recovery's guesses add no
 * errors elsewhere. The parse and the lines it isolated.
 */
function isolateFailures(lexed: LexResult, tokens: IToken[], parsed: ParsedTokens): { parsed: ParsedTokens; isolated: Set<number> } {
  const failing = new Set(parsed.problems.filter(isRecoveryProblem).map((problem) => problem.line));
  const isolation = failing.size > 0 && failing.size <= REPORTED_PROBLEMS ? isolateLines(tokens, failing) : undefined;
  if (isolation === undefined) return { parsed, isolated: new Set() };
  const on = (problem: SyntaxProblem) => isolation.isolated.has(problem.line);
  const again = parseScriptTokens(isolation.tokens, lexed.maxNesting);
  if (again.problems.filter((p) => !on(p)).length > parsed.problems.filter((p) => !on(p)).length) return { parsed, isolated: new Set() };
  // The first failure on each isolated line is its error (unless the lexer or the mistakes pass
  // already said what is wrong there); what recovery made of the rest of the line, noise.
  const first = new Set<number>(lexed.problems.map((p) => p.line));
  const kept = parsed.problems.filter((p) => on(p) && (!isRecoveryProblem(p) || (!first.has(p.line) && first.add(p.line))));
  return {
    parsed: {
      ...again,
      problems: [...kept, ...again.problems.filter((p) => !on(p))],
      notes: [...parsed.notes.filter(on), ...again.notes.filter((p) => !on(p))],
    },
    isolated: isolation.isolated,
  };
}

function outcome(lexed: LexResult, blockProblems: ProblemList, parsed: ParsedTokens, isolated: ReadonlySet<number> = new Set()): RecoveringOutcome {
  const count = lexed.problemCount + blockProblems.count + parsed.problems.length;
  if (count === 0) return { program: programOf(parsed.body, parsed.comprehensions) };
  // The script will not run: report the certain run-time mistakes too, so one retry fixes all.
  const outcome = finish([...lexed.problems, ...blockProblems.list, ...parsed.problems, ...parsed.notes], count + parsed.notes.length);
  const found = [...lexed.problems, ...blockProblems.list, ...parsed.problems];
  // An isolated line's failure left a stand-in in a statement of the right kind: the structure holds.
  const repaired = found.length === count && found.every((p) => isRepaired(p) || (isolated.has(p.line) && isRecoveryProblem(p)));
  // The tree is never run now: read each noted call as what it means, for the checker.
  for (const [call, meant] of parsed.noteRepairs) {
    for (const key of Object.keys(call)) delete (call as unknown as Record<string, unknown>)[key];
    Object.assign(call, meant);
  }
  const program: Program = { type: 'Program', body: parsed.body, line: 1, column: 1, hasCall: anyCall(parsed.body) };
  return { ...outcome, recovered: { program, repaired } };
}

/** Text longer than this is parsed in slices by parseInSlices; shorter text in one step. */
export const PARSE_SLICE_CHARS = 64 * 1024;

/** Whether parseInSlices would parse `source` in one step (then `parse` does the same, synchronously). */
export function isShortSource(source: string): boolean {
  return source.length <= PARSE_SLICE_CHARS;
}
/**
 * How much text parseStreamed lexes at a time: small enough that a piece's tokens are garbage before
 * the young generation is next collected (so they are never copied to the old one), large enough that
 * the work per piece stays small beside the piece.
 */
const STREAM_SLICE_CHARS = 16 * 1024;
/** About how many tokens the grammar parses between two calls of `between`. */
const PARSE_SLICE_TOKENS = 16 * 1024;

/**
 * parse, for a run that must stay interruptible while it parses (TOOLS.md §7: parsing counts toward
 * the run's time and can be cancelled): long text is lexed in slices, and its top-level statements
 * are parsed a few thousand tokens at a time, with `between` called after each slice (it throws to
 * stop the parse, or returns a promise to let the event loop in). Short text is parsed in one step,
 * exactly as by parse. Each slice is a whole parse of its own, so parses of other runs may go on in
 * between.
 */
export async function parseInSlices(source: string, options: ParseOptions, between: Between): Promise<Program> {
  if (typeof source !== 'string' || isShortSource(source)) return parse(source, options);
  // Text without mistakes (most long text: generated plans) a piece at a time, so that its tokens
  // are never all alive at once (streamed.ts); text with any problem, the ordinary way below.
  const streamed = await streamedInSlices(source, between);
  if (streamed !== undefined) return programOf(streamed.body, streamed.comprehensions);
  let result: ParseOutcome;
  try {
    const lexed = await tokenizeInSlices(source, between, PARSE_SLICE_CHARS);
    const early = stopsAtTokens(lexed);
    if (early !== undefined) {
      result = early;
    } else {
      await between();
      const blockProblems = new ProblemList();
      const tokens = balanceBlocks(lexed.tokens, blockProblems);
      const parsed: ParsedTokens = { body: [], comprehensions: 0, problems: [], notes: [], noteRepairs: [] };
      for (const piece of topLevelPieces(tokens, PARSE_SLICE_TOKENS)) {
        await between();
        const part = parseScriptTokens(piece, lexed.maxNesting);
        for (const statement of part.body) parsed.body.push(statement);
        parsed.comprehensions += part.comprehensions;
        for (const problem of part.problems) parsed.problems.push(problem);
        for (const note of part.notes) parsed.notes.push(note);
        for (const repair of part.noteRepairs) parsed.noteRepairs.push(repair);
      }
      result = outcome(lexed, blockProblems, parsed);
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    result = { problems: [{ line: 1, column: 1, message: 'the script is too large or nests too deeply for this host to parse: split it with LET' }] };
  }
  if ('problems' in result) throw syntaxError(result.problems, options.fileName, result.problemCount);
  return result.program;
}

const DEPTH: number[] = [];
for (const type of [T.LParen, T.LBracket, T.LBrace, T.If, T.For, T.While]) DEPTH[type.tokenTypeIdx!] = 1;
for (const type of [T.RParen, T.RBracket, T.RBrace, T.End]) DEPTH[type.tokenTypeIdx!] = -1;
const STARTS_STATEMENT: boolean[] = [];
for (const type of [T.Let, T.If, T.For]) STARTS_STATEMENT[type.tokenTypeIdx!] = true;

/**
 * The tokens cut into pieces of at least `size` tokens, each cut just before a LET, IF or FOR outside
 * any bracket or block: where a top-level statement starts, whatever came before it.
 */
function topLevelPieces(tokens: IToken[], size: number): IToken[][] {
  const pieces: IToken[][] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenTypeIdx;
    if (depth === 0 && STARTS_STATEMENT[type] && i - start >= size) {
      pieces.push(tokens.slice(start, i));
      start = i;
    }
    depth = Math.max(0, depth + (DEPTH[type] ?? 0));
  }
  pieces.push(tokens.slice(start));
  return pieces;
}

function finish(problems: SyntaxProblem[], count: number): ParseOutcome {
  const sorted = dedupe(problems.sort(byPosition));
  const listed = sorted.slice(0, REPORTED_PROBLEMS);
  return { problems: listed, problemCount: Math.max(count - (problems.length - sorted.length), listed.length) };
}

const withoutComprehensions = new WeakSet<Program>();

/** The program of statements parsed without a problem, holding `comprehensions` list comprehensions. */
function programOf(body: Program['body'], comprehensions: number): Program {
  const program: Program = { type: 'Program', body, line: 1, column: 1, hasCall: anyCall(body) };
  if (comprehensions === 0) withoutComprehensions.add(program);
  return program;
}

/** False for a program parse() made and found no list comprehension in; true for any other. */
export function mayHoldComprehensions(program: Program): boolean {
  return !withoutComprehensions.has(program);
}

export function syntaxError(problems: SyntaxProblem[], fileName?: string, problemCount = problems.length): NuwaError {
  const first = problems[0]!;
  const others = Math.max(problemCount, problems.length) - 1;
  const more = others > 0 ? ` (and ${others} more syntax error${others > 1 ? 's' : ''})` : '';
  const error = new NuwaError('SyntaxError', `${first.message}${more}`, {
    line: first.line,
    column: first.column,
    fileName,
    errors: problems,
  });
  if (problemCount > problems.length) error.omittedErrors = problemCount - problems.length;
  return error;
}

/** Recovery can report the same spot twice (a lexer error and the parse error it causes). */
function dedupe(problems: SyntaxProblem[]): SyntaxProblem[] {
  const out: SyntaxProblem[] = [];
  for (const problem of problems) {
    const last = out[out.length - 1];
    if (last && last.line === problem.line && last.column === problem.column) continue;
    out.push(problem);
  }
  return out;
}
