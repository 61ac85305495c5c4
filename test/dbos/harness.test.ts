import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { createDatabase } from '../support/postgres.js';

it('the cluster accepts connections', async () => {
  const info = inject('postgres');
  const url = await createDatabase(info.url, 'harness');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('select current_user, current_setting($1) as fsync', ['fsync']);
  await client.end();
  expect(rows[0]).toEqual({ current_user: 'postgres', fsync: 'off' });
});
