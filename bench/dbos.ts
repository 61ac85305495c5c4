// Figures for runs on DBOS (not part of `npm run bench` yet): `npx tsx bench/dbos.ts [--quick]`.
// Starts its own throwaway Postgres (test/support/postgres.ts) and real worker processes (the test
// fixture test/dbos/fixtures/worker.ts: queue polling every 50 ms), then measures
// - latency: a run of 10 instant tool calls, from enqueue (DBOSClient) to its result, one at a time;
// - throughput: runs of 5 instant calls, enqueued at once, with 1, 2 and 4 worker processes (each
//   running at most 8 runs at once), timed from the first enqueue to the last call;
// - takeover: from the SIGKILL of a worker in a run to the other worker's takeover, and to the end.
// Prints one JSON object. Machine-dependent; on a shared 2-core machine, workers compete for the CPU.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type { ToolRunInput } from '../test/dbos/fixtures/worker.js';
import { dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../test/support/dbos.js';
import { createDatabase, startPostgres } from '../test/support/postgres.js';
import { tempDir, waitFor } from '../test/support/processes.js';

type ToolRun = (input: ToolRunInput) => Promise<{ results: number[]; finishedBy: string }>;

const { values } = parseArgs({ options: { quick: { type: 'boolean' } } });
const quick = values.quick === true;
const server = await startPostgres();
const dir = tempDir('nuwa-dbos-bench-');
const workers: Worker[] = [];
const figures: Record<string, unknown> = { postgres: server.version, quick };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function fresh(name: string) {
  const url = dbosUrl(await createDatabase(server.url, name));
  // DBOS.migrate announces itself with console.log and takes no logger; keep stdout for the figures.
  const log = console.log;
  console.log = () => undefined;
  await DBOS.migrate(url).finally(() => (console.log = log));
  const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: name });
  return { url, client };
}

async function startWorkers(url: string, application: string, count: number, extra: { hangAtStep?: number } = {}, queue: { name: string; concurrency: number; workerConcurrency?: number } = { name: 'runs', concurrency: 64 }) {
  const started = await Promise.all(
    Array.from({ length: count }, (_, index) => startWorker({ url, application, executorId: `${application}-${index}`, queues: [queue], heartbeatMs: 250, takeoverAfterMs: 2_000, ...(index === 0 ? extra : {}) })),
  );
  workers.push(...started);
  return started;
}

try {
  {
    const { url, client } = await fresh('latency');
    const [worker] = await startWorkers(url, 'latency', 1);
    const file = path.join(dir, 'latency.log');
    const rounds = quick ? 5 : 15;
    const total: number[] = [];
    const inWorker: number[] = [];
    for (let round = 0; round < rounds + 2; round++) {
      const id = `latency-${round}-${randomUUID()}`;
      const started = Date.now();
      const handle = await client.enqueue<ToolRun>({ queueName: 'runs', workflowName: 'toolRun', workflowID: id }, { file, steps: 10, stepMs: 0 });
      await handle.getResult({ pollingIntervalMs: 5 });
      const ended = Date.now();
      if (round < 2) continue; // warm-up
      total.push(ended - started);
      const times = sideEffects(file).filter((effect) => effect.workflowId === id).map((effect) => effect.at);
      inWorker.push(Math.max(...times) - Math.min(...times));
    }
    figures.latency10Calls = { enqueueToResultMs: { median: median(total), min: Math.min(...total), max: Math.max(...total) }, firstToLastCallMs: { median: median(inWorker) }, rounds };
    await killAll([worker!]);
    await client.destroy();
  }

  const throughput: Record<string, unknown> = {};
  for (const count of [1, 2, 4]) {
    const application = `throughput${count}`;
    const { url, client } = await fresh(application);
    // Each worker runs at most 8 runs at once; the queue as a whole, 64.
    const started = await startWorkers(url, application, count, {}, { name: 'runs', concurrency: 64, workerConcurrency: 8 });
    const file = path.join(dir, `${application}.log`);
    const runs = quick ? 40 : 200;
    const begin = Date.now();
    const handles = await Promise.all(Array.from({ length: runs }, (_, index) => client.enqueue<ToolRun>({ queueName: 'runs', workflowName: 'toolRun', workflowID: `${application}-${index}` }, { file, steps: 5, stepMs: 0 })));
    // Timed by the workers' own records (the last call's line), not by the client's polling.
    await waitFor(() => sideEffects(file).filter((effect) => effect.what === 'done').length === runs * 5, 120_000);
    const seconds = (Math.max(...sideEffects(file).map((effect) => effect.at)) - begin) / 1000;
    const results = await Promise.all(handles.map((handle) => handle.getResult({ pollingIntervalMs: 20 })));
    const byWorker: Record<string, number> = {};
    for (const result of results) byWorker[result.finishedBy] = (byWorker[result.finishedBy] ?? 0) + 1;
    throughput[`${count} worker${count > 1 ? 's' : ''}`] = { runs, seconds: Number(seconds.toFixed(2)), runsPerSecond: Number((runs / seconds).toFixed(1)), callsPerSecond: Number(((runs * 5) / seconds).toFixed(0)), runsByWorker: Object.values(byWorker) };
    await killAll(started);
    await client.destroy();
  }
  figures.throughput5Calls = throughput;

  {
    const { url, client } = await fresh('takeover');
    // The victim alone takes the run and hangs in its third call; then the survivor starts.
    const [victim] = await startWorkers(url, 'takeover', 1, { hangAtStep: 3 });
    const file = path.join(dir, 'takeover.log');
    const id = `takeover-${randomUUID()}`;
    const handle = await client.enqueue<ToolRun>({ queueName: 'runs', workflowName: 'toolRun', workflowID: id }, { file, steps: 5, stepMs: 0 });
    await waitFor(() => sideEffects(file).some((effect) => effect.what === 'start' && effect.step === '3'));
    const survivor = await startWorker({ url, application: 'takeover', executorId: 'takeover-survivor', queues: [{ name: 'runs', concurrency: 64 }], heartbeatMs: 250, takeoverAfterMs: 2_000 });
    workers.push(survivor);
    victim!.child.kill('SIGKILL');
    const killedAt = Date.now();
    const takeover = await survivor.waitFor((event) => event.type === 'takeover');
    await handle.getResult({ pollingIntervalMs: 5 });
    figures.takeover = { heartbeatMs: 250, takeoverAfterMs: 2_000, killToTakeoverMs: takeover.at - killedAt, killToCompletedMs: Date.now() - killedAt };
    await client.destroy();
  }
} finally {
  await killAll(workers);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(figures, null, 2));
