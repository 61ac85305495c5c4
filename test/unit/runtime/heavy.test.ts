// Heavy built-ins (runtime/suspend.ts): over values at the limits they work in steps, so the event
// loop gets turns during one call (timers, the host's signal, Ctrl-C) and the deadline is seen
// within a chunk. A suspended statement is run again from its start, its heavy calls answered from
// memory: the results, the output and the step count are those of a run that never suspended.
// No assertion is on elapsed time: what is counted is how many times a 1 ms timer got a turn.
import { describe, expect, it } from 'vitest';
import { failure, setup } from '../../support/harness.js';

/** Ticks of a 1 ms timer seen at each PRINT: the event loop's turns between two lines. */
function ticking() {
  let ticks = 0;
  const seen: number[] = [];
  const timer = setInterval(() => ticks++, 1);
  return { print: () => void seen.push(ticks), seen, stop: () => clearInterval(timer) };
}

// The big values the statements work on, each made only where a statement uses it (each costs a
// noticeable moment of the suite's time).
const LIST = 'LET l = REVERSE(RANGE(1000000))\n';
const TEXT = 'LET s = STR(RANGE(1000000))\n';
const BIG = LIST + TEXT;

describe('a heavy built-in lets the event loop in during one call', () => {
  it.each([
    ['SORT', 'LET r = LEN(SORT(l))'],
    ['STR', 'LET r = LEN(STR(l))'],
    ['JOIN', 'LET r = LEN(JOIN(l, ", "))'],
    ['SPLIT', 'LET r = LEN(SPLIT(s, ","))'],
    ['REPLACE', 'LET r = LEN(REPLACE(s, ",", ", "))'],
    ['FORMAT', 'LET r = LEN(FORMAT("<{a}>", { a: SLICE(l, 1) }))'],
    ['SLICE', 'LET r = LEN(SLICE(SLICE(SLICE(l, 1), 1), 1))'],
    ['CONTAINS', 'LET r = CONTAINS(l, -1) OR CONTAINS(l, -2) OR CONTAINS(l, -3)'],
  ])('%s', async (_name, statement) => {
    const clock = ticking();
    const { interpreter } = setup([], { print: clock.print });
    try {
      await interpreter.run(`${/\bs\b/.test(statement) ? TEXT : LIST}PRINT("before")\n${statement}\nPRINT("after")`);
    } finally {
      clock.stop();
    }
    const [before, after] = clock.seen as [number, number];
    // Without steps, the only turn is the one after the statement: one tick at most.
    expect(after - before).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

describe('a suspended statement, run again, does what a run without suspension does', () => {
  it('gives the same results as the plain JavaScript computations', async () => {
    const { interpreter, printed } = setup([]);
    const script = `${BIG}
PRINT(SORT(l)[0]) PRINT(SORT(l)[999999]) PRINT(LEN(SORT(l)))
PRINT(SORT([{ k: 2, i: 0 }, { k: 1, i: 1 }, { k: 2, i: 2 }, { k: 1, i: 3 }], "k"))
PRINT(LEN(SPLIT(s, ",")))
PRINT(LEN(REPLACE(s, ",", ", ")))
PRINT(LEN(JOIN(l, "; ")))
PRINT(SLICE(JOIN(SLICE(l, 0, 5), ","), 0, 100))
PRINT(CONTAINS(l, 0))
PRINT(SLICE(FORMAT("<{a}>", { a: SLICE(l, 999997) }), 0, 100))`;
    await interpreter.run(script);
    const list = Array.from({ length: 1_000_000 }, (_, i) => 999_999 - i);
    const text = JSON.stringify(Array.from({ length: 1_000_000 }, (_, i) => i));
    expect(printed).toEqual([
      '0',
      '999999',
      '1000000',
      '[{"k":1,"i":1},{"k":1,"i":3},{"k":2,"i":0},{"k":2,"i":2}]',
      String(text.split(',').length),
      String(text.replaceAll(',', ', ').length),
      String(list.join('; ').length),
      '999999,999998,999997,999996,999995',
      'true',
      '<[2,1,0]>',
    ]);
  }, 60_000);

  it('prints once, counts its steps once, and keeps the order of effects', async () => {
    const clock = ticking();
    const lines: string[] = [];
    const { interpreter } = setup([], {
      print: (line) => {
        clock.print();
        lines.push(line.length > 40 ? `${line.slice(0, 20)}…(${line.length})` : line);
      },
    });
    let steps = 0;
    try {
      // PRINT of a big list works in steps itself; the IF's single-statement branch is run again
      // through the IF; the loop's statements are suspended on their own.
      const result = await interpreter.run(`${LIST}PRINT(l)
IF LEN(STR(l)) > 0 THEN
  LET t = LEN(SORT(l))
END
FOR i IN [1, 2] DO
  PRINT(i)
  LET u = LEN(JOIN(l, ","))
  PRINT(u)
END`);
      steps = result.stats.steps;
    } finally {
      clock.stop();
    }
    expect(lines).toEqual([`[999999,999998,99999…(${JSON.stringify(Array.from({ length: 1_000_000 }, (_, i) => 999_999 - i)).length})`, '1', '6888889', '2', '6888889']);
    // LET, PRINT, IF, LET, FOR, then per iteration: the iteration and 3 statements
    expect(steps).toBe(1 + 1 + 1 + 1 + 1 + 2 * 4);
  }, 60_000);
});

describe('a statement with NOW(), suspended and run again', () => {
  it('sees the same time: a durable run records one NOW value for it, and a timer gets turns', async () => {
    const clock = ticking();
    const { interpreter } = setup([], { print: clock.print });
    let outcome;
    try {
      // Run again, the statement sees the time it saw first: JOIN is answered from memory.
      outcome = await interpreter.start(`${LIST}PRINT("before")\nLET r = LEN(JOIN(APPEND(SLICE(l, 1), NOW()), ","))\nPRINT(r > 6000000)`);
    } finally {
      clock.stop();
    }
    expect(outcome.status).toBe('completed');
    expect(outcome.checkpoint.now).toHaveLength(1);
    if (outcome.status === 'completed') expect(outcome.result.output).toEqual(['before', 'true']);
    const [before, after] = clock.seen as [number, number];
    expect(after - before).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

describe('the deadline and the signal reach a heavy call', () => {
  it('timeoutMs ends a loop of heavy calls with LimitExceededError', async () => {
    const { interpreter } = setup([], { limits: { timeoutMs: 300 } });
    const error = await failure(interpreter.run(`${LIST}FOR i IN RANGE(1000) DO\n  LET r = LEN(SORT(l))\nEND`));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/timeoutMs \(300 ms\)/);
  }, 60_000);

  it('an AbortSignal ends a loop of heavy calls with AbortedError', async () => {
    const controller = new AbortController();
    // The signal is aborted 100 ms into the loop (the big values are made first).
    const { interpreter } = setup([], { print: () => void setTimeout(() => controller.abort(), 100) });
    const error = await failure(interpreter.run(`${TEXT}PRINT("loop")\nFOR i IN RANGE(1000) DO\n  LET r = LEN(REPLACE(s, ",", ";"))\nEND`, { signal: controller.signal }));
    expect(error.kind).toBe('AbortedError');
    expect(error.line).toBe(4);
  }, 60_000);
});
