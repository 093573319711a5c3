// Mutation testing of the modules that decide verdicts and guard secrets (`npm run mutation`,
// scripts/mutation.mjs; not part of `npm test`). The script runs Stryker once per group of
// scripts/mutation-groups.mjs (STEWARD_MUTATION_GROUP), each group's mutants against its own
// tests. Incremental: reports/stryker-incremental-<group>.json keeps each mutant's result, so a
// re-run tests only the mutants whose code or covering tests changed.
// Scores per module and the equivalent survivors: MUTATION.md.
import { currentGroup, MUTATION_GROUPS } from './scripts/mutation-groups.mjs';

const group = currentGroup();

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // The checker type-checks src alone (tsconfig.stryker.json): a mutant that does not compile is
  // never run; checking the tests too tripled the time a mutant took.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.stryker.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: group ? group.mutate : MUTATION_GROUPS.flatMap((g) => g.mutate),
  incremental: true,
  incrementalFile: `reports/stryker-incremental${group ? `-${group.name}` : ''}.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${group ? group.name : 'all'}.json` },
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
