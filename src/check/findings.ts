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
import { childrenOf } from '../syntax/ast.js';
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
  // A line where recovery skipped or guessed text: what stands there may not be what was written,
  // nor in the statement around it (a CALL whose arguments lost one to a missing comma).
  const shaky = [...new Set(problems.filter((problem) => !isRepaired(problem)).map((problem) => problem.line))];
  const extents = local ? statementExtents(recovered.program) : [];
  const unsure = (problem: Problem) => {
    const [from, to] = enclosing(extents, problem) ?? [problem.line, problem.line];
    // The line after a statement too: recovery reports a missing `,` or `}` at the next token.
    return shaky.some((line) => line >= from && line <= to + 1);
  };
  return found.filter((problem) => problem.line >= 1 && !taken.has(at(problem)) && !(local && unsure(problem)) && worthReporting(problem));
}

/**
 * The lines each simple statement spans (a LET, an expression; for IF and FOR, the header), from
 * its first line to the last line of any node in it.
 */
function statementExtents(program: A.Program): Extent[] {
  const out: Extent[] = [];
  const statements: A.Statement[] = [...program.body];
  while (statements.length > 0) {
    const statement = statements.pop()!;
    if (!(statement.line >= 1)) continue;
    switch (statement.type) {
      case 'Let':
        out.push(extent(statement, statement.value));
        break;
      case 'ExpressionStatement':
        out.push(extent(statement, statement.expression));
        break;
      case 'If':
        out.push(extent(statement, statement.condition));
        statements.push(...statement.consequent, ...(statement.alternate ?? []));
        break;
      case 'For':
        out.push(extent(statement, statement.iterable));
        statements.push(...statement.body);
        break;
    }
  }
  return out;
}

/** The last line any node of an expression is on (iteratively: expressions nest deep). */
function lastLine(expression: A.Expression): number {
  let last = 0;
  const stack: A.Node[] = [expression];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.line > last) last = node.line;
    stack.push(...childrenOf(node));
  }
  return last;
}

/** Where a statement starts (line, column) and the last line it reaches. */
type Extent = { line: number; column: number; to: number };

function extent(statement: A.Statement, inner: A.Expression): Extent {
  return { line: statement.line, column: statement.column, to: Math.max(statement.line, lastLine(inner)) };
}

/** The lines of the statement a finding is in: the last to start at or before it that reaches its line. */
function enclosing(extents: readonly Extent[], at: { line: number; column: number }): [number, number] | undefined {
  let best: Extent | undefined;
  for (const e of extents) {
    const startsBefore = e.line < at.line || (e.line === at.line && e.column <= at.column);
    if (!startsBefore || e.to < at.line) continue;
    if (best === undefined || e.line > best.line || (e.line === best.line && e.column > best.column)) best = e;
  }
  return best && [best.line, best.to];
}

/** The findings to report with a run-time error of `program`: its other problems. */
export function findingsBesideRunError(error: NuwaError, program: A.Program, tools: ToolCatalog, variables: readonly string[]): Problem[] {
  const found = analyseQuietly(program, tools, variables, false);
  // The error itself, found before the run too: once is enough (another of its kind on its line, such
  // as a second lowercase built-in, is another mistake). A variable the run found unset is one
  // mistake wherever else it is read (its first LET is missing or misplaced), with one fix.
  const same = (problem: Problem) =>
    problem.kind === error.kind && problem.line === error.line && (problem.column === error.column || withoutUsage(problem.message) === withoutUsage(error.message));
  const unset = error.kind === 'UndefinedVariableError' ? /^`([A-Za-z_][A-Za-z0-9_]*)`/.exec(error.message)?.[1] : undefined;
  const sameVariable = (problem: Problem) => unset !== undefined && problem.kind === 'UndefinedVariableError' && problem.message.startsWith(`\`${unset}\``);
  return found.filter((problem) => !same(problem) && !sameVariable(problem) && worthReporting(problem));
}

/** A message without the usage a built-in's argument error ends in (the checker's has none). */
const withoutUsage = (message: string) => message.replace(/ \(usage: [^()]*(?:\([^()]*\)[^()]*)*\)$/, '');

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
