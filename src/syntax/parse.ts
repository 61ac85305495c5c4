// The syntax layer's entry point: source text → Program, or one SyntaxError listing every problem.
//   tokenize (lexer.ts, with the mistakes pass) → balanceBlocks (blocks.ts) → the grammar, in
//   stages for deep text (stage.ts) — all on the caller's stack, synchronously.
import type { Program } from './ast.js';
import { NuwaError, type SyntaxProblem } from '../errors.js';
import { tokenize } from './lexer.js';
import { balanceBlocks } from './blocks.js';
import { parseScriptTokens } from './stage.js';
import { isRecoveryProblem } from './parser.js';
import { isolateLines } from './isolate.js';
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
  const lexed = tokenize(source);
  if (lexed.tooDeep) return finish(lexed.problems, lexed.problemCount);
  // Text with this many problems at the level of characters is not a script gone slightly wrong;
  // what the grammar would add is noise (and, for a megabyte of junk, a long wait).
  if (lexed.problemCount >= REPORTED_PROBLEMS) return finish(lexed.problems, lexed.problemCount);

  const blockProblems = new ProblemList();
  const tokens = balanceBlocks(lexed.tokens, blockProblems);
  let parsed = parseScriptTokens(tokens, lexed.maxNesting);
  // Where the grammar failed, keep the failure on its line (isolate.ts).
  let isolated = new Set<number>();
  const failing = new Set(parsed.problems.filter(isRecoveryProblem).map((problem) => problem.line));
  const isolation = failing.size > 0 && failing.size <= REPORTED_PROBLEMS ? isolateLines(tokens, failing) : undefined;
  if (isolation !== undefined) {
    const on = (problem: SyntaxProblem) => isolation.isolated.has(problem.line);
    const again = parseScriptTokens(isolation.tokens, lexed.maxNesting);
    if (again.problems.filter((p) => !on(p)).length <= parsed.problems.filter((p) => !on(p)).length) {
      // The first failure on each isolated line is its error (unless the lexer or the mistakes pass
      // already said what is wrong there); what recovery made of the rest of the line, noise.
      const first = new Set<number>(lexed.problems.map((p) => p.line));
      const kept = parsed.problems.filter((p) => on(p) && (!isRecoveryProblem(p) || (!first.has(p.line) && first.add(p.line))));
      parsed = {
        ...again,
        problems: [...kept, ...again.problems.filter((p) => !on(p))],
        notes: [...parsed.notes.filter(on), ...again.notes.filter((p) => !on(p))],
      };
      isolated = isolation.isolated;
    }
  }
  const count = lexed.problemCount + blockProblems.count + parsed.problems.length;
  if (count === 0) {
    const program: Program = { type: 'Program', body: parsed.body, line: 1, column: 1, hasCall: anyCall(parsed.body) };
    if (parsed.comprehensions === 0) withoutComprehensions.add(program);
    return { program };
  }
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

function finish(problems: SyntaxProblem[], count: number): ParseOutcome {
  const sorted = dedupe(problems.sort(byPosition));
  const listed = sorted.slice(0, REPORTED_PROBLEMS);
  return { problems: listed, problemCount: Math.max(count - (problems.length - sorted.length), listed.length) };
}

const withoutComprehensions = new WeakSet<Program>();

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
