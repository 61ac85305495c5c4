// The throwaway Postgres cluster of the tests (test/support/postgres.ts): it serves connections as
// the harness says, runs as nobody when the tests run as root, is gone with its folder once stopped,
// and a machine without server binaries fails the run with one line naming the package to install.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { runChild } from '../support/child.js';
import { createDatabase, startPostgres } from '../support/postgres.js';
import { isAlive } from '../support/processes.js';

function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith('Uid:'))!;
  return Number(line.split(/\s+/)[1]);
}

it('the shared cluster accepts connections over loopback, with durability off', async () => {
  const info = inject('postgres');
  expect(info.url).toBe(`postgres://postgres@127.0.0.1:${info.port}/postgres`);
  const url = await createDatabase(info.url, 'harness');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query("select current_user, current_setting('fsync') as fsync, current_setting('data_directory') as data");
  await client.end();
  expect(rows[0]).toMatchObject({ current_user: 'postgres', fsync: 'off' });
  expect(path.dirname(rows[0].data)).toBe(info.socketDir);
  expect(existsSync(path.join(info.socketDir, `.s.PGSQL.${info.port}`))).toBe(true);
});

it('a cluster runs as nobody when the tests run as root, and is gone with its folder once stopped', async () => {
  const server = await startPostgres();
  const pid = Number(readFileSync(path.join(server.socketDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  expect(uidOf(pid)).toBe(process.getuid!() === 0 ? 65534 : process.getuid!());
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  await client.end();
  await server.stop();
  expect(isAlive(pid)).toBe(false);
  expect(existsSync(server.socketDir)).toBe(false);
});

it('without server binaries the run fails at once, with one line naming the package', async () => {
  const setup = new URL('../support/postgres-setup.ts', import.meta.url).href;
  const result = await runChild(`import setup from ${JSON.stringify(setup)};\nawait setup({ provide() {} });\nconsole.log('started');`, {
    env: { NUWA_PG_BINDIR: '/nonexistent' },
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim()).toBe(
    'Postgres server binaries not found (looked for initdb and postgres in NUWA_PG_BINDIR=/nonexistent): install the Debian package postgresql (apt-get install postgresql)',
  );
});
