// Unit tests for src/util/pending.ts: the interpreter's own light promise, and how it is followed.
import { describe, expect, it } from 'vitest';
import { follow, Pending, type Continuation } from '../../../src/util/pending.js';

/** A Continuation that records what it was told. */
function recorder(): Continuation & { log: string[] } {
  const log: string[] = [];
  return { log, resume: (value) => log.push(`resume ${String(value)}`), fail: (error) => log.push(`fail ${String(error)}`) };
}

describe('Pending', () => {
  it('tells its continuation the value, once, in the call that settles it', () => {
    const pending = new Pending();
    const next = recorder();
    pending.waitFor(next);
    expect(next.log).toEqual([]);
    pending.resolveWith(7);
    expect(next.log).toEqual(['resume 7']);
    pending.resolveWith(8);
    pending.rejectWith('late');
    expect(next.log).toEqual(['resume 7']);
  });

  it('tells its continuation the error', () => {
    const pending = new Pending();
    const next = recorder();
    pending.waitFor(next);
    pending.rejectWith('no');
    pending.resolveWith(1);
    expect(next.log).toEqual(['fail no']);
  });

  it('tells a continuation that comes after it settled in a microtask, never on the caller stack', async () => {
    const done = new Pending();
    done.resolveWith('v');
    const failed = new Pending();
    failed.rejectWith('e');
    const next = recorder();
    done.waitFor(next);
    failed.waitFor(next);
    expect(next.log).toEqual([]);
    await Promise.resolve();
    expect(next.log).toEqual(['resume v', 'fail e']);
  });

  it('follows a Pending or a promise it is resolved with', async () => {
    const outer = new Pending();
    const inner = new Pending();
    const next = recorder();
    outer.waitFor(next);
    outer.resolveWith(inner);
    expect(next.log).toEqual([]);
    inner.resolveWith('inner');
    expect(next.log).toEqual(['resume inner']);

    const fromPromise = new Pending();
    fromPromise.resolveWith(Promise.reject(new Error('rejected')));
    await expect(fromPromise).rejects.toThrow('rejected');
  });

  it('tells every continuation, in the order they came', () => {
    const pending = new Pending();
    const first = recorder();
    const second = recorder();
    pending.waitFor(first);
    pending.waitFor(second);
    pending.resolveWith(3);
    expect([...first.log, ...second.log]).toEqual(['resume 3', 'resume 3']);
  });

  it('is awaitable, and becomes a promise', async () => {
    const pending = new Pending();
    setTimeout(() => pending.resolveWith(42), 1);
    expect(await pending).toBe(42);
    const failing = new Pending();
    failing.rejectWith(new Error('no'));
    await expect(failing.asPromise()).rejects.toThrow('no');
  });
});

describe('follow', () => {
  it('follows a Pending and a promise alike', async () => {
    const next = recorder();
    const pending = new Pending();
    follow(pending, next);
    follow(Promise.resolve('p'), next);
    follow(Promise.reject('r'), next);
    pending.resolveWith('q');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(next.log).toEqual(['resume q', 'resume p', 'fail r']);
  });
});
