// `check` against the case corpus and the examples: a script that runs successfully must get no
// error from check (warnings are allowed); an example that fails on purpose fails with an error
// check reported.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check, Interpreter, NuwaError, ToolRegistry, type Problem } from '../../src/index.js';
import { loadToolModule } from '../../src/providers/module.js';
import { registerCorpusTools } from '../support/corpus-tools.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const casesDir = path.join(root, 'test', 'cases');

interface CaseChunk {
  name: string;
  source: string;
  variables: string[];
}

/** The chunks of test/cases that the corpus expects to run to the end (no `// error:`). */
function succeedingChunks(): CaseChunk[] {
  const chunks: CaseChunk[] = [];
  for (const file of readdirSync(casesDir).filter((f) => f.endsWith('.nuwa')).sort()) {
    const lines = readFileSync(path.join(casesDir, file), 'utf8').split(/\r?\n/);
    let start = 0;
    for (let i = 0; i <= lines.length; i++) {
      if (i < lines.length && lines[i] !== '---') continue;
      const chunk = lines.slice(start, i);
      const source = chunk.join('\n');
      const vars = /^\/\/ @vars (.*)$/m.exec(source);
      // context.setVar binds variables that no LET binds: outside what check sees (checker.ts).
      const usesSetVar = /\bctx_set_var\b/.test(source);
      if (!/\/\/ error(@\d+)?:/.test(source) && source.trim() !== '' && !usesSetVar) {
        chunks.push({ name: `${file}:${start + 1}`, source, variables: vars ? Object.keys(JSON.parse(vars[1]!)) : [] });
      }
      start = i + 1;
    }
  }
  return chunks;
}

function corpusRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registerCorpusTools(registry);
  return registry;
}

const errorsOf = (problems: Problem[]) => problems.filter((p) => p.severity === 'error');

describe('check finds no error in scripts that run', () => {
  const chunks = succeedingChunks();
  it('covers the corpus', () => expect(chunks.length).toBeGreaterThan(200));
  it.each(chunks.map((c) => [c.name, c] as const))('%s', (_name, chunk) => {
    expect(errorsOf(check(chunk.source, corpusRegistry(), { variables: chunk.variables }))).toEqual([]);
  });
});

describe('check on the examples (examples/*.nuwa with the example tools)', () => {
  const examplesDir = path.join(root, 'examples');
  const files = readdirSync(examplesDir).filter((f) => f.endsWith('.nuwa')).sort();

  // The session state an example's command gives with --state.
  const states: Record<string, string> = { 'todo.nuwa': 'todo-state.json' };

  async function exampleRegistry(file: string): Promise<ToolRegistry> {
    const registry = new ToolRegistry();
    for (const module of ['tools.mjs', 'todo-tools.mjs']) await loadToolModule(registry, module, examplesDir);
    await registry.loadExecutables(path.join(examplesDir, 'tools')); // examples/executables.nuwa's tools
    const state = states[file] === undefined ? {} : (JSON.parse(readFileSync(path.join(examplesDir, states[file]), 'utf8')) as Record<string, never>);
    for (const [key, value] of Object.entries(state)) registry.setState(key, value);
    return registry;
  }

  it.each(files)('%s: a run that succeeds gets no error; a run that fails, fails with one check reported', async (file) => {
    const source = readFileSync(path.join(examplesDir, file), 'utf8');
    const registry = await exampleRegistry(file);
    const errors = errorsOf(check(source, registry)).map(({ kind, line, column }) => ({ kind, line, column }));
    const interpreter = new Interpreter(registry, { print: () => {}, approve: () => true, logger: { warn() {}, error() {} } });
    let failure: NuwaError | undefined;
    try {
      await interpreter.run(source);
    } catch (error) {
      if (!(error instanceof NuwaError)) throw error;
      failure = error;
    }
    if (failure === undefined) expect(errors).toEqual([]);
    else expect(errors).toContainEqual({ kind: failure.kind, line: failure.line, column: failure.column });
  });
  it('finds the examples', () => expect(files.length).toBeGreaterThanOrEqual(4));
});
