// The promise of durable runs, as a property (DURABLE.md §2): for random scripts and random pause
// points, pausing and resuming — each time from a checkpoint that went through JSON, in a new
// Interpreter — gives the same output, the same variables and the same tool calls, made once each
// and in the same order, as one uninterrupted run.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Interpreter, ToolRegistry, type RunOutcome } from '../../../src/index.js';
import { tool } from '../../support/harness.js';

/** A random script: reads, writes (which need approval), prints, NOW(), IFs, FOR loops and comprehensions, nested. */
const scriptArbitrary = (() => {
  const value = fc.oneof(fc.constant('v'), fc.integer({ min: 0, max: 9 }).map(String), fc.constant('LEN(xs)'));
  const statement: fc.Memo<string> = fc.memo((depth) => {
    const leaves = [
      value.map((x) => `LET v = CALL r { x: ${x} }`),
      value.map((x) => `LET v = CALL w { x: ${x} }`),
      value.map((x) => `PRINT(${x})`),
      fc.constant('LET t = NOW() - t0\nPRINT(t)'),
      fc.constant('LET xs = APPEND(xs, v)'),
      // Comprehensions: their calls run concurrently, writes in element order (DURABLE.md §4).
      fc.integer({ min: 0, max: 3 }).map((n) => `LET xs = [CALL r { x: i + v } FOR i IN RANGE(${n})]`),
      fc.integer({ min: 0, max: 3 }).map((n) => `LET xs = [CALL w { x: i } FOR i IN RANGE(${n}) IF i != 1]`),
      fc.integer({ min: 0, max: 3 }).map((n) => `PRINT([NOW() - t0 + CALL r { x: i } FOR i IN RANGE(${n})])`),
    ];
    if (depth <= 1) return fc.oneof(...leaves);
    const block = fc.array(statement(depth - 1), { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
    return fc.oneof(
      ...leaves,
      fc.tuple(fc.integer({ min: 0, max: 3 }), block).map(([n, body]) => `FOR i IN RANGE(${n}) DO\n${body}\nLET v = v + i\nEND`),
      fc.tuple(block, block).map(([yes, no]) => `IF v % 2 == 0 THEN\n${yes}\nELSE\n${no}\nEND`),
    );
  });
  return fc.array(statement(3), { minLength: 1, maxLength: 6 }).map((lines) => ['LET v = 1', 'LET xs = []', 'LET t0 = NOW()', ...lines].join('\n'));
})();

// The clock NOW() reads moves only when a tool is invoked: the uninterrupted run and the paused one
// see the same times exactly when the paused one invokes the same tools in the same order and
// answers NOW() from its record where it replays.
let clock = 0;
afterEach(() => vi.restoreAllMocks());

function registryWith(calls: string[]): ToolRegistry {
  const registry = new ToolRegistry();
  const invoked = (line: string) => {
    calls.push(line);
    clock += 1000;
  };
  registry.register(tool('r', ({ x }) => (invoked(`r ${String(x)}`), (x as number) * 2 + 1), { confirm: 'read' }));
  registry.register(tool('w', ({ x }) => (invoked(`w ${String(x)}`), (x as number) + 100), { confirm: 'write' }));
  return registry;
}

describe('pause and resume, at random points', () => {
  it('give what one uninterrupted run gives', async () => {
    await fc.assert(
      fc.asyncProperty(scriptArbitrary, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), async (script, pauses) => {
        vi.spyOn(Date, 'now').mockImplementation(() => clock);
        clock = 1_000_000;
        const straightCalls: string[] = [];
        const straight = await new Interpreter(registryWith(straightCalls), { print: () => {}, approve: () => true, limits: { timeoutMs: 10_000 } }).start(script);

        // The same script, pausing at the approvals `pauses` says to (and approving the others).
        clock = 1_000_000;
        const calls: string[] = [];
        let asked = 0;
        const approve = () => (pauses[asked++ % pauses.length] ? ('pause' as const) : true);
        const printed: string[] = [];
        const fresh = () => new Interpreter(registryWith(calls), { print: (line) => printed.push(line), approve, limits: { timeoutMs: 10_000 } });
        let outcome: RunOutcome = await fresh().start(script);
        for (let rounds = 0; outcome.status === 'paused'; rounds++) {
          if (rounds > 200) throw new Error('the run kept pausing');
          const decisions = Object.fromEntries(outcome.pending.map((pending) => [pending.callId, true]));
          outcome = await fresh().resume(JSON.parse(JSON.stringify(outcome.checkpoint)), { decisions });
        }
        expect(outcome.status).toBe(straight.status);
        if (outcome.status === 'completed' && straight.status === 'completed') {
          expect(outcome.result.output).toEqual(straight.result.output);
          expect(outcome.result.variables).toEqual(straight.result.variables);
          expect(outcome.result.stats.toolCalls).toBe(straight.result.stats.toolCalls);
          expect(outcome.result.stats.steps).toBe(straight.result.stats.steps);
        }
        // Every line printed once, to the host's print hook, across all the processes.
        if (outcome.status === 'completed') expect(printed).toEqual(outcome.result.output);
        expect(calls).toEqual(straightCalls);
      }),
      { numRuns: 150 },
    );
  });
});
