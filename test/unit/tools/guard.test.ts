// Unit tests for src/tools/guard.ts: waiting for a tool's promise without trusting it to finish.
import { describe, expect, it } from 'vitest';
import { NuwaError } from '../../../src/errors.js';
import { guardToolPromise, type PendingCalls } from '../../../src/tools/guard.js';
import { ToolRegistry, type RegisteredTool } from '../../../src/tools/registry.js';

function registered(timeoutMs?: number): RegisteredTool {
  const registry = new ToolRegistry();
  return registry.register({ name: 'slow', description: 'd', parameters: [], returns: 'any', execute: () => null, ...(timeoutMs ? { timeoutMs } : {}) });
}

describe('guardToolPromise', () => {
  it('settles like the promise and leaves nothing pending', async () => {
    const pending: PendingCalls = new Set();
    const guarded = guardToolPromise(Promise.resolve(7), registered(), undefined, pending);
    expect(pending.size).toBe(1);
    await expect(guarded).resolves.toBe(7);
    expect(pending.size).toBe(0);
    const failing = new Error('no');
    await expect(guardToolPromise(Promise.reject(failing), registered(), undefined, pending)).rejects.toBe(failing);
    expect(pending.size).toBe(0);
  });

  it("rejects with LimitExceededError and aborts the tool's controller when timeoutMs passes", async () => {
    const pending: PendingCalls = new Set();
    const controller = new AbortController();
    const started = Date.now();
    const guarded = guardToolPromise(new Promise(() => {}), registered(20), controller, pending);
    const error = (await guarded.catch((e: unknown) => e)) as NuwaError;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(NuwaError);
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toBe('tool `slow` took longer than its timeoutMs (20 ms)');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(error);
    expect(pending.size).toBe(0);
  });

  it('can be ended from outside through the pending set (a run that stops)', async () => {
    const pending: PendingCalls = new Set();
    const guarded = guardToolPromise(new Promise(() => {}), registered(), undefined, pending);
    const stop = new NuwaError('AbortedError', 'stopped');
    for (const reject of pending) reject(stop);
    await expect(guarded).rejects.toBe(stop);
  });

  it('a promise that rejects after the guard gave up is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const pending: PendingCalls = new Set();
      let rejectLater!: (error: Error) => void;
      const late = new Promise((_resolve, reject) => (rejectLater = reject));
      const guarded = guardToolPromise(late, registered(5), new AbortController(), pending);
      await guarded.catch(() => {});
      rejectLater(new Error('late'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
