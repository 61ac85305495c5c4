// A run store in Postgres (DURABLE.md §3), for hosts whose runs must outlive a machine: every machine
// that reaches the database sees the same runs, and a run whose process died can be recovered from
// any of them. The package's `/postgres` entry; the `pg` driver is an optional dependency, loaded
// only here.
//
// The same entries as every store (api/store.ts), one row each, in order; a committed insert is on
// the database's disk, so each entry is kept before the run goes on. A run is leased to one driver by
// a session-level advisory lock on its id, held by the connection the driver writes through: a second
// driver is refused with ConflictError, and the lock goes away by itself when its connection does (a
// process that dies cannot leave a run locked).
//
// Schema (made on first use, or ahead of time with `store.migrate()`; `table` names the prefix):
//
//   CREATE TABLE nuwa_runs        (run_id text PRIMARY KEY, status text NOT NULL,
//                                  created_at bigint NOT NULL, updated_at bigint NOT NULL);
//   CREATE TABLE nuwa_run_entries (run_id text NOT NULL REFERENCES nuwa_runs ON DELETE CASCADE,
//                                  seq integer NOT NULL, entry jsonb NOT NULL,
//                                  PRIMARY KEY (run_id, seq));
//   CREATE INDEX nuwa_runs_status ON nuwa_runs (status, updated_at);
import type { Pool, PoolClient, PoolConfig } from 'pg';
import { NuwaError } from '../errors.js';
import type { RunEntry, RunHeader, RunStatus, RunStore, RunSummary, RunWriter, StoredRun } from '../api/store.js';
import { checkRunId, conflict, foldRun, summaryOf } from '../api/store.js';

export interface PostgresRunStoreOptions {
  /** `postgres://user:password@host:port/database`; the store makes (and ends, in close()) its pool. */
  connectionString?: string;
  /** A pool of the host's: the store uses it and leaves it open. */
  pool?: Pool;
  /** The prefix of the store's tables (default `nuwa`): `<table>_runs` and `<table>_run_entries`. */
  table?: string;
}

const STATUS_OF: Partial<Record<RunEntry['type'], RunStatus>> = { run: 'running', resumed: 'running', paused: 'paused', completed: 'completed', failed: 'failed' };

export class PostgresRunStore implements RunStore {
  private readonly owned: boolean;
  private readonly runs: string;
  private readonly entries: string;
  private poolPromise: Promise<Pool> | undefined;
  private ready: Promise<void> | undefined;

  constructor(options: PostgresRunStoreOptions) {
    if (options === null || typeof options !== 'object' || (options.connectionString === undefined) === (options.pool === undefined)) {
      throw new NuwaError('TypeError', 'new PostgresRunStore(options): give either { connectionString } or { pool }');
    }
    const prefix = options.table ?? 'nuwa';
    if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new NuwaError('TypeError', `PostgresRunStore: table must be a lowercase identifier, got ${JSON.stringify(prefix)}`);
    this.runs = `${prefix}_runs`;
    this.entries = `${prefix}_run_entries`;
    this.owned = options.pool === undefined;
    if (options.pool !== undefined) this.poolPromise = Promise.resolve(options.pool);
    else {
      this.poolPromise = makePool({ connectionString: options.connectionString });
      this.poolPromise.catch(() => {}); // reported where the pool is first used
    }
  }

  /** Creates the tables if they are missing (done on first use anyway). */
  async migrate(): Promise<void> {
    this.ready ??= (async () => {
      const pool = await this.pool();
      await pool.query(`CREATE TABLE IF NOT EXISTS ${this.runs} (run_id text PRIMARY KEY, status text NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL)`);
      await pool.query(
        `CREATE TABLE IF NOT EXISTS ${this.entries} (run_id text NOT NULL REFERENCES ${this.runs} ON DELETE CASCADE, seq integer NOT NULL, entry jsonb NOT NULL, PRIMARY KEY (run_id, seq))`,
      );
      await pool.query(`CREATE INDEX IF NOT EXISTS ${this.runs}_status ON ${this.runs} (status, updated_at)`);
    })().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async create(header: RunHeader): Promise<RunWriter> {
    checkRunId(header.runId);
    const client = await this.lease(header.runId);
    try {
      const inserted = await client.query(`INSERT INTO ${this.runs} (run_id, status, created_at, updated_at) VALUES ($1, 'running', $2, $2) ON CONFLICT DO NOTHING`, [
        header.runId,
        header.createdAt,
      ]);
      if (inserted.rowCount === 0) throw conflict(header.runId, 'already exists in this store: give each run its own runId');
      const writer = new PostgresWriter(client, this.runs, this.entries, header.runId, 0, () => unlock(client, header.runId));
      await writer.append(header);
      return writer;
    } catch (error) {
      await unlock(client, header.runId);
      throw error;
    }
  }

  async open(runId: string): Promise<RunWriter> {
    checkRunId(runId);
    const client = await this.lease(runId);
    try {
      const last = await client.query<{ seq: number | null; exists: boolean }>(
        `SELECT (SELECT max(seq) FROM ${this.entries} WHERE run_id = $1) AS seq, EXISTS (SELECT 1 FROM ${this.runs} WHERE run_id = $1) AS exists`,
        [runId],
      );
      if (!last.rows[0]!.exists) throw conflict(runId, 'is not in this store');
      return new PostgresWriter(client, this.runs, this.entries, runId, (last.rows[0]!.seq ?? -1) + 1, () => unlock(client, runId));
    } catch (error) {
      await unlock(client, runId);
      throw error;
    }
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    checkRunId(runId);
    await this.migrate();
    const pool = await this.pool();
    const rows = await pool.query<{ entry: RunEntry }>(`SELECT entry FROM ${this.entries} WHERE run_id = $1 ORDER BY seq`, [runId]);
    return foldRun(rows.rows.map((row) => row.entry));
  }

  async list(filter: { status?: RunStatus } = {}): Promise<RunSummary[]> {
    await this.migrate();
    const pool = await this.pool();
    const ids =
      filter.status === undefined
        ? await pool.query<{ run_id: string }>(`SELECT run_id FROM ${this.runs} ORDER BY created_at`)
        : await pool.query<{ run_id: string }>(`SELECT run_id FROM ${this.runs} WHERE status = $1 ORDER BY created_at`, [filter.status]);
    const out: RunSummary[] = [];
    for (const { run_id: runId } of ids.rows) {
      const run = await this.load(runId);
      if (run !== undefined && (filter.status === undefined || run.status === filter.status)) out.push(summaryOf(run));
    }
    return out;
  }

  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    const client = await this.lease(runId);
    try {
      await client.query(`DELETE FROM ${this.runs} WHERE run_id = $1`, [runId]);
    } finally {
      await unlock(client, runId);
    }
  }

  /** Ends the pool the store made (a pool the host gave stays open). */
  async close(): Promise<void> {
    if (!this.owned || this.poolPromise === undefined) return;
    const pool = await this.poolPromise.catch(() => undefined);
    this.poolPromise = undefined;
    await pool?.end();
  }

  private async pool(): Promise<Pool> {
    if (this.poolPromise === undefined) throw new NuwaError('TypeError', 'this PostgresRunStore was closed');
    return this.poolPromise;
  }

  /** A connection of its own holding the run's lock; ConflictError when another session holds it. */
  private async lease(runId: string): Promise<PoolClient> {
    await this.migrate();
    const client = await (await this.pool()).connect();
    try {
      const locked = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext(reverse($1))) AS locked', [`nuwa:${runId}`]);
      if (locked.rows[0]!.locked) return client;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
    throw conflict(runId, 'is being driven by another process (its lock is held by another database session)');
  }
}

class PostgresWriter implements RunWriter {
  private closed = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: PoolClient,
    private readonly runs: string,
    private readonly entries: string,
    private readonly runId: string,
    private seq: number,
    private readonly release: () => Promise<void>,
  ) {}

  /** Entries are written one after another through the lease's connection, in order. */
  append(entry: RunEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the run record was closed'));
    const seq = this.seq++;
    const write = async () => {
      await this.client.query(`INSERT INTO ${this.entries} (run_id, seq, entry) VALUES ($1, $2, $3)`, [this.runId, seq, JSON.stringify(entry)]);
      const status = STATUS_OF[entry.type];
      if (status !== undefined) await this.client.query(`UPDATE ${this.runs} SET status = $2, updated_at = $3 WHERE run_id = $1`, [this.runId, status, Date.now()]);
    };
    const done = this.tail.then(write);
    this.tail = done.catch(() => {});
    return done;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.tail;
    } finally {
      await this.release();
    }
  }
}

async function unlock(client: PoolClient, runId: string): Promise<void> {
  try {
    await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext(reverse($1)))', [`nuwa:${runId}`]);
    client.release();
  } catch (error) {
    // A connection that cannot unlock is dropped: its session, and the lock, end with it.
    client.release(error as Error);
  }
}

async function makePool(config: PoolConfig): Promise<Pool> {
  let pg: typeof import('pg');
  try {
    pg = await import('pg');
  } catch {
    throw new NuwaError('TypeError', 'PostgresRunStore needs the pg package: npm install pg');
  }
  const Pool = (pg as { Pool?: typeof import('pg').Pool; default?: { Pool: typeof import('pg').Pool } }).Pool ?? (pg as { default: { Pool: typeof import('pg').Pool } }).default.Pool;
  const pool = new Pool(config);
  // An idle connection that breaks (the server restarts) must not crash the host.
  pool.on('error', () => {});
  return pool;
}
