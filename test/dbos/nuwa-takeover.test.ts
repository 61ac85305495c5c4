// Nuwa runs on two worker processes, one of them SIGKILLed in the middle of four runs: in reads, and
// in writes it had been approved to make. The other worker takes them over (heartbeats, takeover.ts)
// and replays them from DBOS's record: the run whose read was cut short completes, every completed
// call made exactly once (counted in the file the tools write), NOW() answering as it did; a write is
// not made again until a person, told that it may have happened, decides (yes: made; no: denied). The
// other worker's get_price checks its arguments differently (a tool upgrade): the run that recorded
// a call to it ends with a ReplayError, and nothing more is made.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
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
afterAll(async () => {
  await killAll(workers.splice(0));
  await Promise.all(helpers.map((nuwa) => nuwa.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function worker(application: string, executorId: string, file: string, extra: Partial<NuwaWorkerSettings> = {}): Promise<Worker> {
  const settings: NuwaWorkerSettings = { url, application, executorId, queue: { name: `${application}-runs`, concurrency: 4 }, ...TAKEOVER, decisionTimeoutMs: 30_000, file, ...extra };
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

// One victim takes four runs and is killed in the middle of each; one survivor, whose get_price
// tool now fills in another default currency (an upgrade), takes them all over.
const application = 'nuwa-kill';
let file: string;
let nuwa: NuwaDbos;
let survivor: Worker;
const runs = { reading: `reading-${randomUUID()}`, writing: `writing-${randomUUID()}`, denied: `denied-${randomUUID()}`, diverging: `diverging-${randomUUID()}` };

beforeAll(async () => {
  file = path.join(dir, 'kill.log');
  nuwa = client(application);
  // The read run: NOW() goes into a call's arguments before the read that is cut short, so a replay
  // that did not answer NOW() as the first execution did would diverge from the record.
  await nuwa.enqueue(
    'LET first = CALL read_item { id: 10 }\nLET stamp = NOW()\nLET logged = CALL read_item { id: stamp }\nLET item = CALL read_item { id: 1 }\nLET more = [CALL read_item { id: id } FOR id IN [11, 12, 13]]\nPRINT(FORMAT("{n}: {c} more", { n: item.name, c: LEN(more) }))',
    { runId: runs.reading },
  );
  await nuwa.enqueue('LET item = CALL read_item { id: 2 }\nLET saved = CALL write_item { id: 2, value: item.name }\nPRINT(saved.written)', { runId: runs.writing });
  await nuwa.enqueue('LET saved = CALL write_item { id: 7, value: "once" }', { runId: runs.denied });
  await nuwa.enqueue('LET price = CALL get_price { symbol: "D" }\nLET item = CALL read_item { id: 3 }\nLET more = CALL read_item { id: 4 }', { runId: runs.diverging });

  // The victim alone takes the four runs; it hangs in the read of two, and in the write of the
  // others once it is approved.
  const victim = await worker(application, 'victim', file, { hangAt: ['read_item:1', 'write_item:2', 'write_item:7', 'read_item:3'], toolVersion: 1 });
  for (const [runId, callId] of [[runs.writing, '2:13'], [runs.denied, '1:13']] as const) {
    await statusWhen(nuwa, runId, (status) => status?.status === 'paused');
    await nuwa.decide(runId, callId, true);
  }
  const hung = () => [effects(file, runs.reading, 'start'), effects(file, runs.writing, 'start'), effects(file, runs.denied, 'start'), effects(file, runs.diverging, 'start')].flat();
  expect(await waitFor(() => ['read_item:1 victim', 'write_item:2 victim', 'write_item:7 victim', 'read_item:3 victim'].every((call) => hung().includes(call)))).toBe(true);

  expect(await nuwa.status(runs.reading)).toEqual({ status: 'running', runId: runs.reading, worker: 'victim' });

  survivor = await worker(application, 'survivor', file, { toolVersion: 2 });
  victim.child.kill('SIGKILL');
  const takeover = await survivor.waitFor((event) => event.type === 'takeover' && event.executorId === 'victim');
  expect([...(takeover.workflowIds ?? [])].sort()).toEqual(Object.values(runs).sort());
});

it('the run cut short in a read completes on the other worker, the read made again, NOW() answered as before', async () => {
  const read = await nuwa.result(runs.reading);
  expect(read).toMatchObject({ status: 'completed', worker: 'survivor', result: { output: ['item 1: 3 more'] } });
  expect(effects(file, runs.reading, 'start').filter((call) => call.startsWith('read_item:1 '))).toEqual(['read_item:1 victim', 'read_item:1 survivor']);
  const done = effects(file, runs.reading, 'done').map((call) => call.replace(/^read_item:\d{6,} /, 'read_item:<stamp> '));
  expect(done).toEqual(['read_item:10 victim', 'read_item:<stamp> victim', 'read_item:1 survivor', 'read_item:11 survivor', 'read_item:12 survivor', 'read_item:13 survivor']);
});

it('the write in progress is not made again until a person, told it may have happened, decides', async () => {
  const uncertain = await statusWhen(nuwa, runs.writing, (status) => status?.status === 'paused' && status.worker === 'survivor');
  expect(uncertain).toMatchObject({ pending: [{ callId: '2:13', kind: 'approval', toolName: 'write_item', args: { id: 2, value: 'item 2' }, uncertain: true, line: 2, column: 13 }] });
  expect(effects(file, runs.writing, 'start')).toEqual(['read_item:2 victim', 'write_item:2 victim']);
  await nuwa.decide(runs.writing, '2:13', true);
  expect(await nuwa.result(runs.writing)).toMatchObject({ status: 'completed', worker: 'survivor', result: { output: ['item 2'] } });
  expect(effects(file, runs.writing, 'done')).toEqual(['read_item:2 victim', 'write_item:2 survivor']);
});

it('a write in progress that the person says not to make again ends the run with ToolDeniedError', async () => {
  await statusWhen(nuwa, runs.denied, (status) => status?.status === 'paused' && status.worker === 'survivor');
  await nuwa.decide(runs.denied, '1:13', false);
  const outcome = await nuwa.result(runs.denied);
  expect(outcome).toMatchObject({ status: 'failed', error: { kind: 'ToolDeniedError', line: 1, column: 13 } });
  if (outcome.status === 'failed') {
    expect(outcome.error.message).toBe('the call to `write_item` (a write action) was denied: it was not repeated: the run was recovered after a crash during it, and the host decided not to call it again');
  }
  expect(effects(file, runs.denied, 'start')).toEqual(['write_item:7 victim']);
  expect(effects(file, runs.denied, 'done')).toEqual([]);
});

it('a run whose recorded call a tool now checks differently ends with a ReplayError there, nothing more made', async () => {
  const outcome = await nuwa.result(runs.diverging);
  expect(outcome.status).toBe('failed');
  if (outcome.status !== 'failed') return;
  expect(outcome.worker).toBe('survivor');
  expect(outcome.error).toMatchObject({ kind: 'ReplayError', line: 1, column: 13 });
  expect(outcome.error.message).toBe(
    'the run no longer matches its record at call 1:13 (line 1, column 13): it was CALL get_price {"symbol":"D","currency":"USD"}, and is now CALL get_price {"symbol":"D","currency":"EUR"}; the script, a tool or the tools loaded changed since the run was recorded',
  );
  expect(effects(file, runs.diverging, 'start')).toEqual(['get_price:D victim', 'read_item:3 victim']);
});

it('every completed call of the four runs was made exactly once', async () => {
  await Promise.all(Object.values(runs).map((runId) => nuwa.result(runId)));
  const counts = completedCalls(file);
  // 6 reads of the read run, a read and a write of the write run, get_price of the diverging run.
  expect(counts.size).toBe(9);
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
});
