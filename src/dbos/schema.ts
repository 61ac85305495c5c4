// The tables Nuwa keeps beside DBOS's own, in the `nuwa` schema of the system database (worker
// heartbeats, calls begun), each created on first use. Workers that start together take an
// advisory lock on the table's name for the transaction, so that their CREATEs never collide.
import type { Pool } from 'pg';

/** Creates the `nuwa` schema and `table` (with `columns`, the text between the parentheses) unless they exist. */
export async function createTableOnce(pool: Pool, table: string, columns: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${table}'))`);
    await client.query('CREATE SCHEMA IF NOT EXISTS nuwa');
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (${columns})`);
    await client.query('COMMIT');
  } catch (error) {
    // A failed rollback (the connection is gone) must not hide why we rolled back.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
