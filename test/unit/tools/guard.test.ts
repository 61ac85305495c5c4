// Unit tests for src/tools/guard.ts: waiting for a tool's promise without trusting it to finish.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { Waits } from '../../../src/tools/guard.js';
import { ToolRegistry, type RegisteredTool } from '../../../src/tools/registry.js';

function registered(timeoutMs?: number): RegisteredTool {
  const registry = new ToolRegistry();
  return registry.register({ name: 'slow', description: 'd', parameters: [], returns: 'any', execute: () => null, ...(timeoutMs ? { timeoutMs } : {}) });
}

const never = () => new Promise(() => {});

describe('Waits', () => {
  it('settles like the promise, with its value or its error', async () => {
    const waits = new Waits();
    await expect(waits.begin(Promise.resolve(7), registered(), undefined)).resolves.toBe(7);
    waits.end();
    const failing = new Error('no');
    await expect(waits.begin(Promise.reject(failing), registered(), undefined)).rejects.toBe(failing);
    waits.end();
  });

  it("rejects with LimitExceededError and aborts the tool's controller when timeoutMs passes", async () => {
    const waits = new Waits();
    const controller = new AbortController();
    const started = Date.now();
    const error = (await waits.begin(never(), registered(20), controller).catch((e: unknown) => e)) as NuwaError;
    waits.end();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('tool `slow` took longer than its timeoutMs (20 ms)');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(error);
  });

  it('stop() ends every wait in flight, nested ones too', async () => {
    const waits = new Waits();
    const outer = waits.begin(never(), registered(), undefined);
    const inner = waits.begin(never(), registered(), undefined);
    const stop = new NuwaError('AbortedError', 'stopped');
    waits.stop(stop);
    await expect(inner).rejects.toBe(stop);
    await expect(outer).rejects.toBe(stop);
  });

  it('a wait that ended is not ended again by stop()', async () => {
    const waits = new Waits();
    const done = waits.begin(Promise.resolve('ok'), registered(), undefined);
    await expect(done).resolves.toBe('ok');
    waits.end();
    const pending = waits.begin(never(), registered(), undefined);
    const stop = new NuwaError('LimitExceededError', 'limit');
    waits.stop(stop);
    await expect(pending).rejects.toBe(stop);
  });

  it('after stop(), a new wait is rejected at once with the stop error', async () => {
    const waits = new Waits();
    const stop = new NuwaError('AbortedError', 'stopped');
    waits.stop(stop);
    await expect(waits.begin(never(), registered(), undefined)).rejects.toBe(stop);
    waits.end();
  });

  it('a promise that rejects after the wait gave up is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const waits = new Waits();
      let rejectLater!: (error: Error) => void;
      const late = new Promise((_resolve, reject) => (rejectLater = reject));
      await waits.begin(late, registered(5), new AbortController()).catch(() => {});
      waits.end();
      rejectLater(new Error('late'));
      let rejectAfterStop!: (error: Error) => void;
      waits.stop(new NuwaError('AbortedError', 'stopped'));
      await waits.begin(new Promise((_resolve, reject) => (rejectAfterStop = reject)), registered(), undefined).catch(() => {});
      rejectAfterStop(new Error('late too'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
