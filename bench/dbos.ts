// Nuwa runs on DBOS (docs/postgres.md), part of `npm run bench` (bench/run.mjs runs it with --rows):
//   npx tsx bench/dbos.ts [--quick] [--rows]
// Starts its own throwaway Postgres (test/support/postgres.ts) and real worker processes
// (bench/dbos-worker.ts: nuwaDbos with one instant tool, queues polled every 50 ms), and measures
// - throughput: runs of a script of ten fast calls (bench/dbos-tool.ts), all enqueued at once through
//   the client, with 1, 2 and 4 worker processes (each running at most 8 runs at once), from the
//   first enqueue to the last run's completion as DBOS recorded it;
// - the added latency per call: the same script run one at a time on one worker, its duration as the
//   interpreter measured it inside the worker, against the same script run in memory (Interpreter.run
//   with the same tool), the difference divided by the ten calls; and the whole round trip of one run
//   from enqueue to result, as a host sees it;
// - takeover: a run whose worker is SIGKILLed in a call, from the kill to the run completed on
//   another worker (heartbeat 250 ms, takeoverAfterMs 2,000).
// Without --rows, prints the figures; with it, one JSON line of rows for bench/results.json. Without
// Postgres server binaries it says so in that line ({ skipped }) instead of failing.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { Interpreter, ToolRegistry } from '../src/index.js';
import { nuwaDbos, type NuwaDbos } from '../src/dbos/index.js';
import { dbosUrl, killAll, sideEffects, startWorker, type Worker } from '../test/support/dbos.js';
import type { NuwaWorkerSettings } from '../test/dbos/fixtures/nuwa-worker.js';
import { createDatabase, MissingServerBinaries, startPostgres, type PostgresServer } from '../test/support/postgres.js';
import { tempDir, waitFor } from '../test/support/processes.js';
import { fastTool, TEN_CALLS } from './dbos-tool.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, rows: { type: 'boolean' } } });
const quick = values.quick === true;
const plan = quick ? { runs: 40, latencyRounds: 5, memoryRounds: 50 } : { runs: 200, latencyRounds: 15, memoryRounds: 200 };

interface Row {
  name: string;
  median: number;
  min: number;
  max: number;
  unit: string;
  against: string;
  [extra: string]: unknown;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

let server: PostgresServer;
try {
  server = await startPostgres();
} catch (error) {
  if (!(error instanceof MissingServerBinaries)) throw error;
  const skipped = `skipped: ${error.message}`;
  console.log(values.rows ? JSON.stringify({ skipped }) : skipped);
  process.exit(0);
}

const workers: Worker[] = [];
const clients: NuwaDbos[] = [];
const dir = tempDir('nuwa-dbos-bench-');
const rows: Row[] = [];

/** A system database of its own, migrated once before workers launch on it. */
async function systemDatabase(name: string): Promise<string> {
  const url = dbosUrl(await createDatabase(server.url, name));
  // DBOS.migrate announces itself with console.log and takes no logger: keep stdout for the figures.
  const log = console.log;
  console.log = () => undefined;
  await DBOS.migrate(url).finally(() => (console.log = log));
  return url;
}

async function startWorkers(url: string, application: string, count: number): Promise<Worker[]> {
  const started: Worker[] = [];
  // One after another: DBOS registers the application's version as each launches.
  for (let index = 0; index < count; index++) {
    const settings: NuwaWorkerSettings = {
      url,
      application,
      executorId: `${application}-${index}`,
      queue: { name: `${application}-runs`, concurrency: 64, workerConcurrency: 8 },
      heartbeatMs: 1_000,
      takeoverAfterMs: 30_000,
      decisionTimeoutMs: 60_000,
      file: '',
    };
    started.push(await startWorker(settings, 'bench/dbos-worker.ts'));
  }
  workers.push(...started);
  return started;
}

function helpers(url: string, application: string): NuwaDbos {
  const nuwa = nuwaDbos({ queue: { name: `${application}-runs` }, systemDatabaseUrl: url, application, pollingIntervalMs: 5 });
  clients.push(nuwa);
  return nuwa;
}

try {
  // --- throughput ------------------------------------------------------------------------------
  for (const count of [1, 2, 4]) {
    const application = `throughput${count}`;
    const url = await systemDatabase(application);
    const started = await startWorkers(url, application, count);
    const nuwa = helpers(url, application);
    const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: application, systemDatabaseIdleTransactionTimeoutMs: 0 });
    const begin = Date.now();
    await Promise.all(Array.from({ length: plan.runs }, (_, index) => nuwa.enqueue(TEN_CALLS, { runId: `${application}-${index}` })));
    // Counted by DBOS's own records, not by each run's client polling.
    let done: Awaited<ReturnType<DBOSClient['listWorkflows']>> = [];
    for (const until = Date.now() + 600_000; done.length < plan.runs && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await client.listWorkflows({ workflowName: 'nuwa.run', status: 'SUCCESS', loadInput: false, loadOutput: false });
    }
    if (done.length !== plan.runs) throw new Error(`${application}: ${done.length} of ${plan.runs} runs completed`);
    const seconds = (Math.max(...done.map((run) => run.completedAt ?? run.updatedAt ?? 0)) - begin) / 1000;
    const outcome = await nuwa.result(`${application}-0`);
    if (outcome.status !== 'completed' || outcome.result.output[0] !== '285') throw new Error(`${application}: a run did not complete as expected`);
    const byWorker = new Map<string, number>();
    for (const run of done) byWorker.set(run.executorId ?? '?', (byWorker.get(run.executorId ?? '?') ?? 0) + 1);
    const perSecond = plan.runs / seconds;
    rows.push({
      name: `dbos_runs_per_s_${count}_worker${count > 1 ? 's' : ''}`,
      median: perSecond,
      min: perSecond,
      max: perSecond,
      unit: ' runs/s',
      against: `${plan.runs} runs of 10 calls, queued at once`,
      seconds,
      runsByWorker: [...byWorker.values()],
    });
    await client.destroy();
    await killAll(started);
  }

  // --- latency ------------------------------------------------------------------------------------
  {
    const application = 'latency';
    const url = await systemDatabase(application);
    const [worker] = await startWorkers(url, application, 1);
    const nuwa = helpers(url, application);
    const inWorker: number[] = [];
    const roundTrip: number[] = [];
    for (let round = 0; round < plan.latencyRounds + 2; round++) {
      const started = performance.now();
      const runId = await nuwa.enqueue(TEN_CALLS, { runId: `latency-${round}-${randomUUID()}` });
      const outcome = await nuwa.result(runId);
      const ended = performance.now();
      if (outcome.status !== 'completed') throw new Error('latency: a run did not complete');
      if (round < 2) continue; // warm-up
      inWorker.push(outcome.result.stats.durationMs);
      roundTrip.push(ended - started);
    }
    // The same script in memory, with the same tool: warm, the median of many runs.
    const registry = new ToolRegistry();
    registry.register(fastTool);
    const interpreter = new Interpreter(registry);
    const inMemory: number[] = [];
    for (let round = 0; round < plan.memoryRounds + 20; round++) {
      const result = await interpreter.run(TEN_CALLS);
      if (round >= 20) inMemory.push(result.stats.durationMs);
    }
    const memory = summary(inMemory).median;
    const added = inWorker.map((ms) => (ms - memory) / 10);
    rows.push({ name: 'dbos_added_ms_per_call', ...summary(added), unit: ' ms', against: 'the same run in memory', inMemoryRunMs: memory, onDbosRunMs: summary(inWorker).median });
    rows.push({ name: 'dbos_run_10_calls', ...summary(roundTrip), unit: ' ms', against: 'enqueue to result, one worker' });
    await killAll([worker!]);
  }

  // --- takeover -----------------------------------------------------------------------------------
  {
    const url = await systemDatabase('takeover');
    const file = path.join(dir, 'takeover.log');
    const takeover = { heartbeatMs: 250, takeoverAfterMs: 2_000 };
    const settings = (executorId: string, hangAt?: string[]): NuwaWorkerSettings => ({
      url,
      application: 'takeover',
      executorId,
      queue: { name: 'takeover-runs', concurrency: 4 },
      ...takeover,
      decisionTimeoutMs: 60_000,
      file,
      ...(hangAt && { hangAt }),
    });
    const victim = await startWorker(settings('takeover-victim', ['read_item:3']), 'nuwa-worker.ts');
    workers.push(victim);
    const nuwa = helpers(url, 'takeover');
    const runId = await nuwa.enqueue('FOR id IN [1, 2, 3, 4, 5] DO\n  LET item = CALL read_item { id: id }\nEND', { runId: `takeover-${randomUUID()}` });
    await waitFor(() => sideEffects(file).some((effect) => effect.what === 'start' && effect.step === 'read_item:3'), 30_000);
    const survivor = await startWorker(settings('takeover-survivor'), 'nuwa-worker.ts');
    workers.push(survivor);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    const taken = await survivor.waitFor((event) => event.type === 'takeover', 30_000);
    const outcome = await nuwa.result(runId);
    if (outcome.status !== 'completed') throw new Error('takeover: the run did not complete');
    const completed = Date.now() - killedAt;
    rows.push({ name: 'dbos_takeover_to_completed', median: completed, min: completed, max: completed, unit: ' ms', against: 'SIGKILL, takeoverAfterMs 2,000', killToTakeoverMs: taken.at - killedAt });
  }
} finally {
  await Promise.all(clients.map((nuwa) => nuwa.close()));
  await killAll(workers);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (values.rows) console.log(JSON.stringify({ rows, postgres: server.version, quick }));
else for (const row of rows) console.log(`${row.name.padEnd(30)} ${row.median.toFixed(row.median >= 100 ? 0 : 2)}${row.unit}  (${row.against})`);
