// Running the code that the documentation and the examples show, as a reader would run it. Three
// kinds of code (the conventions are described in test/docs/README.md):
//
//   shell sessions  `$ command` lines, each followed by the output it prints (stdout and stderr as a
//                   terminal shows them), replayed by sh in the repository with `nuwa` on the PATH;
//   programs        TypeScript or JavaScript, run by node as their own process, importing 'nuwa-script'
//                   (or, for a tools module, loaded as `--tools` loads it);
//   scripts         Nuwa Script, run in-process with the example tools; `// prints:` and `// error:`
//                   comments say what they print and where they stop.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { isNuwaError, type NuwaError } from '../../src/errors.js';
import { loadToolModule } from '../../src/providers/module.js';
import { Interpreter } from '../../src/api/interpreter.js';
import { ToolRegistry } from '../../src/tools/registry.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Scratch space for the runners; removed by cleanUp(). */
let scratch: string | undefined;
function scratchDir(): string {
  // Inside the repository, so that programs resolve 'nuwa-script' (the package itself) and its dependencies.
  scratch ??= mkdtempSync(path.join(root, '.docs-run-'));
  return scratch;
}

export function cleanUp(): void {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

// ---------------------------------------------------------------------------------------------
// Shell sessions

export interface SessionStep {
  command: string;
  /** What the command prints: every line up to the next command, each ending with a newline. */
  expected: string;
  /** The line of the `$` in its file (1-based). */
  line: number;
}

/** The steps of a session transcript: `$ command` lines, each followed by its output. */
export function parseSession(text: string, firstLine = 1): SessionStep[] {
  const steps: SessionStep[] = [];
  const lines = text.replace(/\n$/, '').split('\n');
  lines.forEach((line, index) => {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: '', line: firstLine + index });
    else if (steps.length === 0) throw new Error(`line ${firstLine + index}: a session starts with a \`$ command\` line`);
    else steps.at(-1)!.expected += `${line}\n`;
  });
  return steps;
}

/** A transcript of `steps` with the outputs given (what an update of a golden file writes). */
export function renderSession(steps: SessionStep[], outputs: string[]): string {
  return steps.map((step, i) => `$ ${step.command}\n${outputs[i] ?? ''}`).join('');
}

const SEPARATOR = '\u001e';

/** The environment of a reader who put `nuwa` on the PATH (bin/nuwa), with colour off. */
function readerEnvironment(): NodeJS.ProcessEnv {
  const bin = path.join(scratchDir(), 'bin');
  mkdirSync(bin, { recursive: true });
  try {
    symlinkSync(path.join(root, 'bin', 'nuwa'), path.join(bin, 'nuwa'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: [bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter), NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

/**
 * Runs the commands one after another in one sh, in the repository, stdout and stderr into one
 * pipe (in the order a terminal would show them), and returns what each printed. `nuwa` is
 * bin/nuwa; colour is off; stdin is empty.
 */
export function runSession(steps: SessionStep[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}): string[] {
  // After each command, a separator; `(exit $s)` gives the next command the status in $?.
  const script = ['exec 2>&1', ...steps.map((step) => `${step.command}\ns=$?; printf '${SEPARATOR}'; (exit $s)`)].join('\n');
  const child = spawnSync('sh', ['-c', script], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...readerEnvironment(), ...env },
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  if (child.error) throw child.error;
  const outputs = child.stdout.split(SEPARATOR);
  if (outputs.length !== steps.length + 1) throw new Error(`the session ended early (status ${child.status}, signal ${child.signal}):\n${child.stdout}`);
  return outputs.slice(0, steps.length);
}

// ---------------------------------------------------------------------------------------------
// Programs

export interface ProgramResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript or JavaScript program as its own node process (types stripped by esbuild).
 * `prelude` names a module of test/docs/ imported first (a stand-in for what the program uses but
 * does not define, such as a model client).
 */
export function runProgram(source: string, name: string, prelude?: string, env: NodeJS.ProcessEnv = {}): ProgramResult {
  const dir = scratchDir();
  const compile = (code: string) => transformSync(code, { loader: 'ts', format: 'esm', target: 'node20' }).code;
  let head = '';
  if (prelude !== undefined) {
    const preludeFile = path.join(dir, `prelude-${prelude}.mjs`);
    writeFileSync(preludeFile, compile(readFileSync(path.join(root, 'test', 'docs', `${prelude}.ts`), 'utf8')));
    head = `import ${JSON.stringify(preludeFile)};\n`;
  }
  const file = path.join(dir, `${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.mjs`);
  writeFileSync(file, head + compile(source));
  const child = spawnSync(process.execPath, [file], { cwd: root, encoding: 'utf8', env: { ...readerEnvironment(), ...env }, timeout: 30_000, killSignal: 'SIGKILL' });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Loads a tools module as `nuwa run --tools` would; resolves to the names of the tools it registered. */
export async function loadModuleSnippet(source: string, name: string): Promise<string[]> {
  const file = path.join(scratchDir(), `${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.mjs`);
  writeFileSync(file, source);
  return loadToolModule(new ToolRegistry(), file, root);
}

// ---------------------------------------------------------------------------------------------
// Nuwa scripts

export interface ScriptExpectations {
  /** The `// prints: text` comments, in order: the lines the script prints. */
  prints: string[];
  /** The `// error: Kind` comment, if any: where the script stops. */
  error?: { kind: string; line: number };
}

/** What a script's comments say it does. */
export function expectations(source: string): ScriptExpectations {
  const prints: string[] = [];
  let error: ScriptExpectations['error'];
  source.split('\n').forEach((line, index) => {
    const printed = /\/\/ prints: (.*)$/.exec(line);
    if (printed) prints.push(printed[1]!);
    const stopped = /\/\/ error: (\w+)/.exec(line);
    if (stopped) {
      if (error !== undefined) throw new Error(`a script stops at its first error: two \`// error:\` comments (lines ${error.line} and ${index + 1})`);
      error = { kind: stopped[1]!, line: index + 1 };
    }
  });
  return { prints, error };
}

export const EXAMPLE_TOOLS = 'examples/tools.mjs';

/**
 * Runs a script with the tools of the given modules (paths from the repository root), every call
 * approved, as `nuwa run --tools ... --yes` would; resolves to the printed lines and the error, if any.
 */
export async function runScript(source: string, modules: string[] = [EXAMPLE_TOOLS]): Promise<{ printed: string[]; error?: NuwaError }> {
  const registry = new ToolRegistry();
  for (const module of modules) await loadToolModule(registry, module, root);
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), approve: () => true, logger: { warn() {}, error() {} } });
  try {
    await interpreter.run(source);
    return { printed };
  } catch (error) {
    if (!isNuwaError(error)) throw error;
    return { printed, error };
  } finally {
    interpreter.dispose();
  }
}
