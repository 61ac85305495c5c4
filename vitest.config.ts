import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Test folders that need a Postgres server: they form the `postgres` project below. */
const postgresTests = ['test/dbos/**/*.test.ts', 'test/postgres/**/*.test.ts'];

export default defineConfig({
  // `#chevrotain`, `#ajv`, `#ajv-formats`, `#minisearch` and `#hashes` as Node 20.19+ resolves them (package.json "imports"):
  // Chevrotain's single-file bundle, Ajv and MiniSearch loaded when first used.
  resolve: {
    alias: {
      '#chevrotain': fileURLToPath(new URL('./src/syntax/chevrotain-sync.ts', import.meta.url)),
      '#ajv': fileURLToPath(new URL('./src/tools/ajv-sync.ts', import.meta.url)),
      '#ajv-formats': fileURLToPath(new URL('./src/tools/ajv-formats-sync.ts', import.meta.url)),
      '#minisearch': fileURLToPath(new URL('./src/tools/minisearch-sync.ts', import.meta.url)),
      '#hashes': fileURLToPath(new URL('./src/util/hashes-node.ts', import.meta.url)),
      // What registry.connectMcp imports by the package's name (providers/install.ts): the source here.
      'nuwa-script/mcp': fileURLToPath(new URL('./src/mcp.ts', import.meta.url)),
    },
  },
  test: {
    // Vitest's default is one worker less than the cores: one on a 2-core machine. Most files spend
    // their time waiting for what they spawn (bin/nuwa, tools, servers, Postgres and DBOS workers,
    // tsc, Chromium), so four side by side keep both cores busy; the two projects share them.
    maxWorkers: 4,
    // End-to-end tests spawn bin/nuwa and real tool processes; give them room on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // DBOS.migrate (test/dbos) reports on the console, and takes no logger to be quiet.
    onConsoleLog: (log) => !log.startsWith('Running DBOS system database migrations'),
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...postgresTests],
          // A worker keeps the modules it has loaded from one file to the next instead of loading
          // the sources afresh for each file: half the CPU time of test/unit. The files share no
          // state through modules (none mocks a module; fake timers are restored after each test).
          isolate: false,
        },
      },
      {
        // One throwaway Postgres cluster for these files (test/support/postgres.ts), started only
        // when a file of this project runs: `npx vitest run test/unit` needs no server.
        extends: true,
        test: {
          name: 'postgres',
          include: postgresTests,
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
    ],
  },
});
