// Concurrent calls in list comprehensions (DURABLE.md §4), proven with tools that record what they
// see — how many calls overlap, in what order they start and end, which were aborted — never with
// timings: up to maxConcurrentCalls in flight, results in element order, writes one at a time in
// element order, approvals one at a time in order, the first failing element's error, later calls
// aborted and later elements not started, and what an element does after a call in element order.
import { describe, expect, it } from 'vitest';
import type { NuwaEvent } from '../../../src/index.js';
import { failure, setup, tool } from '../../support/harness.js';

/** A read whose answers the test releases, one by one, in any order. */
function gatedRead(name = 'fetch') {
  const inFlight = new Set<number>();
  let most = 0;
  const started: number[] = [];
  const aborted: number[] = [];
  const release = new Map<number, (value: unknown) => void>();
  const definition = tool(
    name,
    ({ i }, context) =>
      new Promise((resolve, reject) => {
        const n = i as number;
        started.push(n);
        inFlight.add(n);
        most = Math.max(most, inFlight.size);
        context.signal.addEventListener('abort', () => {
          aborted.push(n);
          inFlight.delete(n);
          reject(new Error('aborted'));
        });
        release.set(n, (value) => {
          inFlight.delete(n);
          resolve(value);
        });
      }),
    { confirm: 'read' },
  );
  const waitFor = async (condition: () => boolean) => {
    for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(condition()).toBe(true);
  };
  return { definition, started, aborted, release, waitFor, most: () => most, inFlight };
}

describe('calls in a comprehension', () => {
  it('overlap up to maxConcurrentCalls, start in element order, and give their results in element order', async () => {
    const read = gatedRead();
    const { interpreter } = setup([read.definition], { limits: { maxConcurrentCalls: 3 } });
    const running = interpreter.run('LET xs = [CALL fetch { i: i } FOR i IN RANGE(6)]');
    await read.waitFor(() => read.started.length === 3);
    expect(read.started).toEqual([0, 1, 2]);
    // Answers come back in reverse: each frees a slot for the next element in line.
    read.release.get(2)!('c');
    await read.waitFor(() => read.started.length === 4);
    read.release.get(1)!('b');
    await read.waitFor(() => read.started.length === 5);
    read.release.get(0)!('a');
    await read.waitFor(() => read.started.length === 6);
    for (const n of [5, 4, 3]) read.release.get(n)!(String.fromCharCode(97 + n));
    const result = await running;
    expect(result.variables.xs).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(read.started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(read.most()).toBe(3);
  });

  it('keep what an element does after its call in element order, whatever order the tools answer in', async () => {
    const read = gatedRead();
    const { interpreter, printed } = setup([read.definition]);
    const running = interpreter.run('LET xs = [PRINT(CALL fetch { i: i }) FOR i IN RANGE(4)]');
    await read.waitFor(() => read.started.length === 4);
    for (const n of [3, 1, 2, 0]) read.release.get(n)!(`answer ${n}`);
    await running;
    expect(printed).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3']);
  });

  it('run writes one at a time, in element order, and ask approvals one at a time, in order', async () => {
    const log: string[] = [];
    let writing = 0;
    const write = tool(
      'save',
      async ({ i }) => {
        if (writing > 0) log.push('OVERLAP');
        writing++;
        log.push(`start ${String(i)}`);
        await new Promise((resolve) => setTimeout(resolve, 5 - (i as number)));
        log.push(`end ${String(i)}`);
        writing--;
        return i;
      },
      { confirm: 'write' },
    );
    let asking = 0;
    const approvals: string[] = [];
    const approve = async ({ args }: { args: Record<string, unknown> }) => {
      if (asking > 0) approvals.push('OVERLAP');
      asking++;
      approvals.push(String(args.i));
      await new Promise((resolve) => setTimeout(resolve, 1));
      asking--;
      return true;
    };
    const { interpreter } = setup([write], { approve });
    const result = await interpreter.run('LET xs = [CALL save { i: i } FOR i IN RANGE(4)]');
    expect(result.variables.xs).toEqual([0, 1, 2, 3]);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(approvals).toEqual(['0', '1', '2', '3']);
  });

  it('fail with the first failing element in element order; later calls are aborted, later elements not started', async () => {
    const read = gatedRead();
    const { interpreter } = setup([read.definition], { limits: { maxConcurrentCalls: 3 } });
    const running = failure(interpreter.run('LET xs = [CALL fetch { i: i } FOR i IN RANGE(20)]'));
    await read.waitFor(() => read.started.length === 3);
    // Element 2 fails first in time, element 1 after it: the error is element 1's.
    read.release.get(2)!(Promise.reject(new Error('two broke')));
    await read.waitFor(() => read.started.length === 4);
    read.release.get(1)!(Promise.reject(new Error('one broke')));
    read.release.get(0)!('fine');
    const error = await running;
    expect(error.message).toBe('tool `fetch` failed: one broke');
    expect(error).toMatchObject({ kind: 'ToolExecutionError', line: 1, column: 11 });
    expect(read.aborted).toEqual([3]);
    expect(read.started).toEqual([0, 1, 2, 3]);
  });

  it('give each element its call id and events', async () => {
    const events: NuwaEvent[] = [];
    const { interpreter } = setup([tool('echo', ({ i }) => i, { confirm: 'read' })], { onEvent: (event) => events.push(event) });
    await interpreter.run('LET xs = [[CALL echo { i: i * 10 + j } FOR j IN RANGE(2)] FOR i IN RANGE(2)]');
    const invoking = events.filter((event): event is Extract<NuwaEvent, { type: 'tool:invoking' }> => event.type === 'tool:invoking');
    expect(invoking.map((event) => `${event.callId} ${JSON.stringify(event.args)}`)).toEqual(['1:12/0/0 {"i":0}', '1:12/0/1 {"i":1}', '1:12/1/0 {"i":10}', '1:12/1/1 {"i":11}']);
  });

  it('a durable run that pauses in an element records the calls in flight, and resuming calls none of them again', async () => {
    const read = gatedRead();
    const saved: unknown[] = [];
    const save = tool('save', ({ v }) => (saved.push(v), v), { confirm: 'write' });
    const { interpreter } = setup([read.definition, save], { onApproval: 'pause' });
    const script = 'LET xs = [CALL save { v: CALL fetch { i: i } } FOR i IN RANGE(3)]\nPRINT(xs)';
    const starting = interpreter.start(script);
    await read.waitFor(() => read.started.length === 3);
    for (const n of [0, 1, 2]) read.release.get(n)!(n * 100);
    const outcome = await starting;
    expect(outcome.status).toBe('paused');
    if (outcome.status !== 'paused') return;
    expect(outcome.pending.map((p) => p.callId)).toEqual(['1:11/0']);
    expect(outcome.checkpoint.log.map((call) => call.callId).sort()).toEqual(['1:26/0', '1:26/1', '1:26/2']);
    const resumed = setup([read.definition, save], { approve: () => true });
    const done = await resumed.interpreter.resume(JSON.parse(JSON.stringify(outcome.checkpoint)), { decisions: { '1:11/0': true } });
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.result.output).toEqual(['[0,100,200]']);
    expect(read.started).toEqual([0, 1, 2]);
    expect(saved).toEqual([0, 100, 200]);
  });
});
