// Collecting syntax problems. Hopeless text (a megabyte of junk, a binary file) can hold hundreds of
// thousands of them; a report is only useful for the first few, so each list keeps the first
// REPORTED_PROBLEMS and counts the rest, and nothing downstream ever handles more.
//
// A problem is *repaired* when the pass that found it also put the tokens (or the tree) right, so
// that what the grammar builds there is the script its author meant: `===` read as `==`, a lowercase
// `if` as IF, `x = 1` at the start of a line as LET x = 1, `s.lower()` as LOWER(s). A value the pass
// could not recover (a template string, an arrow function) stands in as a value nobody knows
// (nodes.ts `placeholder`), which is still the meant structure. The checker relies on this: on a
// tree whose every problem is repaired it checks everything, and otherwise only what cannot depend
// on the text error recovery skipped (check/recovered.ts). Repair is recorded beside the problem,
// not in it, so the `errors` of a SyntaxError keep their documented shape; a copy of a problem is
// not repaired, so a message rewritten on the way errs on the safe side.
import type { SyntaxProblem } from '../errors.js';

/** How many syntax errors a SyntaxError lists; the rest are counted. */
export const REPORTED_PROBLEMS = 50;

const repairedProblems = new WeakSet<SyntaxProblem>();

/** Marks `problem` as repaired where it stands (see above); returns it. */
export function repaired<P extends SyntaxProblem>(problem: P): P {
  repairedProblems.add(problem);
  return problem;
}

export function isRepaired(problem: SyntaxProblem): boolean {
  return repairedProblems.has(problem);
}

export class ProblemList {
  readonly list: SyntaxProblem[] = [];
  /** Every problem added, listed or not. */
  count = 0;

  add(problem: SyntaxProblem): void {
    this.count++;
    if (this.list.length < REPORTED_PROBLEMS) this.list.push(problem);
  }

  get full(): boolean {
    return this.count >= REPORTED_PROBLEMS;
  }
}

export function byPosition(a: { line: number; column: number }, b: { line: number; column: number }): number {
  return a.line - b.line || a.column - b.column;
}
