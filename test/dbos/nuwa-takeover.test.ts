// Nuwa runs on two worker processes, one of them SIGKILLed in the middle of two runs: in a read, and
// in a write it had been approved to make. The other worker takes both over (heartbeats, takeover.ts)
// and replays them from DBOS's record: the run whose read was cut short completes, every completed
// call made exactly once (counted in the file the tools write), NOW() answering as it did; the write
// is not made again until a person, told that it may have happened, decides. Then a worker whose tool
// now checks its arguments differently takes over a run: a ReplayError, and nothing more is made.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { nuwaDbos, type DbosRunStatus, type NuwaDbos } from '../../src/dbos/index.js';
import { completedCalls, dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../support/dbos.js';
import type { NuwaWorkerSettings } from './fixtures/nuwa-worker.js';
import { createDatabase } from '../support/postgres.js';
import { tempDir, waitFor } from '../support/processes.js';

// As in takeover.test.ts: a live worker must never look stopped on a busy machine.
const TAKEOVER = { heartbeatMs: 250, takeoverAfterMs: 3_000 };
let url: string;
let dir: string;
const workers: Worker[] = [];
const helpers: NuwaDbos[] = [];

beforeAll(async () => {
  url = dbosUrl(await createDatabase(inject('postgres').url, 'dbos_nuwa_takeover'));
  await DBOS.migrate(url);
  dir = tempDir('nuwa-dbos-takeover-');
});
afterEach(async () => {
  await killAll(workers.splice(0));
});
afterAll(async () => {
  await Promise.all(helpers.map((nuwa) => nuwa.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function worker(application: string, executorId: string, file: string, extra: Partial<NuwaWorkerSettings> = {}): Promise<Worker> {
  const settings: NuwaWorkerSettings = { url, application, executorId, queue: { name: `${application}-runs`, concurrency: 4, workerConcurrency: 2 }, ...TAKEOVER, decisionTimeoutMs: 30_000, file, ...extra };
  return startWorker(settings, 'nuwa-worker.ts').then((started) => {
    workers.push(started);
    return started;
  });
}

function client(application: string): NuwaDbos {
  const nuwa = nuwaDbos({ queue: { name: `${application}-runs` }, systemDatabaseUrl: url, application, pollingIntervalMs: 50 });
  helpers.push(nuwa);
  return nuwa;
}

async function statusWhen(nuwa: NuwaDbos, runId: string, ready: (status: DbosRunStatus | undefined) => boolean): Promise<DbosRunStatus> {
  let last: DbosRunStatus | undefined;
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (ready((last = await nuwa.status(runId)))) return last!;
  }
  throw new Error(`run ${runId}: status still ${JSON.stringify(last)}`);
}

const effects = (file: string, runId: string, what: string) => sideEffects(file).filter((effect) => effect.workflowId === runId && effect.what === what).map((effect) => `${effect.step} ${effect.executorId}`);

it('a SIGKILLed worker’s runs finish on the other: completed calls once, the write in progress only after a decision', async () => {
  const application = 'nuwa-kill';
  const file = path.join(dir, 'kill.log');
  const nuwa = client(application);
  // The read run: NOW() goes into a call's arguments before the read that is cut short, so a replay
  // that did not answer NOW() as the first execution did would diverge from the record.
  const reading = await nuwa.enqueue(
    'LET first = CALL get_price { symbol: "R1" }\nLET stamp = NOW()\nLET logged = CALL get_price { symbol: STR(stamp) }\nLET item = CALL read_item { id: 1 }\nLET more = [CALL get_price { symbol: s } FOR s IN ["R2", "R3", "R4"]]\nPRINT(FORMAT("{n}: {c} more", { n: item.name, c: LEN(more) }))',
    { runId: `reading-${randomUUID()}` },
  );
  const writing = await nuwa.enqueue('LET item = CALL read_item { id: 2 }\nLET saved = CALL write_item { id: 2, value: item.name }\nPRINT(saved.written)', { runId: `writing-${randomUUID()}` });

  // The victim alone takes both runs; it hangs in the read of one, and in the write of the other
  // once it is approved.
  const victim = await worker(application, 'victim', file, { hangAt: ['read_item:1', 'write_item:2'] });
  await statusWhen(nuwa, writing, (status) => status?.status === 'paused');
  await nuwa.decide(writing, '2:13', true);
  expect(await waitFor(() => effects(file, reading, 'start').includes('read_item:1 victim') && effects(file, writing, 'start').includes('write_item:2 victim'))).toBe(true);
  const [first, logged] = effects(file, reading, 'done');
  expect([first, logged?.replace(/^get_price:\d+ /, 'get_price:<stamp> ')]).toEqual(['get_price:R1 victim', 'get_price:<stamp> victim']);

  const survivor = await worker(application, 'survivor', file);
  victim.child.kill('SIGKILL');
  const takeover = await survivor.waitFor((event) => event.type === 'takeover' && event.executorId === 'victim');
  expect([...(takeover.workflowIds ?? [])].sort()).toEqual([reading, writing].sort());

  // The read run completes on the survivor; the read cut short was made again (safe to repeat).
  const read = await nuwa.result(reading);
  expect(read).toMatchObject({ status: 'completed', worker: 'survivor', result: { output: ['item 1: 3 more'] } });
  expect(effects(file, reading, 'start').filter((call) => call.startsWith('read_item:1'))).toEqual(['read_item:1 victim', 'read_item:1 survivor']);

  // The write may have happened: the run waits for a person to say whether to make it again.
  const uncertain = await statusWhen(nuwa, writing, (status) => status?.status === 'paused');
  expect(uncertain).toMatchObject({ worker: 'survivor', pending: [{ callId: '2:13', kind: 'approval', toolName: 'write_item', args: { id: 2, value: 'item 2' }, uncertain: true, line: 2, column: 13 }] });
  expect(effects(file, writing, 'start').filter((call) => call.startsWith('write_item'))).toEqual(['write_item:2 victim']);
  await nuwa.decide(writing, '2:13', true);
  expect(await nuwa.result(writing)).toMatchObject({ status: 'completed', worker: 'survivor', result: { output: ['item 2'] } });

  // Every completed call exactly once: 6 of the read run, 2 of the write run.
  const counts = completedCalls(file);
  expect(counts.size).toBe(8);
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
  expect(effects(file, writing, 'done')).toEqual(['read_item:2 victim', 'write_item:2 survivor']);
});

it('a write in progress that the person says not to make again ends the run with ToolDeniedError', async () => {
  const application = 'nuwa-kill-deny';
  const file = path.join(dir, 'deny.log');
  const nuwa = client(application);
  const runId = await nuwa.enqueue('LET saved = CALL write_item { id: 7, value: "once" }', { runId: `deny-${randomUUID()}` });
  const victim = await worker(application, 'deny-victim', file, { hangAt: ['write_item:7'] });
  await statusWhen(nuwa, runId, (status) => status?.status === 'paused');
  await nuwa.decide(runId, '1:13', true);
  expect(await waitFor(() => effects(file, runId, 'start').length === 1)).toBe(true);
  const survivor = await worker(application, 'deny-survivor', file);
  victim.child.kill('SIGKILL');
  await statusWhen(nuwa, runId, (status) => status?.status === 'paused' && status.worker === survivor.executorId);
  await nuwa.decide(runId, '1:13', false);
  const outcome = await nuwa.result(runId);
  expect(outcome).toMatchObject({ status: 'failed', error: { kind: 'ToolDeniedError', line: 1, column: 13 } });
  if (outcome.status === 'failed') expect(outcome.error.message).toMatch(/was not repeated \(the run was recovered after a crash during it\)|decided not to call it again/);
  expect(effects(file, runId, 'start')).toEqual(['write_item:7 deny-victim']);
  expect(effects(file, runId, 'done')).toEqual([]);
});

it('a worker whose tool checks its arguments differently takes a run over: ReplayError at that call, nothing more made', async () => {
  const application = 'nuwa-diverge';
  const file = path.join(dir, 'diverge.log');
  const nuwa = client(application);
  const runId = await nuwa.enqueue('LET price = CALL get_price { symbol: "D" }\nLET item = CALL read_item { id: 3 }\nLET more = CALL read_item { id: 4 }', { runId: `diverge-${randomUUID()}` });
  // Version 1 fills in currency USD; the upgraded worker's version 2, EUR.
  const victim = await worker(application, 'old-tools', file, { hangAt: ['read_item:3'], toolVersion: 1 });
  expect(await waitFor(() => effects(file, runId, 'start').includes('read_item:3 old-tools'))).toBe(true);
  await worker(application, 'new-tools', file, { toolVersion: 2 });
  victim.child.kill('SIGKILL');
  const outcome = await nuwa.result(runId);
  expect(outcome.status).toBe('failed');
  if (outcome.status !== 'failed') return;
  expect(outcome.worker).toBe('new-tools');
  expect(outcome.error).toMatchObject({ kind: 'ReplayError', line: 1, column: 13 });
  expect(outcome.error.message).toBe(
    'the run no longer matches its record at call 1:13 (line 1, column 13): it was CALL get_price {"symbol":"D","currency":"USD"}, and is now CALL get_price {"symbol":"D","currency":"EUR"}; the script, a tool or the tools loaded changed since the run was recorded',
  );
  expect(effects(file, runId, 'done')).toEqual(['get_price:D old-tools']);
  expect(effects(file, runId, 'start')).toEqual(['get_price:D old-tools', 'read_item:3 old-tools']);
});
