// What `check` reports: one Problem per finding, with the position of the construct at fault.
// An error means the script certainly fails (or misbehaves) when it gets there; a warning is a
// likely mistake. Error kinds are the NuwaError kinds the run would raise (LANGUAGE.md §6), so a
// host can treat a problem found before the run like the failure it prevents.
import type { ErrorKind, Position } from '../errors.js';

/** Likely mistakes that are not failures, so they have no NuwaError kind of their own. */
export type WarningKind = 'UnusedVariable' | 'DiscardedResult' | 'UnreachableCode';
export type ProblemKind = ErrorKind | WarningKind;
export type Severity = 'error' | 'warning';

export interface Problem {
  kind: ProblemKind;
  message: string;
  line: number;
  column: number;
  severity: Severity;
}

/** The problems found so far, in the order they were found. */
export class ProblemList {
  private readonly items: Problem[] = [];

  add(kind: ProblemKind, message: string, at: Position, severity: Severity): void {
    this.items.push({ kind, message, line: at.line, column: at.column, severity });
  }

  /** In source order (a stable sort keeps the order of findings at one position). */
  sorted(): Problem[] {
    return this.items.slice().sort((a, b) => a.line - b.line || a.column - b.column);
  }
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
