// The type-level tests of test/types/ (API.md v1.1, "Types flow from schemas"), compiled as a user's
// compiler compiles them: importing 'nuwa-script' (the built package's declarations, which must
// themselves compile: json-schema-to-ts resolved from the package, no error under skipLibCheck
// false), with `strict`, and again with `exactOptionalPropertyTypes`. Each file holds code that must
// compile without a cast and `@ts-expect-error` lines that must not compile: an expected error
// that does not happen is an error too ("Unused '@ts-expect-error' directive"). (`npm run
// typecheck` compiles the same files against the sources.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './support/snippets.js';
import { describeProblems, typeCheck, USER_OPTIONS } from './support/typecheck.js';

const dir = path.join(root, 'test', 'types');
const programs = readdirSync(dir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({
    name: `types-${path.basename(file, '.ts')}`,
    // As a user writes it: the package by its name, not the sources by their path.
    source: readFileSync(path.join(dir, file), 'utf8').replaceAll("'../../src/index.js'", "'nuwa-script'"),
  }));

describe('types flow from schemas (test/types/, against the built package)', () => {
  it('has type-level tests that import the package', () => {
    expect(programs.length).toBeGreaterThan(3);
    for (const program of programs) expect(program.source, program.name).toContain("from 'nuwa-script'");
  });

  it('compile with strict, the declarations included (skipLibCheck false)', { timeout: 120_000 }, () => {
    expect(describeProblems(typeCheck(programs, USER_OPTIONS, true))).toBe('');
  });

  it('compile with exactOptionalPropertyTypes too', { timeout: 120_000 }, () => {
    expect(describeProblems(typeCheck(programs, { ...USER_OPTIONS, exactOptionalPropertyTypes: true }))).toBe('');
  });

  it('see what does not compile: a number method on an argument typed string is an error', { timeout: 120_000 }, () => {
    const source = [
      "import { z } from 'zod';",
      "import { ToolRegistry } from 'nuwa-script';",
      "new ToolRegistry().register({ name: 'x', description: 'x', parameters: z.object({ s: z.string() }), execute: ({ s }) => s.toFixed() });",
    ].join('\n');
    const problems = typeCheck([{ name: 'types-self-check', source }]);
    expect(problems.map((problem) => `${problem.line} ${problem.message}`)).toEqual(["3 Property 'toFixed' does not exist on type 'string'. Did you mean 'fixed'?"]);
  });
});
