// End-to-end tests of the `nuwa` command: each spawns bin/nuwa as a user would (it runs the built
// package in dist/, which `npm test` builds first).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startNuwa } from '../support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'nuwa');
const fixtures = path.join(root, 'test', 'e2e', 'fixtures');
const toolsList = path.join(fixtures, 'tools-list.mjs');

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function nuwa(args: string[], options: { input?: string; cwd?: string } = {}): Result {
  const child = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? root,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function scriptFile(source: string, name = 'script.nuwa'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuwa-e2e-'));
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

/** No JavaScript stack trace ever reaches the user for a script error. */
function expectNoStack(text: string) {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(text).not.toMatch(/node:internal|file:\/\//);
}

describe('nuwa run: success', () => {
  it('runs the quick start example (what `npm start` runs)', () => {
    const result = nuwa(['run', 'examples/quickstart.nuwa', '--tools', 'examples/tools.mjs']);
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'AAPL trades at $189.84',
      'That is above our 150 threshold.',
      '  MSFT: 415.5',
      '  NVDA: 121.4',
      '  TSLA: 248.23',
      'Average of the watchlist: 261.71',
      '',
    ]);
    expect(result.stderr).toBe('');
  });

  it('runs the aggregation example', () => {
    const result = nuwa(['run', 'examples/aggregate.nuwa', '--tools', 'examples/tools.mjs']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('[{"product":"lamp","total":275},{"product":"desk","total":750},{"product":"chair","total":415}]');
    expect(result.stdout).toContain('Grand total: 1440');
  });

  it('reads the script from stdin with -', () => {
    const result = nuwa(['run', '-'], { input: 'LET x = 2\nPRINT(x * 21)\n' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('42\n');
  });

  it('works from any working directory', () => {
    const file = scriptFile('PRINT(CALL greet { name: "Ada" })');
    const result = nuwa(['run', path.basename(file), '--tools', toolsList], { cwd: path.dirname(file) });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('Hello, Ada!\n');
  });

  it('loads a tools module whose default export is a function (toolsets too)', () => {
    const result = nuwa(['run', '-', '--tools', path.join(fixtures, 'tools-function.mjs')], {
      input: 'PRINT(CALL double { n: 21 }) PRINT(CALL text.upper { s: "ok" })',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('42\nOK\n');
  });

  it('loads several tools modules', () => {
    const result = nuwa(['run', '-', '--tools', toolsList, '--tools', path.join(fixtures, 'tools-function.mjs')], {
      input: 'PRINT(CALL greet { name: STR(CALL double { n: 2 }) })',
    });
    expect(result.stdout).toBe('Hello, 4!\n');
  });

  it('prints context.print output in order with PRINT', () => {
    const result = nuwa(['run', '-', '--tools', toolsList], { input: 'PRINT("a") CALL shout { text: "b" } PRINT("c")' });
    expect(result.stdout).toBe('a\nB\nc\n');
  });

  it('passes --var values as JSON, or as text when they are not JSON', () => {
    const result = nuwa(['run', '-', '--var', 'n=41', '--var', 'tags=["x","y"]', '--var', 'city=Paris'], {
      input: 'PRINT(n + 1) PRINT(LEN(tags)) PRINT(city)',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('42\n2\nParis\n');
  });

  it('seeds the session state from --state', () => {
    const state = scriptFile(JSON.stringify({ greeting: 'hi', count: 3 }), 'state.json');
    const result = nuwa(['run', '-', '--tools', toolsList, '--state', state], { input: 'PRINT(CALL recall { key: "count" })' });
    expect(result.stdout).toBe('3\n');
  });
});

describe('nuwa run --json', () => {
  it('prints exactly one JSON object with output, variables, state and stats', () => {
    const result = nuwa(['run', '-', '--json', '--tools', toolsList], {
      input: 'PRINT("one") LET x = { a: [1, 2] } CALL remember { key: "k", value: x } CALL shout { text: "two" }',
    });
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(report).sort()).toEqual(['ok', 'output', 'state', 'stats', 'variables']);
    expect(report.ok).toBe(true);
    expect(report.output).toEqual(['one', 'TWO']);
    expect(report.variables).toEqual({ x: { a: [1, 2] } });
    expect(report.state).toEqual({ k: { a: [1, 2] } });
    expect(report.stats.steps).toBe(4);
    expect(report.stats.toolCalls).toBe(2);
    // Milliseconds to a tenth (src/util/elapsed.ts), not performance.now()'s sixteen digits.
    expect(result.stdout).toMatch(/"durationMs":\d+(\.\d)?\}/);
  });

  it('reports a runtime error with the variables and output as they were', () => {
    const result = nuwa(['run', '-', '--json'], { input: 'LET a = 1\nPRINT("before")\nLET b = a + "x"\nLET c = 3\n' });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.output).toEqual(['before']);
    expect(report.variables).toEqual({ a: 1 });
    expect(report.error).toEqual({ kind: 'TypeError', message: expect.stringMatching(/FORMAT/), line: 3, column: 11 });
    expect(report.stats.steps).toBe(3);
    expect(result.stderr).toBe('');
  });

  it('lists every syntax error in error.errors', () => {
    const result = nuwa(['run', '-', '--json'], { input: "LET a = 'x'\nLET b = (1 + \nLET c = 2\n" });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.error.kind).toBe('SyntaxError');
    expect(report.error.errors.length).toBeGreaterThanOrEqual(2);
    expect(report.error.errors[0]).toEqual({ message: expect.stringMatching(/double quotes/), line: 1, column: 9 });
    for (const problem of report.error.errors) expect(Object.keys(problem).sort()).toEqual(['column', 'line', 'message']);
  });
});

describe('nuwa run: errors', () => {
  it('prints file:line:col: Kind: message with a code frame, and exits 1', () => {
    const result = nuwa(['run', 'examples/diagnostics.nuwa', '--tools', 'examples/tools.mjs']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('MSFT: 415.5\n');
    const [head, , current, caret] = result.stderr.split('\n');
    expect(head).toMatch(/^examples\/diagnostics\.nuwa:9:29: TypeError: .*use FORMAT/);
    expect(current).toBe('9 | LET message = "MSFT is at " + price');
    expect(caret).toBe(`  | ${' '.repeat(28)}^`);
    expectNoStack(result.stderr);
  });

  it('prints one block per syntax error', () => {
    const file = scriptFile('let x = 1\nLET y = (2\nPRINT(y))\n');
    const result = nuwa(['run', file]);
    expect(result.status).toBe(1);
    const heads = result.stderr.split('\n').filter((line) => line.startsWith(file));
    expect(heads.length).toBeGreaterThanOrEqual(2);
    expect(heads[0]).toMatch(/:1:\d+: SyntaxError: .*uppercase.*LET/);
    expect(result.stderr).toMatch(/\n {2}\| +\^/);
    expectNoStack(result.stderr);
  });

  it('turns a throwing tool into ToolExecutionError without a stack trace', () => {
    const result = nuwa(['run', '-', '--tools', toolsList], { input: 'PRINT(1)\nCALL explode {}\nPRINT(2)' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('1\n');
    expect(result.stderr).toMatch(/^<stdin>:2:1: ToolExecutionError: tool `explode` failed: the reactor is offline/);
    expectNoStack(result.stderr);
  });

  it('turns a Date result into ToolResultError', () => {
    const result = nuwa(['run', '-', '--tools', toolsList], { input: 'LET d = CALL today {}' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/1:9: ToolResultError: .*Date/);
  });

  it('reports bad tool arguments with the CALL position', () => {
    const result = nuwa(['run', '-', '--tools', toolsList], { input: 'CALL greet { nme: "x" }' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/1:1: ToolArgumentError: .*missing required argument `name`.*unknown argument `nme`/s);
  });

  it('denies calls that need approval without a terminal or --yes', () => {
    const result = nuwa(['run', '-', '--tools', toolsList], { input: 'PRINT(CALL delete_everything {})' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/ToolDeniedError: .*--yes/);
  });

  // A real terminal: `script` runs the command on a pseudo-terminal and forwards our answer to it.
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript).each([
    ['y', 0, /deleted/],
    ['n', 1, /ToolDeniedError: .*did not approve/],
  ])('asks on a terminal; answering %s', (answer, status, shown) => {
    const file = scriptFile('PRINT(CALL delete_everything {})');
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} run ${JSON.stringify(file)} --tools ${JSON.stringify(toolsList)}`;
    const child = spawnSync('sh', ['-c', `(sleep 1; echo ${answer}) | script -qec ${JSON.stringify(command)} /dev/null`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 20_000,
    });
    expect(child.stdout).toMatch(/Allow delete_everything \(destructive\) with \{\}\? \[y\/N\]/);
    expect(child.stdout).toMatch(shown);
    expect(child.status).toBe(status);
  });

  it('approves them with --yes', () => {
    const result = nuwa(['run', '-', '--tools', toolsList, '--yes'], { input: 'PRINT(CALL delete_everything {})' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('deleted\n');
  });

  it('enforces --max-steps and --max-tool-calls', () => {
    const steps = nuwa(['run', '-', '--max-steps', '10'], { input: 'FOR i IN [1,2,3,4,5,6,7,8,9,10] DO LET x = i END' });
    expect(steps.status).toBe(1);
    expect(steps.stderr).toMatch(/LimitExceededError: .*maxSteps \(10\)/);
    const calls = nuwa(['run', '-', '--tools', toolsList, '--max-tool-calls', '1'], { input: 'CALL greet { name: "a" } CALL greet { name: "b" }' });
    expect(calls.status).toBe(1);
    expect(calls.stderr).toMatch(/1:26: LimitExceededError: .*maxToolCalls \(1\)/);
  });

  it('writes run events to --trace as JSON lines', () => {
    const trace = path.join(mkdtempSync(path.join(tmpdir(), 'nuwa-trace-')), 'events.jsonl');
    const result = nuwa(['run', '-', '--tools', toolsList, '--trace', trace], { input: 'CALL greet { name: "a" }' });
    expect(result.status).toBe(0);
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['script:started', 'tool:invoking', 'tool:invoked', 'tool:completed', 'script:completed']);
    expect(events[3].toolName).toBe('greet');
    expect(events[3].callId).toBe('1:1');
    expect(String(events[3].duration)).toMatch(/^\d+(\.\d)?$/);
    expect(String(events[4].stats.durationMs)).toMatch(/^\d+(\.\d)?$/);
  });
});

describe('nuwa run: hostile input ends in a NuwaError', () => {
  it('stops a tool that never returns at --timeout, and aborts its signal', () => {
    const result = nuwa(['run', '-', '--tools', path.join(fixtures, 'tools-hang.mjs'), '--timeout', '300'], { input: 'PRINT("start")\nCALL hang {}\nPRINT("never")' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('start\n');
    expect(result.stderr).toContain('tool saw abort: the run took longer than timeoutMs (300 ms)');
    expect(result.stderr).toMatch(/<stdin>:2:1: LimitExceededError: the run took longer than timeoutMs \(300 ms\)/);
  });

  it('cancels the run on Ctrl-C (SIGINT) with AbortedError', async () => {
    const run = await startNuwa(['run', '-', '--tools', path.join(fixtures, 'tools-hang.mjs')], 'PRINT("start")\nCALL hang {}\n', 'start');
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the CALL start
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.stderr).toMatch(/<stdin>:2:1: AbortedError: the run was cancelled: interrupted/);
    expect(run.stderr).toContain('tool saw abort');
  });

  it.each([
    ['1,000 nested lists', `LET a = ${'['.repeat(1000)}${']'.repeat(1000)}\nPRINT(LEN(a))`, '1'],
    ['1,000 nested parentheses', `PRINT(${'('.repeat(999)}7${')'.repeat(999)})`, '7'],
    ['1,000 nested objects', `LET a = ${'{a:'.repeat(999)}1${'}'.repeat(999)}\nPRINT(LEN(a))`, '1'],
    ['1,000 nested IF blocks', `${'IF true THEN\n'.repeat(1000)}LET deep = "deep"\n${'END\n'.repeat(1000)}PRINT(deep)`, 'deep'],
    ['1,000 prefix operators', `LET x = ${'- '.repeat(1000)}1\nPRINT(x)`, '1'],
    ['a 20,000-term sum', `PRINT(${Array(20000).fill('1').join(' + ')})`, '20000'],
  ])('runs %s', (_name, source, printed) => {
    const result = nuwa(['run', '-'], { input: source });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${printed}\n`);
    expect(result.status).toBe(0);
  });

  it('rejects 1,001 levels of nesting as a SyntaxError', () => {
    const result = nuwa(['run', '-'], { input: `LET a = ${'['.repeat(1001)}${']'.repeat(1001)}` });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^<stdin>:1:1009: SyntaxError: nesting deeper than 1000 levels/);
    expectNoStack(result.stderr);
  });

  it('refuses a value nested deeper than 1,000 levels built in a loop', () => {
    const result = nuwa(['run', '-', '--var', `n=${JSON.stringify(Array.from({ length: 1100 }, (_, i) => i))}`], {
      input: 'LET a = []\nFOR i IN n DO\n  LET a = [a]\nEND\nPRINT(a)',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/3:11: LimitExceededError: value nested deeper than 1000 levels/); // refused where it is built
  });

  it('stops at the output limit instead of flooding', () => {
    const result = nuwa(['run', '-', '--max-steps', '100000000'], { input: 'LET xs = [1,2,3,4,5,6,7,8,9,10]\nFOR a IN xs DO FOR b IN xs DO FOR c IN xs DO FOR d IN xs DO FOR e IN xs DO FOR f IN xs DO FOR g IN xs DO PRINT("................................................................................................................") END END END END END END END' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/LimitExceededError: the script printed more than maxOutputBytes/);
    expect(result.stdout.length).toBeLessThanOrEqual(10 * 1024 * 1024);
  });
});

describe('nuwa --help and --version', () => {
  it('prints help', () => {
    const result = nuwa(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/nuwa run <file\.nuwa \| ->/);
    expect(nuwa(['run', '--help']).stdout).toMatch(/--json/);
  });

  it('prints the package version', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(nuwa(['--version']).stdout).toBe(`${pkg.version}\n`);
  });
});
