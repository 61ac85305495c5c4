// Which calls that may not be repeated a run's steps have started: the mark that lets a worker tell
// "this write may have happened" after another worker died during it (DURABLE.md §3, `uncertain`).
//
// DBOS records a step when its function ends, and runs the function again when the worker died
// during it. For a tool that is safe to repeat (a read, or `idempotent`) that is right. For a write,
// the step inserts a row here before the tool runs, keyed by the run, the DBOS step (its function
// id, the same in every execution of the run, since the run replays deterministically) and the
// call. When the function runs again and finds its row, a previous attempt of that very step began
// the call and did not live to record its end: the call is not made, and the run waits for a person
// to decide. A tool's own calls (`context.callTool`) run inside its step, and are marked the same
// way under the step that encloses them.
//
// The rows of a run are deleted when its workflow ends: every step is recorded by then, so no step
// function runs again and no row is read again. Plain `pg`, in the DBOS system database (schema
// `nuwa`, beside the workers' heartbeat rows).
import pg from 'pg';
import { createTableOnce } from './schema.js';

export const STARTED_CALLS_TABLE = 'nuwa.dbos_started_calls';

export class StartedCalls {
  private pool: pg.Pool | undefined;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Marks call `callId` of step `stepId` of run `runId` as begun; resolves to false when it was
   * already marked (a previous attempt of this step began it).
   */
  async begin(runId: string, stepId: number, callId: string): Promise<boolean> {
    const pool = await this.open();
    const inserted = await pool.query(`INSERT INTO ${STARTED_CALLS_TABLE} (workflow_id, step_id, call_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [runId, stepId, callId]);
    return inserted.rowCount === 1;
  }

  /** The marks a run's steps have made so far (read when a worker takes the run up). */
  async marks(runId: string): Promise<Array<{ stepId: number; callId: string }>> {
    const pool = await this.open();
    const found = await pool.query<{ step_id: number; call_id: string }>(`SELECT step_id, call_id FROM ${STARTED_CALLS_TABLE} WHERE workflow_id = $1`, [runId]);
    return found.rows.map((row) => ({ stepId: row.step_id, callId: row.call_id }));
  }

  /** Forgets a run's marks once its workflow has ended. */
  async forget(runId: string): Promise<void> {
    const pool = await this.open();
    await pool.query(`DELETE FROM ${STARTED_CALLS_TABLE} WHERE workflow_id = $1`, [runId]);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    await pool?.end();
  }

  private async open(): Promise<pg.Pool> {
    if (this.pool === undefined) {
      // allowExitOnIdle: a worker's process may end without closing it (its workflows outlive DBOS.shutdown).
      this.pool = new pg.Pool({ connectionString: this.connectionString, max: 4, allowExitOnIdle: true });
      // An idle connection's error (the server restarted) would otherwise crash the process.
      this.pool.on('error', this.onError);
    }
    const pool = this.pool;
    this.ready ??= ensureTable(pool).catch((error: unknown) => {
      this.ready = undefined; // tried again on the next call
      throw error;
    });
    await this.ready;
    return pool;
  }
}

/** Creates the schema and table once; workers starting together wait on an advisory lock. */
async function ensureTable(pool: pg.Pool): Promise<void> {
  await createTableOnce(
    pool,
    STARTED_CALLS_TABLE,
    `workflow_id text NOT NULL,
      step_id integer NOT NULL,
      call_id text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workflow_id, step_id, call_id)`,
  );
}
