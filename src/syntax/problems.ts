// Collecting syntax problems. Hopeless text (a megabyte of junk, a binary file) can hold hundreds of
// thousands of them; a report is only useful for the first few, so each list keeps the first
// REPORTED_PROBLEMS and counts the rest, and nothing downstream ever handles more.
import type { SyntaxProblem } from '../errors.js';

/** How many syntax errors a SyntaxError lists; the rest are counted. */
export const REPORTED_PROBLEMS = 50;

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
