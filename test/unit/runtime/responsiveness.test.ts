// Responsiveness (TOOLS.md §7): a run that never calls a tool still gives the event loop a turn
// every time slice, so timers, the host's AbortSignal and the run's own timeout act on it, and
// parsing counts toward the run's time. Every run here is also bounded by maxSteps, so a regression
// (a run that no longer yields) ends with the wrong error in a few seconds instead of hanging.
// No assertion is on elapsed time: the ~50 ms reaction is measured in the benchmark notes, not here.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/syntax/parse.js';
import { Interpreter } from '../../../src/api/interpreter.js';
import { failure, setup, tool } from '../../support/harness.js';

// The list is made once, small: a big RANGE can itself be where a signal is seen (it works in steps).
const ENDLESS = 'LET n = 0\nLET many = RANGE(20000)\nFOR a IN many DO\n  FOR b IN many DO\n    LET n = n + 1\n  END\nEND';
/** About two seconds of work, and more under load: far longer than the 50 ms the tests wait. */
const BOUND = { maxSteps: 40_000_000 };

function manyStatements(count: number): string {
  return Array.from({ length: count }, (_, i) => `LET v${i % 50} = ${i}`).join('\n');
}

describe('a CALL-free loop', () => {
  it('is stopped by the host AbortSignal while it runs', async () => {
    // The signal is aborted once the loop has begun (the PRINT before it starts the clock): on a
    // loaded machine a timer set before run() could fire while the list is still being made.
    const controller = new AbortController();
    const interpreter = new Interpreter(undefined, { limits: BOUND, print: () => void setTimeout(() => controller.abort(), 20) });
    const source = ENDLESS.replace('FOR a IN many DO', 'PRINT("go")\nFOR a IN many DO');
    const error = await failure(interpreter.run(source, { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(error.message).toBe('the run was cancelled by the host');
    expect(error.line).toBe(6); // the statement that was running
    expect(error.variables!.n as number).toBeGreaterThan(0);
  }, 30_000);

  it('is stopped by timeoutMs, in a loop inside an IF inside a loop', async () => {
    const { interpreter } = setup([], { limits: { ...BOUND, timeoutMs: 100 } });
    const source = 'LET n = 0\nFOR a IN RANGE(1000000) DO\n  IF a >= 0 THEN\n    FOR b IN RANGE(1000000) DO\n      LET n = n + 1\n    END\n  END\nEND';
    const error = await failure(interpreter.run(parse(source)));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(100 ms\)/);
  }, 30_000);

  it('lets timers run while it goes on', async () => {
    const { interpreter } = setup([], { limits: BOUND });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const controller = new AbortController();
    const stopper = setInterval(() => ticks >= 5 && controller.abort('enough ticks'), 1);
    try {
      const error = await failure(interpreter.run(ENDLESS, { signal: controller.signal }));
      expect(error.message).toBe('the run was cancelled: enough ticks');
      expect(ticks).toBeGreaterThanOrEqual(5);
    } finally {
      clearInterval(timer);
      clearInterval(stopper);
    }
  }, 30_000);

  it('is stopped by the signal in a loop that also calls tools (sync tools never give a turn by themselves)', async () => {
    const { interpreter } = setup([tool('inc', ({ n }) => (n as number) + 1)], { limits: { ...BOUND, maxToolCalls: 1e9 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const source = 'LET n = 0\nFOR a IN RANGE(1000000) DO\n  LET n = CALL inc { n: n }\nEND';
    const error = await failure(interpreter.run(source, { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
  }, 30_000);

  it('computes the same result whether or not it gave turns on the way', async () => {
    const { interpreter, printed } = setup([tool('id', ({ v }) => v)], { limits: BOUND });
    // Long enough to span many time slices, with the awaits of a tool call between the inner loops.
    const source = 'LET total = 0\nFOR a IN RANGE(30) DO\n  LET a2 = CALL id { v: a }\n  FOR b IN RANGE(20000) DO\n    IF b % 2 == 0 THEN\n      LET total = total + a2\n    END\n  END\nEND\nPRINT(total)';
    const result = await interpreter.run(source);
    expect(printed).toEqual([String(10_000 * (29 * 30) / 2)]);
    // LET, FOR, then per outer iteration: the iteration, LET, the inner FOR, 2 per inner iteration and 10,000 LETs; PRINT
    expect(result.stats.steps).toBe(1 + 1 + 30 * (1 + 1 + 1 + 20_000 * 2 + 10_000) + 1);
  }, 30_000);
});

describe('a list comprehension without CALL', () => {
  // One statement whose comprehension would run for minutes: it gives turns between elements.
  const ENDLESS_COMPREHENSION = 'LET r = RANGE(1000000)\nLET n = 0\nLET a = [SUM([y FOR y IN r]) FOR x IN r]';

  it('is stopped by the host AbortSignal while it runs, nested or not', async () => {
    const nested = 'LET r = RANGE(1000000)\nPRINT("go")\nPRINT(LEN([LEN([y FOR y IN r IF y >= 0]) FOR x IN r]) + 1)';
    for (const source of [ENDLESS_COMPREHENSION.replace('LET n = 0', 'PRINT("go")'), nested]) {
      // The signal is aborted once the comprehension's statement has begun: the PRINT before it starts the clock.
      const controller = new AbortController();
      const interpreter = new Interpreter(undefined, { limits: BOUND, print: () => void setTimeout(() => controller.abort(), 20) });
      const error = await failure(interpreter.run(source, { signal: controller.signal }));
      expect(error.kind).toBe('AbortedError');
      expect(error.line).toBe(3);
    }
  }, 30_000);

  it('is stopped by timeoutMs', async () => {
    const { interpreter } = setup([], { limits: { ...BOUND, timeoutMs: 100 } });
    const error = await failure(interpreter.run(ENDLESS_COMPREHENSION));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(100 ms\)/);
  }, 30_000);

  it('computes the same result whether or not it gave turns on the way', async () => {
    const { interpreter, printed } = setup([], { limits: BOUND });
    const source = 'LET r = RANGE(3000)\nLET sums = [SUM([x * y FOR y IN r IF y % 2 == 0]) FOR x IN RANGE(300)]\nPRINT(SUM(sums))';
    const result = await interpreter.run(source);
    // Σx · Σ(even y < 3000) = (299·300/2) · (2 · 1499·1500/2)
    expect(printed).toEqual([String(((299 * 300) / 2) * 1499 * 1500)]);
    // 2 LETs, PRINT, the outer elements, and the inner elements of each
    expect(result.stats.steps).toBe(3 + 300 + 300 * 3000);
  }, 30_000);
});

describe('parsing counts toward the run', () => {
  it('a script whose parsing alone takes longer than timeoutMs ends before its first statement', async () => {
    const { interpreter } = setup([], { limits: { ...BOUND, timeoutMs: 1 } });
    const error = await failure(interpreter.run(manyStatements(30_000)));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(1 ms\)/);
    expect(error.variables).toEqual({});
  }, 30_000);

  it('a long script is parsed in slices: timers run while it is parsed, not only once it is', async () => {
    let ticks = 0;
    let ticksAtFirstStatement = -1;
    const { interpreter } = setup([], { limits: BOUND, print: () => void (ticksAtFirstStatement = ticks) });
    const timer = setInterval(() => ticks++, 1);
    try {
      // About 2.3 MB: many time slices of parsing (with one turn of the event loop for each).
      await interpreter.run(`PRINT("first")\n${manyStatements(200_000)}`);
    } finally {
      clearInterval(timer);
    }
    expect(ticksAtFirstStatement).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('a signal aborted while a long script is parsed stops the run before its first statement', async () => {
    const { interpreter } = setup([], { limits: BOUND });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0); // fires as soon as the run gives the event loop a turn
    const error = await failure(interpreter.run(manyStatements(60_000), { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(error.variables).toEqual({});
  }, 30_000);
});
