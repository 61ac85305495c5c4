// The heartbeat rows and the takeover rule (src/dbos/heartbeat.ts) on a real Postgres, without DBOS:
// beats are driven by hand and a silent worker is made by ageing its row, so nothing here waits on
// a clock. `recover` stands for DBOS's recoverPendingWorkflows and records whom it was called for.
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ExecutorHeartbeat, HEARTBEAT_TABLE, type HeartbeatOptions, type TakeoverEvent } from '../../src/dbos/heartbeat.js';
import { startWorker } from '../support/dbos.js';
import { createDatabase } from '../support/postgres.js';

let pool: pg.Pool;
let url: string;
beforeAll(async () => {
  url = await createDatabase(inject('postgres').url, 'heartbeat');
  pool = new pg.Pool({ connectionString: url, max: 8 });
});
afterAll(async () => {
  await pool?.end();
});

interface Probe {
  heartbeat: ExecutorHeartbeat;
  recovered: string[][];
  events: TakeoverEvent[];
  superseded: number;
}

function worker(executorId: string, overrides: Partial<HeartbeatOptions> = {}): Probe {
  const recovered: string[][] = [];
  const events: TakeoverEvent[] = [];
  const probe = { recovered, events, superseded: 0 } as Omit<Probe, 'heartbeat'> & { heartbeat?: ExecutorHeartbeat };
  const heartbeat = new ExecutorHeartbeat({
    pool,
    application: 'app',
    applicationVersion: 'v1',
    executorId,
    heartbeatMs: 1_000,
    takeoverAfterMs: 60_000,
    recover: async (ids) => {
      recovered.push(ids);
      // Slow enough that two workers beating at once overlap in their takeover transactions.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return ids.map((id) => `workflow-of-${id}`);
    },
    onSuperseded: () => probe.superseded++,
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return Object.assign(probe, { heartbeat });
}

/** Makes `executorId`'s last beat an hour old: to every other worker, it has stopped. */
async function silence(application: string, executorId: string): Promise<void> {
  await pool.query(`UPDATE ${HEARTBEAT_TABLE} SET beat_at = now() - interval '1 hour' WHERE application_name = $1 AND executor_id = $2`, [application, executorId]);
}

async function rows(application: string): Promise<string[]> {
  const result = await pool.query<{ executor_id: string }>(`SELECT executor_id FROM ${HEARTBEAT_TABLE} WHERE application_name = $1 ORDER BY executor_id`, [application]);
  return result.rows.map((row) => row.executor_id);
}

it('a silent worker is taken over by exactly one live worker, which deletes its row; the silent one, waking, is superseded', async () => {
  const silent = worker('silent');
  const live = [worker('live-1'), worker('live-2'), worker('live-3')];
  // Registered at once: the table is created by whichever comes first, the others wait for it.
  await Promise.all([silent, ...live].map((probe) => probe.heartbeat.register()));
  expect(await rows('app')).toEqual(['live-1', 'live-2', 'live-3', 'silent']);

  // Live workers that beat within the delay take nobody over.
  await Promise.all(live.map((probe) => probe.heartbeat.beat()));
  expect(live.flatMap((probe) => probe.recovered)).toEqual([]);

  await silence('app', 'silent');
  await Promise.all(live.map((probe) => probe.heartbeat.beat()));
  expect(live.flatMap((probe) => probe.recovered)).toEqual([['silent']]);
  const taker = live.find((probe) => probe.recovered.length > 0)!;
  expect(taker.events).toEqual([{ type: 'takeover', executorId: 'silent', workflowIds: ['workflow-of-silent'] }]);
  expect(await rows('app')).toEqual(['live-1', 'live-2', 'live-3']);

  // A later beat of the others finds nothing more to take over.
  await Promise.all(live.map((probe) => probe.heartbeat.beat()));
  expect(live.flatMap((probe) => probe.recovered)).toEqual([['silent']]);

  await silent.heartbeat.beat();
  expect(silent.superseded).toBe(1);
  expect(silent.events).toEqual([{ type: 'superseded', executorId: 'silent' }]);
  expect(silent.recovered).toEqual([]);
});

it('only workers of the same application and version take each other over', async () => {
  const oldVersion = worker('old-version', { application: 'versions', applicationVersion: 'v0' });
  const otherApp = worker('other-app', { application: 'versions-other' });
  const live = worker('current', { application: 'versions' });
  await Promise.all([oldVersion, otherApp, live].map((probe) => probe.heartbeat.register()));
  await silence('versions', 'old-version');
  await silence('versions-other', 'other-app');
  await live.heartbeat.beat();
  expect(live.recovered).toEqual([]);
  expect(await rows('versions')).toEqual(['current', 'old-version']);
  expect(await rows('versions-other')).toEqual(['other-app']);
});

it('a takeover whose recovery fails is undone, and done again by the next beat', async () => {
  let fail = true;
  const live = worker('retrying', {
    application: 'retries',
    recover: async (ids) => {
      if (fail) throw new Error('the database went away');
      return ids;
    },
  });
  const silent = worker('silent', { application: 'retries' });
  await Promise.all([live, silent].map((probe) => probe.heartbeat.register()));
  await silence('retries', 'silent');
  await live.heartbeat.beat();
  expect(live.events).toEqual([{ type: 'error', error: new Error('the database went away') }]);
  expect(await rows('retries')).toEqual(['retrying', 'silent']);
  fail = false;
  await live.heartbeat.beat();
  expect(live.events.at(-1)).toEqual({ type: 'takeover', executorId: 'silent', workflowIds: ['silent'] });
  expect(await rows('retries')).toEqual(['retrying']);
});

it('a worker restarted under its executor id takes its row back with a fresh beat', async () => {
  const first = worker('restarted', { application: 'restarts' });
  await first.heartbeat.register();
  await silence('restarts', 'restarted');
  const again = worker('restarted', { application: 'restarts' });
  await again.heartbeat.register();
  const peer = worker('peer', { application: 'restarts' });
  await peer.heartbeat.register();
  await peer.heartbeat.beat();
  expect(peer.recovered).toEqual([]);
  expect(await rows('restarts')).toEqual(['peer', 'restarted']);
});

it('a DBOS worker without an executor id of its own is refused at launch, with the reason', async () => {
  const start = startWorker({
    url: `${await createDatabase(inject('postgres').url, 'local_id')}`,
    application: 'local-id',
    executorId: 'local',
    queues: [],
    heartbeatMs: 500,
    takeoverAfterMs: 5_000,
  });
  await expect(start).rejects.toThrow(/takeover needs each worker process to have its own DBOS executor id/);
});
