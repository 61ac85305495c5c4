// vitest globalSetup of the `postgres` project (vitest.config.ts): one throwaway cluster for all the
// project's test files, given to them as `inject('postgres')`, stopped and removed at the end.
// Without server binaries the run fails here, with one line naming the package to install.
import type { TestProject } from 'vitest/node';
import { MissingServerBinaries, startPostgres, type PostgresInfo } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const server = await startPostgres().catch((error: unknown) => {
    if (!(error instanceof MissingServerBinaries)) throw error;
    // The reason alone, not a stack trace through the harness; and no test runs without a server.
    process.stderr.write(`\n${error.message}\n`);
    process.exit(1);
  });
  const { stop, ...info } = server;
  project.provide('postgres', info);
  if (process.env.NUWA_PG_VERBOSE) process.stderr.write(`postgres ${info.version} ready on ${info.url} in ${Date.now() - started} ms\n`);
  return stop;
}
