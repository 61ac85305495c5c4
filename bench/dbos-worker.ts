// A worker process for bench/dbos.ts: nuwaDbos with one fast tool and nothing else to do, so that
// what is measured is the queue, DBOS's record of each call, and Nuwa around it. Settings come as
// JSON in NUWA_DBOS_WORKER (the shape of test/dbos/fixtures/nuwa-worker.ts's); it says `ready` on stdout.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Interpreter, ToolRegistry } from '../src/index.js';
import { nuwaDbos } from '../src/dbos/index.js';
import type { NuwaWorkerSettings } from '../test/dbos/fixtures/nuwa-worker.js';
import { fastTool } from './dbos-tool.js';

const settings = JSON.parse(process.env.NUWA_DBOS_WORKER ?? '{}') as NuwaWorkerSettings;
const registry = new ToolRegistry();
registry.register(fastTool);

DBOS.setConfig({ name: settings.application, systemDatabaseUrl: settings.url, executorID: settings.executorId, logLevel: 'error' });
nuwaDbos({
  createInterpreter: ({ runId }) => new Interpreter(registry, { session: registry.createSession(runId) }),
  queue: { ...settings.queue, pollingIntervalMs: 50 },
  decisionTimeoutMs: settings.decisionTimeoutMs,
  systemDatabaseUrl: settings.url,
  application: settings.application,
  takeover: { heartbeatMs: settings.heartbeatMs, takeoverAfterMs: settings.takeoverAfterMs },
});
await DBOS.launch();
process.stdout.write(`${JSON.stringify({ type: 'ready', executorId: DBOS.executorID, at: Date.now() })}\n`);
process.once('SIGTERM', () => {
  void DBOS.shutdown().then(() => process.exit(0));
});
