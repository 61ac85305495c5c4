// Unit tests for src/tools/guard.ts: waiting for a tool's promise without trusting it to finish.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { Waits, type TimedTool, type Wait } from '../../../src/tools/guard.js';

function registered(timeoutMs?: number): TimedTool {
  return { name: 'slow', timeoutMs };
}

const never = () => new Promise(() => {});

/** Begins a wait on a real promise, the way invokeTool does (its `then` read once). */
function begin(waits: Waits, promise: Promise<unknown>, tool: TimedTool | undefined, controller?: AbortController): Wait {
  return waits.begin(promise, promise.then, tool, controller);
}

describe('Waits', () => {
  it('settles like the promise, with its value or its error', async () => {
    const waits = new Waits();
    const ok = begin(waits, Promise.resolve(7), registered());
    await expect(ok.promise).resolves.toBe(7);
    waits.end(ok);
    const failing = new Error('no');
    const bad = begin(waits, Promise.reject(failing), registered());
    await expect(bad.promise).rejects.toBe(failing);
    waits.end(bad);
  });

  it("rejects with LimitExceededError and aborts the tool's controller when timeoutMs passes", async () => {
    const waits = new Waits();
    const controller = new AbortController();
    const wait = begin(waits, never(), registered(20), controller);
    const error = (await wait.promise.catch((e: unknown) => e)) as NuwaError;
    waits.end(wait);
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('tool `slow` took longer than its timeoutMs (20 ms)');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(error);
  });

  it('endAll() ends every wait in flight, nested ones too', async () => {
    const waits = new Waits();
    const outer = begin(waits, never(), registered());
    const inner = begin(waits, never(), registered());
    const stop = new NuwaError('AbortedError', 'stopped');
    waits.endAll(stop);
    await expect(inner.promise).rejects.toBe(stop);
    await expect(outer.promise).rejects.toBe(stop);
  });

  it('stop() ends waits that were ended out of order (a call fired off without awaiting it)', async () => {
    const waits = new Waits();
    const background = begin(waits, Promise.resolve('quick'), registered());
    const outer = begin(waits, never(), registered());
    await background.promise;
    waits.end(background); // the wait begun first ends first: a stack would have dropped `outer`
    const stop = new NuwaError('LimitExceededError', 'timeout');
    waits.endAll(stop);
    await expect(outer.promise).rejects.toBe(stop);
  });

  it('a wait that ended is not ended again by stop()', async () => {
    const waits = new Waits();
    const done = begin(waits, Promise.resolve('ok'), registered());
    await expect(done.promise).resolves.toBe('ok');
    waits.end(done);
    const pending = begin(waits, never(), registered());
    const stop = new NuwaError('LimitExceededError', 'limit');
    waits.endAll(stop);
    await expect(pending.promise).rejects.toBe(stop);
  });

  it('after stop(), a new wait is rejected at once with the stop error', async () => {
    const waits = new Waits();
    const stop = new NuwaError('AbortedError', 'stopped');
    waits.endAll(stop);
    const wait = begin(waits, never(), registered());
    await expect(wait.promise).rejects.toBe(stop);
    waits.end(wait);
  });

  it('a `then` that throws rejects the wait instead of throwing, with or without a timeout', async () => {
    for (const tool of [registered(), registered(1000)]) {
      const waits = new Waits();
      const hostile = { then: () => { throw new Error('then threw'); } };
      const wait = waits.begin(hostile, hostile.then, tool, new AbortController());
      await expect(wait.promise).rejects.toThrow('then threw');
      waits.end(wait);
    }
    const stopped = new Waits();
    stopped.endAll(new NuwaError('AbortedError', 'stopped'));
    const hostile = { then: () => { throw new Error('then threw'); } };
    await expect(stopped.begin(hostile, hostile.then, undefined, undefined).promise).rejects.toThrow('stopped');
  });

  it('a promise that rejects after the wait gave up is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const waits = new Waits();
      let rejectLater!: (error: Error) => void;
      const late = new Promise((_resolve, reject) => (rejectLater = reject));
      const wait = begin(waits, late, registered(5), new AbortController());
      await wait.promise.catch(() => {});
      waits.end(wait);
      rejectLater(new Error('late'));
      let rejectAfterStop!: (error: Error) => void;
      waits.endAll(new NuwaError('AbortedError', 'stopped'));
      await begin(waits, new Promise((_resolve, reject) => (rejectAfterStop = reject)), registered()).promise.catch(() => {});
      rejectAfterStop(new Error('late too'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
