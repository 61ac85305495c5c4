// The runs' deadlines under one timer (src/tools/deadlines.ts): each watched item expires once, in
// deadline order, after its deadline; an item no longer watched never expires; the heap keeps its
// order through removals from anywhere; an item watched while others expire is still watched; and
// nothing is left watched (so no timer keeps the process alive) once every item has left.
import { afterEach, describe, expect, it } from 'vitest';
import { unwatchDeadline, watchDeadline, watchedDeadlines, type Expiring } from '../../../src/tools/deadlines.js';
import { Interpreter, ToolRegistry } from '../../../src/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An item due `inMs` from now, recording when it expired into `log`. */
function item(name: string, inMs: number, log: string[], onExpire?: () => void): Expiring & { expiredAt?: number } {
  const watched: Expiring & { expiredAt?: number } = {
    deadline: performance.now() + inMs,
    deadlineSlot: -1,
    expire() {
      watched.expiredAt = performance.now();
      log.push(name);
      onExpire?.();
    },
  };
  return watched;
}

afterEach(() => {
  expect(watchedDeadlines()).toBe(0);
});

describe('deadlines under one timer', () => {
  it('expires each item once, in deadline order, not before its deadline (to the millisecond)', async () => {
    const log: string[] = [];
    const items = [item('c', 30, log), item('a', 5, log), item('d', 40, log), item('b', 15, log)];
    for (const watched of items) watchDeadline(watched);
    expect(watchedDeadlines()).toBe(4);
    await sleep(80);
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    for (const watched of items) expect(watched.expiredAt!).toBeGreaterThanOrEqual(watched.deadline - 1);
    for (const watched of items) expect(watched.deadlineSlot).toBe(-1);
  });

  it('never expires an item no longer watched, wherever it stood in the heap', async () => {
    const log: string[] = [];
    const items = Array.from({ length: 40 }, (_, i) => item(`i${i}`, 5 + ((i * 7) % 40), log));
    for (const watched of items) watchDeadline(watched);
    const removed = new Set(items.filter((_, i) => i % 3 === 0));
    for (const watched of removed) unwatchDeadline(watched);
    unwatchDeadline(items[0]!); // a second time: nothing happens
    expect(watchedDeadlines()).toBe(items.length - removed.size);
    await sleep(90);
    const kept = items.map((watched, i) => [watched, `i${i}`] as const).filter(([watched]) => !removed.has(watched));
    expect([...log].sort()).toEqual(kept.map(([, name]) => name).sort());
    for (const watched of removed) expect(watched.expiredAt).toBeUndefined();
    // In deadline order.
    const deadlines = log.map((name) => items[Number(name.slice(1))]!.deadline);
    expect(deadlines).toEqual([...deadlines].sort((a, b) => a - b));
  });

  it('keeps watching an item added while another expires, and one added earlier than the timer', async () => {
    const log: string[] = [];
    const late = item('late', 60, log);
    watchDeadline(late);
    const added = item('added', 10, log);
    const first = item('first', 5, log, () => watchDeadline(Object.assign(added, { deadline: performance.now() + 10 })));
    watchDeadline(first); // earlier than the timer set for `late`
    await sleep(100);
    expect(log).toEqual(['first', 'added', 'late']);
  });

  it('leaves nothing watched when runs end before their timeoutMs, and stops a run that outlasts it', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'wait', description: 'waits', parameters: [], returns: 'any', execute: () => sleep(30).then(() => 1) });
    const quick = new Interpreter(registry, { limits: { timeoutMs: 60_000 } });
    const slow = new Interpreter(registry, { limits: { timeoutMs: 5 } });
    const runs = [quick.run('LET x = CALL wait {}'), slow.run('LET x = CALL wait {}').catch((error: unknown) => error)];
    expect(watchedDeadlines()).toBe(2);
    const [done, stopped] = await Promise.all(runs);
    expect((done as { variables: unknown }).variables).toEqual({ x: 1 });
    expect((stopped as Error).message).toMatch(/timeoutMs \(5 ms\)/);
  });
});
