// TypeScript as a user's compiler sees it: programs that import 'nuwa-script' type-checked with
// `strict` against the built package (dist/*.d.ts, as `npm test` builds it first), the way
// test/support/snippets.ts runs them against the built code. Used for the ```ts blocks of the
// documentation (document.ts) and for the type-level tests (test/types.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root } from './snippets.js';

/** A program to check: its name (the file it is written to) and its text. */
export interface TypedProgram {
  name: string;
  source: string;
}

/** A problem the compiler found, with the program it is in and its 1-based line there. */
export interface TypeProblem {
  program: string;
  line: number;
  message: string;
}

/** The compiler options of a user's strict ES-module project on Node (NodeNext, as the package is). */
export const USER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  esModuleInterop: true,
  skipLibCheck: true,
};

/**
 * Type-checks `programs` together, each as an ES module of its own (`.mts`) written inside the
 * repository so that 'nuwa-script' and the dependencies resolve as they do for a user. Returns the
 * problems in those programs (and, with `declarationsToo`, in the package's own declaration files:
 * what a user's compiler reports with `skipLibCheck: false`), none when they type-check.
 */
export function typeCheck(programs: TypedProgram[], options: ts.CompilerOptions = USER_OPTIONS, declarationsToo = false): TypeProblem[] {
  const dir = mkdtempSync(path.join(root, '.types-check-'));
  try {
    const files = programs.map((program) => {
      const file = path.join(dir, `${program.name.replace(/[^A-Za-z0-9_-]+/g, '-')}.mts`);
      writeFileSync(file, program.source);
      return { file, name: program.name };
    });
    const names = new Map(files.map(({ file, name }) => [path.resolve(file), name]));
    const host = ts.createCompilerHost(options);
    const program = ts.createProgram(
      files.map(({ file }) => file),
      declarationsToo ? { ...options, skipLibCheck: false } : options,
      host,
    );
    const dist = path.join(root, 'dist') + path.sep;
    const problems: TypeProblem[] = [];
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const file = diagnostic.file ? path.resolve(diagnostic.file.fileName) : undefined;
      const name = file === undefined ? undefined : (names.get(file) ?? (declarationsToo && file.startsWith(dist) ? path.relative(root, file) : undefined));
      // Problems of other libraries' declarations are theirs (and a user's skipLibCheck hides them).
      if (file !== undefined && name === undefined) continue;
      const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
      problems.push({ program: name ?? '(options)', line, message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n') });
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Problems as lines a failing test shows: `program:line message`. */
export function describeProblems(problems: TypeProblem[]): string {
  return problems.map((problem) => `${problem.program}:${problem.line} ${problem.message}`).join('\n');
}
