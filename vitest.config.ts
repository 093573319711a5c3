import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ for the tests that spawn the built binary, unless it is fresh.
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-cel-engine.ts'],
    // Most tests wait on loopback HTTP, not the CPU: two files at a time on a 2-core machine
    // (the default would be one).
    maxWorkers: 2,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
