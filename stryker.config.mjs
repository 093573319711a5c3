// Mutation testing of the modules that decide verdicts and guard secrets (`npm run mutation`;
// not part of `npm test`). Incremental: reports/stryker-incremental.json (committed) keeps each
// mutant's result, so a re-run tests only the mutants whose code or covering tests changed.
// Scores per module and the equivalent survivors: MUTATION.md.
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
  mutate: [
    'src/engine/verdict.ts',
    'src/engine/waivers.ts',
    'src/engine/baseline.ts',
    'src/engine/fingerprint.ts',
    'src/api/pagination.ts',
    'src/api/retry.ts',
    'src/api/breaker.ts',
    'src/core/redact.ts',
    'src/policy/cel-closures.ts',
    'src/fix/plan.ts',
    'src/history/lifecycle.ts',
    'src/report/junit.ts',
    'src/io/contained-path.ts',
  ],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
