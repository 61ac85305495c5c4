// Several worker processes share a queue; one is SIGKILLed in the middle of its runs (in a call, after
// two calls completed), and the other takes its runs over through the heartbeat rows and DBOS's
// recoverPendingWorkflows: every run completes, every completed call made exactly once. Then the
// other way of stopping: a worker frozen (SIGSTOP) past the takeover delay is taken over, and when it
// wakes it finds itself superseded and exits instead of making the calls again.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { completedCalls, dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../support/dbos.js';
import { createDatabase } from '../support/postgres.js';
import { tempDir, waitFor } from '../support/processes.js';
import type { ToolRunInput } from './fixtures/worker.js';

// A live worker must never look stopped: on a machine shared by many processes an event loop can
// stall for a second or more, so the delay stays well above that.
const TAKEOVER = { heartbeatMs: 250, takeoverAfterMs: 3_000 };
let url: string;
let dir: string;
const workers: Worker[] = [];
const clients: DBOSClient[] = [];

beforeAll(async () => {
  url = dbosUrl(await createDatabase(inject('postgres').url, 'dbos_takeover'));
  await DBOS.migrate(url);
  dir = tempDir('nuwa-dbos-');
});
afterEach(async () => {
  await killAll(workers.splice(0));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.destroy()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function connect(application: string): Promise<DBOSClient> {
  const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: application });
  clients.push(client);
  return client;
}

type ToolRun = (input: ToolRunInput) => Promise<{ results: number[]; finishedBy: string }>;

it('a SIGKILLed worker’s runs complete on the other worker, every completed call made exactly once', async () => {
  const application = 'nuwa-kill-test';
  const queues = [{ name: 'runs', concurrency: 4, workerConcurrency: 2 }];
  const client = await connect(application);
  const file = path.join(dir, 'kill.log');
  const ids = [1, 2, 3, 4].map((n) => `kill-${n}-${randomUUID()}`);
  const handles = await Promise.all(ids.map((workflowID) => client.enqueue<ToolRun>({ queueName: 'runs', workflowName: 'toolRun', workflowID }, { file, steps: 5, stepMs: 50 })));

  // The victim starts first and takes two runs (its limit); it hangs in the third call of each.
  const victim = await startWorker({ url, application, executorId: 'victim', queues, ...TAKEOVER, hangAtStep: 3 });
  workers.push(victim);
  const hungInVictim = () => new Set(sideEffects(file).filter((effect) => effect.what === 'start' && effect.step === '3' && effect.executorId === 'victim').map((effect) => effect.workflowId));
  expect(await waitFor(() => hungInVictim().size === 2)).toBe(true);
  const taken = [...hungInVictim()].sort();
  // It had completed the first two calls of each.
  for (const id of taken) {
    expect(sideEffects(file).filter((effect) => effect.workflowId === id && effect.what === 'done').map((effect) => effect.step)).toEqual(['1', '2']);
  }
  // The survivor starts and runs the other two to the end.
  const survivor = await startWorker({ url, application, executorId: 'survivor', queues, ...TAKEOVER });
  workers.push(survivor);
  const others = ids.filter((id) => !taken.includes(id));
  expect(await Promise.all(others.map((id) => client.retrieveWorkflow<{ finishedBy: string }>(id).getResult({ pollingIntervalMs: 50 })))).toMatchObject([{ finishedBy: 'survivor' }, { finishedBy: 'survivor' }]);

  victim.child.kill('SIGKILL');
  const takeover = await survivor.waitFor((event) => event.type === 'takeover' && event.executorId === 'victim');
  expect([...(takeover.workflowIds ?? [])].sort()).toEqual(taken);
  const results = await Promise.all(handles.map((handle) => handle.getResult({ pollingIntervalMs: 50 })));
  expect(results.map((result) => result.results)).toEqual(ids.map(() => [1, 4, 9, 16, 25]));
  expect(results.every((result) => result.finishedBy === 'survivor')).toBe(true);

  // Every completed call exactly once: 4 runs of 5 calls.
  const counts = completedCalls(file);
  expect(counts.size).toBe(20);
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
  // The call in flight when the victim died was started again by the survivor (it had not completed:
  // at-least-once for such a call is what the durable core's `uncertain` pause is for).
  for (const id of taken) {
    const starts = sideEffects(file).filter((effect) => effect.workflowId === id && effect.step === '3' && effect.what === 'start');
    expect(starts.map((effect) => effect.executorId)).toEqual(['victim', 'survivor']);
  }
});

it('a worker taken over while frozen finds itself superseded when it wakes, and exits without going on', async () => {
  const application = 'nuwa-freeze-test';
  // Queue names are unique across the applications of a system database.
  const queues = [{ name: 'freeze-runs', concurrency: 2 }];
  // Whichever worker takes the run hangs in its second call (first attempt only).
  const pair = await Promise.all(
    ['frozen-or-not-a', 'frozen-or-not-b'].map((executorId) => startWorker({ url, application, executorId, queues, ...TAKEOVER, hangAtStep: 2 })),
  );
  workers.push(...pair);
  const client = await connect(application);
  const file = path.join(dir, 'freeze.log');
  const id = `freeze-${randomUUID()}`;
  const handle = await client.enqueue<ToolRun>({ queueName: 'freeze-runs', workflowName: 'toolRun', workflowID: id }, { file, steps: 3, stepMs: 0 });
  expect(await waitFor(() => sideEffects(file).some((effect) => effect.what === 'start' && effect.step === '2'))).toBe(true);
  const holder = sideEffects(file).find((effect) => effect.step === '2')!.executorId;
  const frozen = pair.find((worker) => worker.executorId === holder)!;
  const other = pair.find((worker) => worker !== frozen)!;

  frozen.child.kill('SIGSTOP');
  await other.waitFor((event) => event.type === 'takeover' && event.executorId === holder);
  expect(await handle.getResult({ pollingIntervalMs: 50 })).toEqual({ results: [1, 4, 9], finishedBy: other.executorId });
  frozen.child.kill('SIGCONT');
  expect(await frozen.exited).toEqual({ status: 75, signal: null });
  expect(frozen.events.some((event) => event.type === 'superseded')).toBe(true);
  expect([...completedCalls(file).values()]).toEqual([1, 1, 1]);
});
