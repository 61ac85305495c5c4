// A throwaway Postgres server, for trying durable runs in Postgres and on DBOS (docs/postgres.md)
// without setting one up: the test suite's own (test/support/postgres.ts), made from the server
// binaries on this machine (Debian: apt-get install postgresql) in a temporary folder, listening on a
// free port of 127.0.0.1, with durability off. Ctrl-C stops it and deletes its data.
//   npm run postgres
import { MissingServerBinaries, startPostgres } from '../test/support/postgres.js';

try {
  const server = await startPostgres();
  const base = server.url.replace(/\/postgres$/, '');
  console.log(`Postgres ${server.version} is listening on 127.0.0.1:${server.port} (Ctrl-C stops it and deletes its data). In other terminals:`);
  console.log(`  export DATABASE_URL=${base}/postgres`);
  console.log(`  export NUWA_DBOS_URL=${base}/nuwa_dbos`);
  const stop = () => {
    void server.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof MissingServerBinaries ? error.message : `postgres: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
