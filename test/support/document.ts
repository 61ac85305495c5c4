// The test of one Markdown document: every block of code in it runs and does what the text around
// it says. The info string after a fence's language says how (test/docs/README.md has the details):
//
//   ```nuwa                    run with examples/tools.mjs, every call approved; prints its `// prints:` lines
//   ```nuwa error=Kind         ... and stops with that kind, at the line of its `// error: Kind` comment
//   ```nuwa tools=a.mjs,b.mjs  ... with those tool modules instead
//   ```console                 `$ command` lines replayed by sh with nuwa on the PATH; each prints what follows it
//   ```ts / ```js              a program run by node: status 0, no stderr, stdout = a following ```text output;
//                              the ```ts ones of a document also type-check together (tsc --strict)
//   ```ts prelude=model        ... after test/docs/model.ts (a stand-in model client)
//   ```js tools-module         a tools module: loads as --tools loads it, and registers tools
//   ```nuwa file=path          the whole file at path, as it is (the file runs where it lives)
//
// Other languages (sh, json, text) are not run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/errors.js';
import { fencedBlocks, type Block } from './markdown.js';
import { cleanUp, EXAMPLE_TOOLS, expectations, loadModuleSnippet, parseSession, root, runProgram, runScript, runSession } from './snippets.js';
import { describeProblems, typeCheck } from './typecheck.js';

const PROGRAM_LANGUAGES = new Set(['ts', 'js', 'typescript', 'javascript']);
const RUN = new Set(['nuwa', 'console', ...PROGRAM_LANGUAGES]);

export function describeDocument(file: string): void {
  const text = readFileSync(path.join(root, file), 'utf8');
  const blocks = fencedBlocks(text);
  const runnable = blocks.map((block, index) => ({ block, next: blocks[index + 1] })).filter(({ block }) => RUN.has(block.language));

  describe(file, () => {
    afterAll(cleanUp);

    it('has code that runs', () => expect(runnable.length).toBeGreaterThan(0));

    // What a reader copies into a strict TypeScript project compiles there as it is: no casts needed
    // that the page does not show. One program for the page: one compiler run.
    const typed = blocks.filter((block) => block.language === 'ts' && block.options.file === undefined);
    if (typed.length > 0) {
      it(`its ${typed.length} TypeScript program(s) type-check (tsc --strict, against the built package)`, () => {
        const programs = typed.map((block) => ({ name: `${path.basename(file, '.md')}-${block.line}`, source: typedSource(block) }));
        const problems = typeCheck(programs);
        expect(describeProblems(problems), 'program-line:line-in-the-block problem').toBe('');
      });
    }

    it.each(runnable.map((entry) => [`${entry.block.language} at ${file}:${entry.block.line} (${entry.block.heading || 'top'})`, entry] as const))(
      '%s',
      async (_name, { block, next }) => {
        if (block.options.file !== undefined) return sameAsFile(block);
        if (block.language === 'nuwa') return script(block);
        if (block.language === 'console') return session(block);
        if (block.flags.includes('tools-module')) return toolsModule(block, file);
        return program(block, next, file);
      },
    );
  });
}

/**
 * A ```ts program as the compiler sees it: with its prelude's exports imported (at run time the
 * prelude puts them on globalThis, test/docs/README.md).
 */
function typedSource(block: Block): string {
  const prelude = block.options.prelude;
  if (prelude === undefined) return block.body;
  const file = path.join(root, 'test', 'docs', `${prelude}.js`);
  return `import * as prelude from ${JSON.stringify(file)};
const { ${preludeExports(prelude).join(', ')} } = prelude;
${block.body}`;
}

function preludeExports(prelude: string): string[] {
  const text = readFileSync(path.join(root, 'test', 'docs', `${prelude}.ts`), 'utf8');
  return [...text.matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((match) => match[1]!);
}

/** A block that shows a file of the repository shows all of it, as it is (the file is run where it lives). */
function sameAsFile(block: Block): void {
  expect(`${block.body}\n`, `the block shows ${block.options.file} as it is`).toBe(readFileSync(path.join(root, block.options.file!), 'utf8'));
}

/** A Nuwa script: its output is its `// prints:` comments; `error=Kind` says it stops with that error. */
async function script(block: Block): Promise<void> {
  const expected = expectations(block.body);
  const kind = block.options.error;
  if (kind !== undefined) expect(ERROR_KINDS, 'error= names an error kind').toContain(kind);
  if (expected.error !== undefined) expect(kind, 'a script with an `// error:` comment declares it: ```nuwa error=Kind').toBe(expected.error.kind);
  const modules = block.options.tools?.split(',') ?? [EXAMPLE_TOOLS];
  const { printed, error } = await runScript(block.body, modules);
  if (kind === undefined) expect(error, 'the script runs without an error').toBeUndefined();
  else {
    expect(error?.kind, error?.message).toBe(kind);
    if (expected.error !== undefined) expect(error?.line, 'the error is where the `// error:` comment is').toBe(expected.error.line);
  }
  expect(printed).toEqual(expected.prints);
}

/** A shell session: each command prints what the transcript shows. */
function session(block: Block): void {
  const steps = parseSession(block.body, block.line + 1);
  const outputs = runSession(steps);
  steps.forEach((step, i) => expect(outputs[i], `$ ${step.command} (line ${step.line})`).toBe(step.expected));
}

/** A tools module: it loads as `--tools` loads it, and registers tools. */
async function toolsModule(block: Block, file: string): Promise<void> {
  const names = await loadModuleSnippet(block.body, `${path.basename(file, '.md')}-${block.line}`);
  expect(names.length, 'the module registers tools').toBeGreaterThan(0);
}

/** A program: it runs without an error, and prints what a following ```text output block shows. */
function program(block: Block, next: Block | undefined, file: string): void {
  const result = runProgram(block.body, `${path.basename(file, '.md')}-${block.line}`, block.options.prelude);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  if (next?.language === 'text' && next.flags.includes('output')) expect(result.stdout).toBe(`${next.body}\n`);
}
