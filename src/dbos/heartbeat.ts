// Worker heartbeats and the takeover of a stopped worker's workflows, with no orchestrator.
//
// Each worker process (a DBOS executor) keeps a row in `nuwa.dbos_executors` of the DBOS system
// database and refreshes its `beat_at` every `heartbeatMs`. On the same beat, it looks for rows of
// its own application and version whose beat is older than `takeoverAfterMs`: such a worker stopped
// (crashed, was killed, lost its database). The live worker locks that row (FOR UPDATE SKIP LOCKED,
// so that one worker alone takes each stopped one over), has DBOS put the stopped executor's pending
// workflows back on their queues (`recover`), and deletes the row in the same transaction. If it dies
// half-way, the transaction rolls back and another worker does it again; recovery is idempotent.
//
// Times are compared with the database's clock (`now()`), so machines' clocks need not agree. A worker
// that comes back after being taken over (a long pause, a lost network) finds its row gone on its
// next beat: it has been superseded, other workers run its workflows now, and it must stop at once
// (`onSuperseded`) or the calls in flight would be made twice.
//
// Only workers of the same application version take each other over: DBOS replays a workflow only
// under the code version that started it.
import type { Pool, PoolClient } from 'pg';
import { createTableOnce } from './schema.js';

export const HEARTBEAT_TABLE = 'nuwa.dbos_executors';

export type TakeoverEvent =
  /** This worker had DBOS put the pending workflows of `executorId`, which stopped, back on their queues. */
  | { type: 'takeover'; executorId: string; workflowIds: string[] }
  /** This worker was itself taken over by another while it was silent; `onSuperseded` runs next. */
  | { type: 'superseded'; executorId: string }
  /** A beat failed (the database unreachable, say); the next beat tries again. */
  | { type: 'error'; error: unknown };

export interface HeartbeatOptions {
  pool: Pool;
  application: string;
  applicationVersion: string;
  executorId: string;
  heartbeatMs: number;
  takeoverAfterMs: number;
  /** Puts the pending workflows of these executors back on their queues; resolves to their ids. */
  recover(executorIds: string[]): Promise<string[]>;
  onSuperseded(): void;
  onEvent?: (event: TakeoverEvent) => void;
}

export class ExecutorHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: HeartbeatOptions) {}

  /** Registers this worker, then beats every `heartbeatMs`, the first beat at once. */
  async start(): Promise<void> {
    await this.register();
    this.schedule(0);
  }

  /** Creates the table if needed and writes this worker's row. */
  async register(): Promise<void> {
    const { pool, application, applicationVersion, executorId } = this.options;
    await ensureHeartbeatTable(pool);
    // A worker restarted under the same executor id takes its row back, with a fresh beat.
    await pool.query(
      `INSERT INTO ${HEARTBEAT_TABLE} (application_name, executor_id, application_version, beat_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (application_name, executor_id)
       DO UPDATE SET application_version = EXCLUDED.application_version, beat_at = now(), started_at = now()`,
      [application, executorId, applicationVersion],
    );
  }

  /** Stops beating and waits for a beat in progress. The row stays: silent, it is taken over later. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.beat().finally(() => this.schedule(this.options.heartbeatMs));
    }, delay);
  }

  /** One beat: refresh our row, then take over every stopped worker. */
  async beat(): Promise<void> {
    const { pool, application, executorId } = this.options;
    try {
      const refreshed = await pool.query(`UPDATE ${HEARTBEAT_TABLE} SET beat_at = now() WHERE application_name = $1 AND executor_id = $2`, [application, executorId]);
      if (refreshed.rowCount === 0) {
        this.stopped = true;
        this.options.onEvent?.({ type: 'superseded', executorId });
        this.options.onSuperseded();
        return;
      }
      while (!this.stopped && (await this.takeOverOne())) {
        // one stopped worker per transaction, so that a failure undoes only its own takeover
      }
    } catch (error) {
      this.options.onEvent?.({ type: 'error', error });
    }
  }

  /** Takes over one stopped worker, if there is one; resolves to whether there was. */
  private async takeOverOne(): Promise<boolean> {
    const { pool, application, applicationVersion, executorId, takeoverAfterMs } = this.options;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const stale = await client.query<{ executor_id: string }>(
        `SELECT executor_id FROM ${HEARTBEAT_TABLE}
         WHERE application_name = $1 AND application_version = $2 AND executor_id <> $3
           AND beat_at < now() - $4 * interval '1 millisecond'
         ORDER BY beat_at LIMIT 1
         FOR UPDATE SKIP LOCKED`,
        [application, applicationVersion, executorId, takeoverAfterMs],
      );
      const stopped = stale.rows[0]?.executor_id;
      if (stopped === undefined) {
        await client.query('COMMIT');
        return false;
      }
      const workflowIds = await this.options.recover([stopped]);
      await client.query(`DELETE FROM ${HEARTBEAT_TABLE} WHERE application_name = $1 AND executor_id = $2`, [application, stopped]);
      await client.query('COMMIT');
      this.options.onEvent?.({ type: 'takeover', executorId: stopped, workflowIds });
      return true;
    } catch (error) {
      await rollback(client);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Creates the schema and table once; concurrent workers wait on an advisory lock rather than collide. */
export async function ensureHeartbeatTable(pool: Pool): Promise<void> {
  await createTableOnce(
    pool,
    HEARTBEAT_TABLE,
    `application_name text NOT NULL,
      executor_id text NOT NULL,
      application_version text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      beat_at timestamptz NOT NULL,
      PRIMARY KEY (application_name, executor_id)`,
  );
}

async function rollback(client: PoolClient): Promise<void> {
  // A failed rollback (the connection is gone) must not hide why we rolled back.
  await client.query('ROLLBACK').catch(() => undefined);
}
