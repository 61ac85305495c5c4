import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `#chevrotain`, `#ajv`, `#ajv-formats` and `#minisearch` as Node 20.19+ resolves them (package.json "imports"):
  // Chevrotain's single-file bundle, Ajv and MiniSearch loaded when first used.
  resolve: {
    alias: {
      '#chevrotain': fileURLToPath(new URL('./src/syntax/chevrotain-sync.ts', import.meta.url)),
      '#ajv': fileURLToPath(new URL('./src/tools/ajv-sync.ts', import.meta.url)),
      '#ajv-formats': fileURLToPath(new URL('./src/tools/ajv-formats-sync.ts', import.meta.url)),
      '#minisearch': fileURLToPath(new URL('./src/tools/minisearch-sync.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn bin/nuwa and real tool processes; give them room on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
