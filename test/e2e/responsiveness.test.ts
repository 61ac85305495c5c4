// End-to-end: Ctrl-C (SIGINT) stops `nuwa run` on a script that never calls a tool. The run gives
// the event loop a turn every time slice, so the CLI's SIGINT handler gets to abort it. The child is
// killed after 20 s whatever happens, so a regression fails this test instead of hanging the suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startNuwa } from '../support/processes.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/index.js');

/** Runs `code` (an ES module that has the built package as `nuwa`) in a child process; its last line is JSON. */
function inChild(code: string): Record<string, unknown> {
  const result = spawnSync(process.execPath, ['--max-old-space-size=1024', '--input-type=module', '-e', `import * as nuwa from ${JSON.stringify(new URL(`file://${dist}`).href)};\n${code}`], { encoding: 'utf8', timeout: 60_000 });
  expect(result.signal, 'the child was killed: it did not finish in time').toBeNull();
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

describe('nuwa run: Ctrl-C on a CALL-free loop', () => {
  it('stops the run with AbortedError at the running statement and exit status 1', async () => {
    const run = await startNuwa(
      ['run', '-', '--max-steps', '100000000000'],
      'PRINT("start")\nLET n = 0\nLET many = RANGE(20000)\nFOR a IN many DO\n  FOR b IN many DO\n    LET n = n + 1\n  END\nEND\nPRINT("never")\n',
      'start',
    );
    const guard = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // well inside the loop
    const sent = performance.now();
    run.child.kill('SIGINT');
    const status = await run.exited;
    const reaction = performance.now() - sent;
    clearTimeout(guard);
    expect(status).toBe(1);
    expect(run.stdout).toBe('start\n');
    expect(run.stderr).toMatch(/<stdin>:6:5: AbortedError: the run was cancelled: interrupted \(Ctrl-C\)/);
    expect(reaction).toBeLessThan(10_000); // generous: the point is that it stops at all
  }, 30_000);
});

describe('a long parse is cancellable (TOOLS.md §7)', () => {
  // A script of about 3.9 MB (under the 4 MiB maxSourceBytes): parsed in one step, it held the
  // event loop for a second or more; in slices, timers run while it is parsed, and the deadline and
  // the signal reach it. The turns of a 1 ms timer are counted up to the script's first statement;
  // the time bounds are generous, not measurements.
  const script = `const line = 'LET o = { name: "item", tags: ["x", "y"], n: 1 * 2 + (3 - 1) / 4 }\\n'; const source = 'PRINT("first")\\n' + line.repeat(Math.floor(3_900_000 / line.length));`;

  it('timers run while it is parsed', () => {
    const outcome = inChild(`${script}
let ticks = 0;
let ticksAtFirst = -1;
const ticker = setInterval(() => ticks++, 1);
await new nuwa.Interpreter(new nuwa.ToolRegistry(), { print: () => { ticksAtFirst = ticks; } }).run(source);
clearInterval(ticker);
console.log(JSON.stringify({ ticksAtFirst }));`);
    // In one step: at most the one turn after the parse.
    expect(outcome.ticksAtFirst).toBeGreaterThanOrEqual(5);
  }, 90_000);

  it('timeoutMs ends the run while it is being parsed', () => {
    const outcome = inChild(`${script}
const started = performance.now();
const error = await new nuwa.Interpreter(new nuwa.ToolRegistry(), { print: () => {}, limits: { timeoutMs: 200 } }).run(source).catch((e) => e);
console.log(JSON.stringify({ kind: error.kind, message: error.message, ms: performance.now() - started }));`);
    expect(outcome.kind).toBe('LimitExceededError');
    expect(outcome.message).toMatch(/timeoutMs \(200 ms\)/);
    expect(outcome.ms).toBeLessThan(5000);
  }, 90_000);

  it('an AbortSignal ends the run while it is being parsed', () => {
    const outcome = inChild(`${script}
const controller = new AbortController();
setTimeout(() => controller.abort(), 200);
const started = performance.now();
const error = await new nuwa.Interpreter(new nuwa.ToolRegistry(), { print: () => {} }).run(source, { signal: controller.signal }).catch((e) => e);
console.log(JSON.stringify({ kind: error.kind, ms: performance.now() - started }));`);
    expect(outcome.kind).toBe('AbortedError');
    expect(outcome.ms).toBeLessThan(5000);
  }, 90_000);
});

describe('loops of heavy built-ins stay responsive (TOOLS.md §7)', () => {
  // Before, CONTAINS over a million items counted as one step (the clock was looked at once in
  // 1,024 calls: a second late), and one REPLACE or STR call at the limits held the event loop for
  // a few hundred milliseconds. Counted: the turns a 1 ms timer got while the loop ran.
  it.each([
    // CONTAINS takes less than a time slice: turns come between its calls, one a slice or so.
    ['CONTAINS', 'LET l = RANGE(1000000)', 'LET t = CONTAINS(l, -1)', false],
    // These take many slices each: turns come during every call.
    ['REPLACE', 'LET s = STR(RANGE(1000000))', 'LET t = LEN(REPLACE(s, ",", ";"))', true],
    ['STR', 'LET l = RANGE(1000000)', 'LET t = LEN(STR(l))', true],
  ])('%s: timeoutMs ends the loop, and timers run while it goes', (_name, setup, statement, long) => {
    const outcome = inChild(`
let ticks = 0;
let started = 0;
const ticker = setInterval(() => ticks++, 1);
const interpreter = new nuwa.Interpreter(new nuwa.ToolRegistry(), { limits: { timeoutMs: 3000 }, print: () => { ticks = 0; started = performance.now(); } });
const error = await interpreter.run(${JSON.stringify(`${setup}\nLET calls = 0\nPRINT("loop")\nFOR i IN RANGE(100000) DO\n  LET calls = calls + 1\n  ${statement}\nEND`)}).catch((e) => e);
clearInterval(ticker);
console.log(JSON.stringify({ kind: error.kind, message: error.message, ticks, calls: error.variables?.calls, loopMs: performance.now() - started }));`);
    expect(outcome.kind).toBe('LimitExceededError');
    expect(outcome.message).toMatch(/timeoutMs \(3000 ms\)/);
    expect(outcome.calls as number).toBeGreaterThanOrEqual(1);
    // A long call: turns during it, not only after it (one per call at most, without steps),
    // counted per call the timeout did not cut short (on a busy machine the setup can take most of
    // the 3 s, and the timeout then ends the first call early), which a slower machine does not
    // change. A short one: a turn every time slice (10 ms) of the loop, give or take, far more than
    // one per 1,024 calls.
    if (long) expect(outcome.ticks as number).toBeGreaterThanOrEqual(3 * ((outcome.calls as number) - 1));
    else expect(outcome.ticks as number).toBeGreaterThanOrEqual(20);
    expect(outcome.loopMs as number).toBeLessThan(10_000);
  }, 90_000);
});
