// A worker of Nuwa runs on DBOS (docs/postgres.md): it runs the scripts put on the queue, with the
// example tools, as many worker processes as you start, on any machines that reach the database.
// A call that needs approval waits in the run until someone decides it (inbox.mjs); a worker that
// stops has its runs taken over by a live one after NUWA_TAKEOVER_AFTER_MS (default 10 s).
//   NUWA_DBOS_URL=postgres://user@host:5432/nuwa_dbos node examples/dbos/worker.mjs
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Interpreter, ToolRegistry } from 'nuwa-script';
import { nuwaDbos, workerExecutorId } from 'nuwa-script/dbos';
import tools from '../tools.mjs';

const systemDatabaseUrl = process.env.NUWA_DBOS_URL;
if (!systemDatabaseUrl) {
  console.error('set NUWA_DBOS_URL to the DBOS system database, e.g. postgres://postgres@127.0.0.1:5432/nuwa_dbos');
  process.exit(2);
}
const takeoverAfterMs = Number(process.env.NUWA_TAKEOVER_AFTER_MS ?? 10_000);

const registry = new ToolRegistry();
for (const tool of tools) registry.register(tool);

// Each worker process has its own DBOS executor id: host, pid and a random part.
const executorID = workerExecutorId('worker');
DBOS.setConfig({ name: 'nuwa-example', systemDatabaseUrl, executorID, logLevel: 'warn' });
nuwaDbos({
  // Each run gets an interpreter of its own, and a session of its own (the portfolio of one run
  // is not another's). The worker prints what the scripts print, marked with the run's id.
  createInterpreter: ({ runId }) =>
    new Interpreter(registry, {
      session: registry.createSession(runId),
      print: (line) => console.log(`${runId} | ${line}`),
      limits: { timeoutMs: 60_000 },
    }),
  // Four runs at once across all workers, two in each: another worker gets its share.
  queue: { name: 'nuwa-example', concurrency: 4, workerConcurrency: 2, pollingIntervalMs: 200 },
  decisionTimeoutMs: 60 * 60 * 1000,
  systemDatabaseUrl,
  takeover: {
    heartbeatMs: Math.min(1_000, takeoverAfterMs / 3),
    takeoverAfterMs,
    onEvent: (event) => {
      if (event.type === 'takeover') console.log(`took over ${event.workflowIds.length} run(s) of ${event.executorId}, which stopped`);
    },
  },
});
await DBOS.launch();
console.log(`worker ${executorID} ready`);

// Ctrl-C: stop taking runs and leave. The runs this worker had are taken over by another.
process.once('SIGINT', () => {
  void DBOS.shutdown().then(() => process.exit(0));
});
