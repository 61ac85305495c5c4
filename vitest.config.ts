import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn bin/nuwa and real tool processes; give them room on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
