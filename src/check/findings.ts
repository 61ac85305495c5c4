// The checker's findings reported beside the error that stops a script, so that one run names every
// mistake it can (NuwaError.findings; API.md, docs/embedding.md "Errors"):
//
// - beside syntax errors, on the tree error recovery made of the script (syntax/parse.ts
//   parseWithRecovery). When every syntax error was repaired where it stands (syntax/problems.ts),
//   the tree is the script its author meant and everything is checked. Otherwise a statement may be
//   missing or misplaced, so only what a node's own text decides is checked (AnalyseOptions.local),
//   and nothing on a line where recovery skipped text;
// - beside a run-time error, in the whole script.
//
// A finding at the place of a syntax error, or one that repeats the run-time error, is left out, and
// so are most warnings (worthReporting).
import type * as A from '../syntax/ast.js';
import type { Finding, NuwaError, SyntaxProblem } from '../errors.js';
import type { Recovered } from '../syntax/parse.js';
import { isRepaired } from '../syntax/problems.js';
import type { ToolCatalog } from './arguments.js';
import { analyse } from './checker.js';
import type { Problem } from './problems.js';

/** The findings to report with these syntax errors, on what recovery made of the script. */
export function findingsBesideSyntaxErrors(problems: readonly SyntaxProblem[], recovered: Recovered | undefined, tools: ToolCatalog, variables: readonly string[]): Problem[] {
  if (recovered === undefined) return [];
  const local = !recovered.repaired;
  const found = analyseQuietly(recovered.program, tools, variables, local);
  const taken = new Set(problems.map(at));
  // A line where recovery skipped or guessed text: what stands there may not be what was written.
  const shaky = new Set(problems.filter((problem) => !isRepaired(problem)).map((problem) => problem.line));
  return found.filter((problem) => problem.line >= 1 && !taken.has(at(problem)) && !(local && shaky.has(problem.line)) && worthReporting(problem));
}

/** The findings to report with a run-time error of `program`: its other problems. */
export function findingsBesideRunError(error: NuwaError, program: A.Program, tools: ToolCatalog, variables: readonly string[]): Problem[] {
  const found = analyseQuietly(program, tools, variables, false);
  // The error itself, found before the run too: once is enough. A variable the run found unset is
  // one mistake wherever else it is read (its first LET is missing or misplaced), with one fix.
  const same = (problem: Problem) => problem.kind === error.kind && problem.line === error.line;
  const unset = error.kind === 'UndefinedVariableError' ? /^`([A-Za-z_][A-Za-z0-9_]*)`/.exec(error.message)?.[1] : undefined;
  const sameVariable = (problem: Problem) => unset !== undefined && problem.kind === 'UndefinedVariableError' && problem.message.startsWith(`\`${unset}\``);
  return found.filter((problem) => !same(problem) && !sameVariable(problem) && worthReporting(problem));
}

/** As NuwaError.findings holds them. */
export function asFindings(problems: readonly Problem[]): Finding[] {
  return problems.map(({ kind, message, line, column, severity }) => ({ kind, message, line, column, severity }));
}

/**
 * Certain errors, and of the warnings only a result thrown away (`APPEND(xs, x)` without LET), which
 * is always a mistake. The other warnings (a variable set and never read, code that never runs, a
 * variable set on some paths only) mostly restate an error found here, or are no mistake at all.
 */
function worthReporting(problem: Problem): boolean {
  return problem.severity === 'error' || problem.kind === 'DiscardedResult';
}

const at = (p: { line: number; column: number }) => `${p.line}:${p.column}`;

/**
 * The checker, never failing the report it adds to: a tree too deep to walk (the evaluator would
 * meet the same limit) simply has no findings.
 */
function analyseQuietly(program: A.Program, tools: ToolCatalog, variables: readonly string[], local: boolean): Problem[] {
  try {
    return analyse(program, tools, variables, { local }).problems;
  } catch (error) {
    if (error instanceof RangeError) return [];
    throw error;
  }
}
