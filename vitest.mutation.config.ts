// The test run Stryker uses for each mutant (`npm run mutation`): the tests of the group being
// mutated (scripts/mutation-groups.mjs, named by STEWARD_MUTATION_GROUP); without a group, the
// whole suite but the tests that spawn a packed tarball, a built binary or the Action bundle
// (they exercise dist/, which a mutant of src/ does not change).
import { defineConfig, mergeConfig } from 'vitest/config';
import { currentGroup } from './scripts/mutation-groups.mjs';
import base from './vitest.config.js';

const group = currentGroup();
const config = mergeConfig(base, defineConfig({ test: { exclude: ['test/package/**', 'test/action/**', 'test/cli/startup.test.ts', 'node_modules/**'] } }));
// mergeConfig concatenates lists: the group's tests replace the suite's instead.
if (group && config.test) config.test.include = group.tests;

export default config;
