// PostgresRunStore (DURABLE.md §3) on a real server: the behaviour every run store shares
// (test/support/run-store-suite.ts), against the throwaway cluster of the `postgres` project. Each
// store gets a fresh table prefix; `sameStore` is a second store with its own pool, as another
// process would have.
import { afterAll, inject } from 'vitest';
import { PostgresRunStore } from '../../src/stores/postgres.js';
import { createDatabase } from '../support/postgres.js';
import { describeRunStore } from '../support/run-store-suite.js';

const stores: PostgresRunStore[] = [];
let database: Promise<string> | undefined;
let prefixes = 0;
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

function open(connectionString: string, table: string): PostgresRunStore {
  const store = new PostgresRunStore({ connectionString, table });
  stores.push(store);
  return store;
}

describeRunStore('PostgresRunStore', async () => {
  database ??= createDatabase(inject('postgres').url, 'stores');
  const connectionString = await database;
  const table = `runs_${++prefixes}`;
  return { store: open(connectionString, table), sameStore: () => open(connectionString, table) };
});
