// The one timer for every run's deadline (src/util/deadlines.ts): runs time out in deadline order
// whatever order they were added in, a run taken out is never told, the timer is cleared once no
// run is left (so that it does not keep the process alive), and a host's fake timers get a list of
// their own: a deadline left on a fake clock that is gone never holds up the real one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchDeadline, type Timed } from '../../../src/util/deadlines.js';

afterEach(() => vi.useRealTimers());

function timed(name: string, inMs: number, told: string[]): Timed {
  return { deadline: performance.now() + inMs, prevTimed: null, nextTimed: null, timeOut: () => told.push(name) };
}

describe('the shared deadline timer', () => {
  it('tells each item once its deadline passes, earliest first, with one timer', async () => {
    vi.useFakeTimers();
    const told: string[] = [];
    for (const [name, ms] of [['c', 300], ['a', 100], ['d', 300], ['b', 200]] as const) watchDeadline(timed(name, ms, told));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(150);
    expect(told).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(200);
    expect(told).toEqual(['a', 'b', 'c', 'd']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never tells an item taken out, and clears the timer when none is left', async () => {
    vi.useFakeTimers();
    const told: string[] = [];
    const first = timed('first', 100, told);
    const second = timed('second', 200, told);
    const list = watchDeadline(first);
    watchDeadline(second);
    list.remove(first);
    list.remove(first); // twice: nothing happens
    await vi.advanceTimersByTimeAsync(150);
    expect(told).toEqual([]);
    list.remove(second);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toEqual([]);
  });

  it('keeps the deadlines of a fake clock apart from the real one', async () => {
    vi.useFakeTimers();
    const told: string[] = [];
    watchDeadline(timed('on the fake clock', 50, told));
    vi.useRealTimers(); // the fake clock is gone with its timer, never to fire
    watchDeadline(timed('on the real clock', 20, told));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(told).toEqual(['on the real clock']);
  });
});
