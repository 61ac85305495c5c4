// The syntax layer's entry point: source text → Program, or one SyntaxError listing every problem.
import type { Program } from './ast.js';
import { NuwaError, type SyntaxProblem } from '../errors.js';
import { byPosition, tokenize } from './lexer.js';
import { parseTokens } from './parser.js';
import { parseOnWorker } from './deep-parse.js';

export interface ParseOptions {
  /** Used in error positions. */
  fileName?: string;
}

/**
 * Nesting up to which the parser runs on the caller's stack. Each level costs several Chevrotain
 * frames, and an unoptimised frame is large: on Node's default stack a cold parser overflows a few
 * hundred levels down. Deeper (legal) text is parsed on a worker thread with a large stack.
 */
const DIRECT_PARSE_NESTING = 60;

export function parse(source: string, options: ParseOptions = {}): Program {
  let outcome: ParseOutcome;
  try {
    outcome = parseProblems(source, { allowWorker: true });
  } catch (error) {
    // Whatever the text, parsing ends in a Program or a SyntaxError, never a host crash.
    if (!(error instanceof RangeError)) throw error;
    outcome = { problems: [{ line: 1, column: 1, message: `the script is too large or nested too deeply to parse (${error.message})` }] };
  }
  if ('problems' in outcome) throw syntaxError(outcome.problems, options.fileName);
  return outcome.program;
}

export type ParseOutcome = { program: Program } | { problems: SyntaxProblem[] };

/** Parses without throwing; shared by `parse` and the deep-parse worker. */
export function parseProblems(source: string, { allowWorker }: { allowWorker: boolean }): ParseOutcome {
  if (typeof source !== 'string') {
    return { problems: [{ line: 1, column: 1, message: `a script must be text, not ${source === null ? 'null' : typeof source}` }] };
  }
  const lexed = tokenize(source);
  if (lexed.tooDeep) return { problems: lexed.problems };
  if (allowWorker && lexed.maxNesting > DIRECT_PARSE_NESTING) return parseOnWorker(source);

  let parsed;
  try {
    parsed = parseTokens(lexed.tokens);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { problems: [{ line: 1, column: 1, message: 'the script nests too deeply for this host to parse: split it with LET' }] };
  }
  const problems = [...lexed.problems, ...parsed.problems].sort(byPosition);
  if (problems.length > 0) return { problems: dedupe(problems) };
  return { program: { type: 'Program', body: parsed.body, line: 1, column: 1, hasCall: parsed.body.some((s) => s.hasCall) } };
}

export function syntaxError(problems: SyntaxProblem[], fileName?: string): NuwaError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more syntax error${problems.length > 2 ? 's' : ''})` : '';
  return new NuwaError('SyntaxError', `${first.message}${more}`, {
    line: first.line,
    column: first.column,
    fileName,
    errors: problems,
  });
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
