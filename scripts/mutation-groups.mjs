// The modules `npm run mutation` mutates, each group with the tests that target it. Running every
// mutant against the whole suite cost hours (redaction and the CEL closures run in every test),
// so each group's mutants run against its own tests only: a mutant those tests miss is a
// survivor even if some end-to-end test would catch it, which is the stricter measure.
export const MUTATION_GROUPS = [
  {
    name: 'engine',
    mutate: ['src/engine/verdict.ts', 'src/engine/waivers.ts', 'src/engine/baseline.ts', 'src/engine/fingerprint.ts'],
    tests: ['test/engine/**/*.test.ts', 'test/hostile/waivers.test.ts'],
  },
  {
    name: 'api',
    mutate: ['src/api/pagination.ts', 'src/api/retry.ts', 'src/api/breaker.ts'],
    tests: ['test/api/**/*.test.ts', 'test/hostile/responses.test.ts', 'test/hostile/storms.test.ts'],
  },
  {
    name: 'redact',
    mutate: ['src/core/redact.ts'],
    tests: ['test/api/redaction.test.ts', 'test/api/errors.test.ts', 'test/hostile/written-files.test.ts', 'test/hostile/sandbox-token.test.ts'],
  },
  { name: 'policy', mutate: ['src/policy/cel-closures.ts'], tests: ['test/policy/**/*.test.ts'] },
  { name: 'fix', mutate: ['src/fix/plan.ts'], tests: ['test/fix/**/*.test.ts'] },
  { name: 'history', mutate: ['src/history/lifecycle.ts'], tests: ['test/history/**/*.test.ts'] },
  { name: 'report', mutate: ['src/report/junit.ts'], tests: ['test/report/junit.test.ts', 'test/report/errors-once.test.ts', 'test/report/lifecycle-formats.test.ts'] },
  { name: 'io', mutate: ['src/io/contained-path.ts'], tests: ['test/io/**/*.test.ts', 'test/hostile/files.test.ts', 'test/config/**/*.test.ts'] },
];

/** The group `npm run mutation` is running now (STEWARD_MUTATION_GROUP), or undefined. */
export function currentGroup() {
  const name = process.env.STEWARD_MUTATION_GROUP;
  return MUTATION_GROUPS.find((g) => g.name === name);
}
