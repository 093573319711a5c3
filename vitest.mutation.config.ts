// The test run Stryker uses for each mutant (`npm run mutation`): the whole suite but the tests
// that spawn a packed tarball, a built binary or the Action bundle (they exercise dist/, which a
// mutant of src/ does not change, and cost seconds each: with them a full run took over 90 minutes).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/package/**', 'test/action/**', 'test/cli/startup.test.ts', 'node_modules/**'],
    },
  }),
);
