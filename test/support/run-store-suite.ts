// The behaviour every run store shares (DURABLE.md §3): MemoryRunStore, FileRunStore and
// PostgresRunStore each run this suite (test/unit/api/stores.test.ts, test/postgres/).
import { describe, expect, it } from 'vitest';
import { Interpreter, ToolRegistry, type RunEntry, type RunHeader, type RunStore } from '../../src/index.js';
import { failure, tool } from './harness.js';

const header = (runId: string, extra: Partial<RunHeader> = {}): RunHeader => ({
  type: 'run',
  version: 1,
  runId,
  createdAt: Date.now(),
  sourceHash: 'h',
  source: 'PRINT(1)',
  variables: {},
  ...extra,
});

/**
 * `makeStore` gives a store with no runs in it (a fresh folder, a fresh table prefix); `sameStore`
 * gives another handle on the same records, as another process would have.
 */
export function describeRunStore(name: string, makeStore: () => Promise<{ store: RunStore; sameStore: () => RunStore }>): void {
  describe(`${name}: the behaviour every run store shares`, () => {
    it('records a run and folds its entries back: log, NOW() values, pause, decisions, resumption, end', async () => {
      const { store, sameStore } = await makeStore();
      const writer = await store.create(header('r1', { fileName: 'plan.nuwa', meta: { who: 'me' } }));
      const entries: RunEntry[] = [
        { type: 'now', value: 5 },
        { type: 'started', callId: '1:1', toolName: 'a', args: { x: 1 }, at: 10 },
        { type: 'finished', callId: '1:1', toolName: 'a', args: { x: 1 }, outcome: { value: 2 }, startedAt: 10, endedAt: 11, printed: 1 },
        { type: 'paused', at: 12, pending: [{ callId: '2:1', kind: 'approval', toolName: 'b', confirm: 'write', category: 'custom', args: {}, line: 2, column: 1 }], printed: 1, stats: { steps: 2, toolCalls: 1, durationMs: 3 }, state: { k: 'v' } },
      ];
      for (const entry of entries) await writer.append(entry, true);
      await writer.close();

      const paused = await sameStore().load('r1');
      expect(paused).toMatchObject({ runId: 'r1', status: 'paused', unfinished: [], decisions: {}, meta: { who: 'me' } });
      expect(paused!.checkpoint).toMatchObject({ runId: 'r1', status: 'paused', fileName: 'plan.nuwa', now: [5], printed: 1, state: { k: 'v' } });
      expect(paused!.checkpoint.log).toEqual([{ callId: '1:1', toolName: 'a', args: { x: 1 }, outcome: { value: 2 }, startedAt: 10, endedAt: 11 }]);
      expect(await store.list({ status: 'paused' })).toEqual([expect.objectContaining({ runId: 'r1', status: 'paused', fileName: 'plan.nuwa', pending: paused!.checkpoint.pending })]);

      const again = await store.open('r1');
      await again.append({ type: 'decided', at: 13, decisions: { '2:1': true } }, true);
      await again.close();
      expect((await store.load('r1'))!.decisions).toEqual({ '2:1': true });

      const last = await store.open('r1');
      await last.append({ type: 'resumed', at: 14, decisions: { '2:1': true } }, true);
      await last.append({ type: 'completed', at: 15, result: { variables: { a: 1 }, output: ['1'] }, printed: 1, stats: { steps: 3, toolCalls: 2, durationMs: 4 } }, true);
      await last.close();
      const done = await store.load('r1');
      expect(done).toMatchObject({ status: 'completed', result: { variables: { a: 1 }, output: ['1'] }, decisions: {} });
      expect(await store.list({ status: 'paused' })).toEqual([]);
      expect((await store.list()).map((run) => run.runId)).toEqual(['r1']);
    });

    it('a call started and never finished, after the last pause, is unfinished', async () => {
      const { store } = await makeStore();
      const writer = await store.create(header('crashed'));
      await writer.append({ type: 'started', callId: '1:1', toolName: 'pay', args: { amount: 3 }, at: 1 }, true);
      // The process "dies": the writer is never closed; the store still answers for the run.
      expect(await store.load('crashed')).toMatchObject({ status: 'running', unfinished: [{ callId: '1:1', toolName: 'pay', args: { amount: 3 } }] });
      await writer.close();
    });

    it('refuses a second run with the same id, and a second driver of one run (ConflictError)', async () => {
      const { store, sameStore } = await makeStore();
      const writer = await store.create(header('dup'));
      expect((await failure(sameStore().open('dup'))).kind).toBe('ConflictError');
      expect((await failure(sameStore().delete('dup'))).kind).toBe('ConflictError');
      await writer.close();
      expect((await failure(store.create(header('dup')))).kind).toBe('ConflictError');
      const reopened = await sameStore().open('dup');
      await reopened.close();
      expect((await failure(store.open('not-there'))).kind).toBe('ConflictError');
      expect(await store.load('not-there')).toBeUndefined();
    });

    it('refuses run ids that could name another file or row', async () => {
      const { store } = await makeStore();
      for (const runId of ['', '../x', '.hidden', 'a/b', 'x'.repeat(129), 'semi;colon']) {
        expect((await failure(store.create(header(runId)))).kind, runId).toBe('TypeError');
      }
    });

    it('deletes a run', async () => {
      const { store } = await makeStore();
      await (await store.create(header('gone'))).close();
      await store.delete('gone');
      expect(await store.load('gone')).toBeUndefined();
      expect(await store.list()).toEqual([]);
    });

    it('drives a real run: start pauses, resume completes, every call recorded once', async () => {
      const { store, sameStore } = await makeStore();
      let paid = 0;
      const registry = new ToolRegistry();
      registry.register(tool('price', () => 7, { confirm: 'read' }));
      registry.register(tool('pay', () => ++paid, { confirm: 'write' }));
      const interpreter = new Interpreter(registry, { print: () => {}, onApproval: 'pause' });
      const script = 'LET p = CALL price {}\nLET r = CALL pay { amount: p }\nPRINT(r)';
      const first = await interpreter.start(script, { store, runId: 'real' });
      expect(first.status).toBe('paused');
      const other = sameStore();
      const loaded = await other.load('real');
      const done = await new Interpreter(registry, { print: () => {} }).resume(loaded!.checkpoint, { store: other, decisions: { '2:9': true } });
      expect(done.status).toBe('completed');
      expect(paid).toBe(1);
      const record = await store.load('real');
      expect(record).toMatchObject({ status: 'completed', result: { output: ['1'] } });
      expect(record!.checkpoint.log.map((call) => call.callId)).toEqual(['1:9', '2:9']);
    });
  });
}
