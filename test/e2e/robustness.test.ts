// The `nuwa` command never prints a JavaScript stack trace (issue 5.8): not when its reader goes
// away, the disk is full, a tool's code throws outside its call, a tools module throws something odd
// or never finishes loading, a signal arrives, or an option's value is nested too deeply. Each test
// spawns bin/nuwa (the built package in dist/, which `npm test` builds first).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const fixtures = path.join(root, 'test', 'e2e', 'fixtures');
const fixture = (name: string) => path.join(fixtures, name);

function nuwa(args: string[], options: { input?: string; stdout?: number } = {}) {
  const child = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 20_000,
    stdio: ['pipe', options.stdout ?? 'pipe', 'pipe'],
  });
  return { status: child.status, signal: child.signal, stdout: child.stdout ?? '', stderr: child.stderr };
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(name: string, text = ''): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-e2e-'));
  tempDirs.push(dir);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function expectNoStack(text: string) {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(text).not.toMatch(/node:internal|file:\/\/|Node\.js v\d/);
}

/** Three PRINTs with a slow CALL before each of the last two. */
const SLOW_SCRIPT = 'PRINT("one")\nLET a = CALL slow {}\nPRINT("two")\nLET b = CALL slow {}\nPRINT("three")\n';

describe('nuwa run: when the output goes away', () => {
  it('`| head -1`: exits quietly with status 0 and stops the run', () => {
    const script = tempFile('slow.nuwa', SLOW_SCRIPT);
    const trace = tempFile('trace.jsonl');
    const shell = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${bin}" run "${script}" --tools "${fixture('tools-slow.mjs')}" --trace "${trace}" | head -1; echo "status \${PIPESTATUS[0]}" >&2`],
      { cwd: root, encoding: 'utf8', timeout: 20_000 },
    );
    expect(shell.stdout).toBe('one\n');
    expect(shell.stderr).toBe('status 0\n');
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; error?: { kind: string } });
    // The run stopped when "two" could not be written: the second slow call never started.
    expect(events.filter((event) => event.type === 'tool:invoking')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'script:failed', error: { kind: 'AbortedError' } });
  });

  it('`nuwa repl | head -1`: the session ends quietly, with status 0, however much input is left', () => {
    // `yes` would feed entries for ever: the REPL must stop reading them once the reader is gone.
    const trace = tempFile('trace.jsonl');
    const endless = spawnSync(
      'bash',
      ['-c', `yes 'PRINT("x")' | timeout 20 "${process.execPath}" "${bin}" repl | head -1; echo "status \${PIPESTATUS[1]}" >&2`],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    expect(endless.stdout).toBe('x\n');
    expect(endless.stderr).toBe('status 0\n');
    // An entry in progress stops too: the second slow call never starts.
    const slow = spawnSync(
      'bash',
      ['-c', `printf '%s' '${SLOW_SCRIPT.replace(/\n/g, ' ')}' | "${process.execPath}" "${bin}" repl --tools "${fixture('tools-slow.mjs')}" --trace "${trace}" | head -1; echo "status \${PIPESTATUS[1]}" >&2`],
      { cwd: root, encoding: 'utf8', timeout: 20_000 },
    );
    expect(slow.stdout).toBe('one\n');
    expect(slow.stderr).toBe('status 0\n');
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.filter((event) => event.type === 'tool:invoking')).toHaveLength(1);
  });

  it.runIf(existsSync('/dev/full'))('`> /dev/full`: a one-line error and status 1, never silent loss', () => {
    for (const args of [[], ['--json']]) {
      const full = openSync('/dev/full', 'w');
      try {
        const script = tempFile('slow.nuwa', SLOW_SCRIPT);
        const result = nuwa(['run', script, '--tools', fixture('tools-slow.mjs'), ...args], { stdout: full });
        expect(result.status).toBe(1);
        expect(result.stderr).toBe('nuwa: cannot write the output: ENOSPC: no space left on device, write\n');
      } finally {
        closeSync(full);
      }
    }
  });

  it.runIf(existsSync('/dev/full'))('`> /dev/full` with output only at the end (--version) still fails', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = nuwa(['--version'], { stdout: full });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^nuwa: cannot write the output: ENOSPC/);
    } finally {
      closeSync(full);
    }
  });
});

describe("nuwa run: a tool's code that fails outside its call", () => {
  it.each([
    ['throws from a timer', 'timer_throws', 'an uncaught exception outside any tool call: thrown from a timer'],
    ['leaves a rejection unhandled', 'leaves_rejection', 'an unhandled promise rejection outside any tool call: {}'],
  ])('%s: the run fails with a clear error', (_name, toolName, message) => {
    const result = nuwa(['run', '-', '--tools', fixture('tools-stray.mjs')], { input: `PRINT("before")\nLET r = CALL ${toolName} {}\nPRINT("after")` });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('before\n');
    expect(result.stderr.split('\n')[0]).toBe(`<stdin>:2:9: AbortedError: the run was cancelled: ${message}`);
    expectNoStack(result.stderr);
  });
});

describe('nuwa run: tools modules that fail to load', () => {
  it.each([
    ['throws an object without a prototype', 'tools-throws-null-prototype.mjs', /^nuwa: cannot load tools from .*tools-throws-null-prototype\.mjs: .*\{"reason":"no prototype"\}$/m],
    ['throws a string at its top level', 'tools-throws-string.mjs', /^nuwa: cannot load tools from .*tools-throws-string\.mjs: the tool server is down$/m],
    ['never finishes loading', 'tools-never-ready.mjs', /^nuwa: cannot load tools from .*tools-never-ready\.mjs: its default function returned a promise that never settles/m],
    ['has a syntax error', 'tools-syntax-error.mjs', /^nuwa: cannot load tools from (\S+): \1:5:22: SyntaxError: Unexpected string$/m],
    ['throws at its top level', 'tools-top-level-throw.mjs', /^nuwa: cannot load tools from (\S+): \1:3:19: the tool server is down$/m],
  ])('%s: a usage error (status 2) with its own message', (_name, file, message) => {
    const result = nuwa(['run', '-', '--tools', fixture(file)], { input: 'PRINT(1)' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expectNoStack(result.stderr);
  });

  // Where the module went wrong is a place in the module, never one in this package: a definition
  // the registry refused used to be reported at a line of bin/nuwa. (The other cases, in-process:
  // test/unit/providers/module.test.ts.)
  it('a definition the registry refuses: the module named, and no place of bin/nuwa', () => {
    const file = tempFile('refused.mjs', 'export default [\n  { name: "bad name!", description: "x", parameters: [], execute: () => 1 },\n];\n');
    const result = nuwa(['run', '-', '--tools', file], { input: 'PRINT(1)' });
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`nuwa: cannot load tools from ${file}: "bad name!" is not a valid tool name: use letters, digits and _ (dots separate a toolset from its tools), so that CALL can name it`);
    expectNoStack(result.stderr);
  });

  it('a TypeScript module: what to do about it, in one line', () => {
    const source = 'export default [{ name: "hi", description: "Says hi", parameters: [], execute: (): string => "hi" }];\n';
    const file = tempFile('tools.ts', source);
    const result = nuwa(['run', '-', '--tools', file], { input: 'PRINT(CALL hi {})' });
    if ((process.features as { typescript?: unknown }).typescript) {
      // A Node that strips types loads it as it is.
      expect(result).toMatchObject({ status: 0, stdout: 'hi\n' });
      return;
    }
    expect(result.status).toBe(2);
    const advice = process.allowedNodeEnvironmentFlags.has('--experimental-strip-types')
      ? `Node ${process.version} imports TypeScript only with NODE_OPTIONS=--experimental-strip-types; or compile it to JavaScript (tools.js) and load that`
      : `Node ${process.version} cannot import TypeScript (Node 22.18 and later can): compile it to JavaScript (tools.js, with tsc or esbuild) and load that, or run nuwa through a TypeScript loader: NODE_OPTIONS="--import tsx" nuwa ... (with tsx installed)`;
    expect(result.stderr).toBe(`nuwa: cannot load tools from ${file}: ${advice}\nRun \`nuwa run --help\` for usage.\n`);
    // The advice works: with the loader it names (installed here, a devDependency), the module loads.
    const loaded = spawnSync(process.execPath, [bin, 'run', '-', '--tools', file], { cwd: root, input: 'PRINT(CALL hi {})', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '--import tsx' }, timeout: 30_000 });
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout).toBe('hi\n');
  });
});

describe('nuwa run: SIGTERM and SIGHUP stop a run the way SIGINT does', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('%s: tools aborted, --json object printed, trace ended with script:failed', async (signal) => {
    const trace = tempFile('trace.jsonl');
    const child = spawn(process.execPath, [bin, 'run', '-', '--tools', fixture('tools-hang.mjs'), '--json', '--trace', trace], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end('PRINT("start")\nCALL hang {}\n');
    // Wait until the CALL is under way (its tool:invoking event is in the trace).
    for (let i = 0; i < 200 && !readFileSync(trace, 'utf8').includes('tool:invoking'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill(signal);
    expect(await exited).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; output: string[]; error: { kind: string; message: string } };
    expect(report.ok).toBe(false);
    expect(report.output).toEqual(['start']);
    expect(report.error.kind).toBe('AbortedError');
    expect(report.error.message).toMatch(/^the run was cancelled: interrupted/);
    expect(stderr).toContain('tool saw abort');
    const last = JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as { type: string };
    expect(last.type).toBe('script:failed');
  });
});

describe('nuwa run: options nested too deeply are usage errors', () => {
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;

  it('--var', () => {
    const result = nuwa(['run', '-', '--var', `x=${deep}`], { input: 'PRINT(1)' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^nuwa: --var x: the value nests deeper than 1000 levels$/m);
    expectNoStack(result.stderr);
  });

  it('--state', () => {
    const state = tempFile('state.json', `{"k": ${deep}}`);
    const result = nuwa(['run', '-', '--state', state], { input: 'PRINT(1)' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^nuwa: --state .*state\.json: "k": the value nests deeper than 1000 levels$/m);
    expectNoStack(result.stderr);
  });
});
