// Takeover for DBOS workers: a worker process calls `enableTakeover` before `DBOS.launch()`, and from
// launch to shutdown it keeps a heartbeat and takes over the pending workflows of workers that
// stopped (heartbeat.ts says how). DBOS itself only recovers an executor's workflows when that same
// executor starts again; with this, any live worker does it after `takeoverAfterMs`, so a killed
// worker's runs finish elsewhere without an outside orchestrator.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
// recoverPendingWorkflows lives on DBOS's executor object, which DBOS 5 exports only through its
// `internal/*` entry (its admin server, which offered it over HTTP, is gone). It re-enqueues the
// executor's PENDING workflows of our application and version on their own queues, in one UPDATE.
import { getExecutor } from '@dbos-inc/dbos-sdk/internal/dbos';
import pg from 'pg';
import { NuwaError } from '../errors.js';
import { ExecutorHeartbeat, type TakeoverEvent } from './heartbeat.js';

export type { TakeoverEvent } from './heartbeat.js';

export interface TakeoverOptions {
  /** The DBOS system database, as given to DBOS.setConfig; the heartbeat rows live there. */
  systemDatabaseUrl: string;
  /** How often a worker writes its heartbeat. Default 5,000 ms. */
  heartbeatMs?: number;
  /**
   * How long a worker's heartbeat may be silent before a live worker takes its workflows over.
   * Default 30,000 ms; at least twice `heartbeatMs`. Shorter means a faster takeover after a crash,
   * but a worker whose event loop stalls that long (a long synchronous task) is taken over while
   * alive, and then stops itself.
   */
  takeoverAfterMs?: number;
  /**
   * Called when this worker finds it was taken over while silent: other workers now run its
   * workflows, so its own copies must not go on. Default: the process exits with status 75
   * (EX_TEMPFAIL), for its supervisor to start it again.
   */
  onSuperseded?: () => void;
  /** Told of each takeover, of being superseded, and of failed beats. */
  onEvent?: (event: TakeoverEvent) => void;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;
export const DEFAULT_TAKEOVER_AFTER_MS = 30_000;

/** An executor id for this process: host, pid and a random part, distinct across restarts. */
export function workerExecutorId(prefix = hostname()): string {
  return `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Makes this process take part in takeover from the next `DBOS.launch()` to `DBOS.shutdown()`.
 * Call it once, before launch, with an executor id of this process's own in DBOS.setConfig.
 */
export function enableTakeover(options: TakeoverOptions): void {
  const heartbeatMs = positive(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, 'heartbeatMs');
  const takeoverAfterMs = positive(options.takeoverAfterMs ?? DEFAULT_TAKEOVER_AFTER_MS, 'takeoverAfterMs');
  if (takeoverAfterMs < 2 * heartbeatMs) {
    throw new NuwaError('TypeError', `takeoverAfterMs (${takeoverAfterMs}) must be at least twice heartbeatMs (${heartbeatMs}), or live workers would be taken over between two beats`);
  }
  if (typeof options.systemDatabaseUrl !== 'string' || options.systemDatabaseUrl === '') {
    throw new NuwaError('TypeError', 'enableTakeover needs systemDatabaseUrl, the DBOS system database');
  }
  let pool: pg.Pool | undefined;
  let heartbeat: ExecutorHeartbeat | undefined;
  DBOS.registerLifecycleCallback({
    async initialize() {
      const executor = getExecutor();
      const executorId = DBOS.executorID;
      // DBOS's default id, `local`, is every worker's: their heartbeats would be one row.
      if (executorId === 'local') {
        throw new NuwaError('TypeError', 'takeover needs each worker process to have its own DBOS executor id: DBOS.setConfig({ ..., executorID: workerExecutorId() }) or the DBOS__VMID environment variable');
      }
      // Reached through DBOS's internal entry: a release that moves it must fail here, not silently never recover.
      if (typeof executor.recoverPendingWorkflows !== 'function') {
        throw new NuwaError('TypeError', 'this version of @dbos-inc/dbos-sdk has no recoverPendingWorkflows on its executor; takeover needs DBOS 5.3');
      }
      pool = new pg.Pool({ connectionString: options.systemDatabaseUrl, max: 2 });
      // An idle connection's error (the server restarted) would otherwise crash the process; the next beat reconnects.
      pool.on('error', (error) => options.onEvent?.({ type: 'error', error }));
      heartbeat = new ExecutorHeartbeat({
        pool,
        application: executor.config.name ?? '',
        applicationVersion: DBOS.applicationVersion,
        executorId,
        heartbeatMs,
        takeoverAfterMs,
        recover: async (executorIds) => (await executor.recoverPendingWorkflows(executorIds)).map((handle) => handle.workflowID),
        onSuperseded: options.onSuperseded ?? (() => process.exit(75)),
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      });
      await heartbeat.start();
    },
    // Called at the start of DBOS.shutdown, before the workflows running here drain: the heartbeat
    // stops, and the row is left to go stale, so that nobody takes over what is still finishing here.
    async destroy() {
      await heartbeat?.stop();
      await pool?.end();
      heartbeat = undefined;
      pool = undefined;
    },
  });
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new NuwaError('TypeError', `${name} must be a positive number of milliseconds, not ${String(value)}`);
  return value;
}
