import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `#chevrotain`, `#ajv` and `#ajv-formats` as Node 20.19+ resolves them (package.json "imports"):
  // Chevrotain's single-file bundle, Ajv loaded when first used.
  resolve: {
    alias: {
      '#chevrotain': fileURLToPath(new URL('./src/syntax/chevrotain-sync.ts', import.meta.url)),
      '#ajv': fileURLToPath(new URL('./src/tools/ajv-sync.ts', import.meta.url)),
      '#ajv-formats': fileURLToPath(new URL('./src/tools/ajv-formats-sync.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn bin/nuwa and real tool processes; give them room on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
