// The modules `npm run mutation` mutates, each group with the tests that exercise it in-process
// (unit, report, library and hostile tests; not the CLI, Action or package tests, which spawn
// processes and cost seconds each). Running every mutant against the whole suite cost hours
// (redaction and the CEL closures run in every test): a mutant these tests miss is a survivor
// even if an end-to-end test elsewhere would catch it, the stricter measure.
export const MUTATION_GROUPS = [
  {
    name: 'engine',
    mutate: ['src/engine/verdict.ts', 'src/engine/waivers.ts', 'src/engine/baseline.ts', 'src/engine/fingerprint.ts', 'src/engine/column.ts'],
    // The engine's own tests (and the schema and waiver files' hostile ones): with the library's,
    // history's and fix's end-to-end tests too, a run took over an hour on 2 cores.
    tests: ['test/engine/**/*.test.ts', 'test/schema/**/*.test.ts', 'test/hostile/waivers.test.ts'],
  },
  {
    name: 'api',
    mutate: ['src/api/pagination.ts', 'src/api/seen-ids.ts', 'src/api/retry.ts', 'src/api/breaker.ts'],
    // The client's own tests: with the resources', storms' and chaos's, a run took over an hour.
    tests: ['test/api/**/*.test.ts', 'test/hostile/responses.test.ts'],
  },
  // The client's own headers for ofetch (no undici): a name's case, an answer's repeated header joined.
  { name: 'wire', mutate: ['src/api/wire-headers.ts'], tests: ['test/api/{wire-headers,retries,errors}.test.ts'] },
  // API drift: the first mismatch of an answer against its schema, named by field (exit 3, never a pass).
  { name: 'drift', mutate: ['src/api/drift.ts'], tests: ['test/api/{drift,schemas}.test.ts', 'test/resources/platform-fixtures.test.ts', 'test/hostile/responses.test.ts'] },
  {
    name: 'redact',
    mutate: ['src/core/redact.ts'],
    tests: ['test/core/redact.test.ts', 'test/api/redaction.test.ts', 'test/api/errors.test.ts', 'test/hostile/written-files.test.ts', 'test/hostile/sandbox-token.test.ts'],
  },
  // The expression tests (the cel-spec conformance cases among them), not the engine's end to end.
  { name: 'policy', mutate: ['src/policy/cel-closures.ts'], tests: ['test/policy/**/*.test.ts', 'test/hostile/expressions.test.ts'] },
  // The compiler's front: the pack's kept ASTs read back, and the CEL engine loaded only on need.
  { name: 'cel', mutate: ['src/policy/cel.ts', 'src/policy/known-ast.ts'], tests: ['test/policy/**/*.test.ts', 'test/hostile/expressions.test.ts'] },
  // What CEL's operators accept of two static types: a pair refused wrongly is a load error, one
  // accepted wrongly a comparison that is never true, passing in silence.
  { name: 'types', mutate: ['src/policy/type-rules.ts'], tests: ['test/policy/{type-rules,typecheck,closed-words,reads}.test.ts'] },
  // The functions steward adds to CEL: which names are zones decides a built-in policy's verdict.
  { name: 'host', mutate: ['src/policy/host-functions.ts'], tests: ['test/policy/host-functions.test.ts', 'test/policy/cel.test.ts', 'test/policy/cel-closures.test.ts'] },
  { name: 'fix', mutate: ['src/fix/plan.ts'], tests: ['test/fix/**/*.test.ts', 'test/engine/**/*.test.ts', 'test/library/**/*.test.ts'] },
  // The PostgreSQL test spawns the built CLI (it cannot see a mutant of src): left out.
  // The SQLite history's two drivers: which one a Node gets, what reaches the file before a save, a hot journal refused, how sql.js is compiled.
  // A read of many rows as one JSON text (json-rows.ts), the same rows as one at a time.
  { name: 'sqlite', mutate: ['src/history/sqlite-drivers.ts', 'src/history/wasm-tier.ts', 'src/history/json-rows.ts'], tests: ['test/history/{database,sqlite-drivers,wasm-tier,json-rows,spans}.test.ts', 'test/hostile/history-files.test.ts'] },
  { name: 'history', mutate: ['src/history/lifecycle.ts', 'src/history/spans.ts'], tests: ['test/history/{lifecycle,spans,database,diff}.test.ts', 'test/library/**/*.test.ts', 'test/hostile/history-files.test.ts', 'test/cli/history.test.ts'] },
  // Opening a history (its schema checked by digest, else object by object) and what a recording
  // keeps, searched for the run's secrets (store.ts keptStrings).
  { name: 'history-open', mutate: ['src/history/database.ts', 'src/history/store.ts'], tests: ['test/history/{database,store,spans,diff,lifecycle}.test.ts', 'test/hostile/history-files.test.ts'] },
  // Notifications: the body sent redacted, the webhook's signature of that body.
  { name: 'notify', mutate: ['src/library/notify.ts'], tests: ['test/library/notify.test.ts'] },
  // GitHub issues kept in sync: which issue opens, updates, reopens or closes (a close says "fixed").
  { name: 'issues', mutate: ['src/library/issues-sync.ts'], tests: ['test/library/issues-sync.test.ts'] },
  // Snapshots: what `snapshot` records and writes and `check --from` trusts (a snapshot missing a
  // page or an answer, or holding one twice, is never a pass).
  {
    name: 'snapshot',
    mutate: ['src/api/snapshot-lines.ts', 'src/api/snapshot-format.ts', 'src/api/snapshot-replay.ts', 'src/api/snapshot-record.ts'],
    tests: ['test/api/snapshot*.test.ts', 'test/resources/kinds/reportSchedule.test.ts', 'test/sandbox/faults.test.ts'],
  },
  // The report tests that read JUnit and JSON (the others format 50,000 findings or start Chromium, for every mutant).
  { name: 'report', mutate: ['src/report/junit.ts', 'src/core/json-chunks.ts'], tests: ['test/report/junit.test.ts', 'test/report/junit-exact.test.ts', 'test/report/catch-all.test.ts', 'test/report/json.test.ts', 'test/core/json-chunks.test.ts'] },
  // The verdicts: one policy on one resource (what is selected, what fails, a CEL error never a
  // pass), a kind's verdicts summed per policy, a failed collection or shared read an error.
  {
    name: 'verdicts',
    mutate: ['src/engine/judge.ts', 'src/engine/evaluate.ts', 'src/engine/run.ts'],
    tests: ['test/engine/**/*.test.ts', 'test/resources/{platform-semantics,discovery}.test.ts', 'test/hostile/partial-coverage.test.ts'],
  },
  // What the engine leans on: each read once a run (a shared read's failure known as shared), a
  // bounded pool that throws its first failure, findings ordered and counted, owners resolved.
  { name: 'engine-parts', mutate: ['src/engine/memo.ts', 'src/engine/pool.ts', 'src/engine/findings.ts', 'src/engine/owners.ts'], tests: ['test/engine/**/*.test.ts'] },
  // Paths a run may read or write: contained in the project, writable, never two of the run's files at once.
  {
    name: 'io',
    mutate: ['src/io/contained-path.ts', 'src/io/writable.ts', 'src/library/run-files.ts'],
    tests: ['test/io/**/*.test.ts', 'test/hostile/files.test.ts', 'test/config/**/*.test.ts', 'test/library/run-files.test.ts', 'test/cli/run-selection.test.ts'],
  },
  // The people kinds: who a user, group, role, token or account is to a policy (a deleted owner
  // read as active, a token's expiry or owner lost, an admin grant missed: each a wrong pass).
  {
    name: 'people',
    mutate: ['src/resources/people.ts', 'src/resources/kinds/user.ts', 'src/resources/kinds/accessToken.ts', 'src/resources/kinds/role.ts', 'src/resources/kinds/group.ts', 'src/resources/kinds/account.ts'],
    tests: ['test/resources/**/*.test.ts', 'test/platform/**/*.test.ts', 'test/hostile/token-expiry.test.ts', 'test/engine/{owners,pack}.test.ts', 'test/library/{library,doctor,owners}.test.ts', 'test/policy/typecheck.test.ts'],
  },
  // Whether the token's user holds the grants complete listings need: a grant taken as held, or a
  // failed read taken as "cannot be told", lets check judge a partial listing as the instance.
  { name: 'grants', mutate: ['src/library/grant-check.ts'], tests: ['test/library/{grant-check,doctor}.test.ts', 'test/platform/identity.test.ts'] },
  // A card's owners and who sends it (a co-owner who left, or a card a schedule sends, left out: each a wrong pass).
  { name: 'cards', mutate: ['src/resources/kinds/card.ts'], tests: ['test/resources/**/*.test.ts', 'test/platform/**/*.test.ts', 'test/engine/{owners,pack}.test.ts', 'test/library/doctor.test.ts'] },
  // A dataset's parts: its reach (a group's members left out is a dataset judged narrow), owner, tags, certification process.
  { name: 'datasets', mutate: ['src/resources/kinds/dataset.ts'], tests: ['test/resources/**/*.test.ts', 'test/platform/{dataset-reach,sharing,edge-answers}.test.ts', 'test/engine/pack.test.ts'] },
  // The sharing side: who a card, page or dataset is shared with (a share read as narrower than
  // it is, a PDP policy or a live permission lost: each a wrong pass).
  {
    name: 'sharing',
    mutate: ['src/resources/sharing.ts', 'src/resources/pdp.ts', 'src/resources/live-permissions.ts'],
    tests: ['test/resources/**/*.test.ts', 'test/platform/**/*.test.ts', 'test/engine/{owners,pack}.test.ts', 'test/library/{library,doctor}.test.ts', 'test/policy/typecheck.test.ts'],
  },
  // Words a field never holds (a closed vocabulary's): a comparison decided before any read is bad input.
  { name: 'words', mutate: ['src/policy/closed-words.ts'], tests: ['test/policy/{typecheck,reads,closed-words}.test.ts'] },
  // Answers about input files kept across runs: recalled only for the very text, kept only when
  // JSON carries them back exactly (a wrong one is a config read as another); V8's tiering flags.
  {
    name: 'answers',
    mutate: ['src/io/yaml-source.ts', 'src/cli/yaml-answers.ts', 'src/cli/tiering.ts'],
    tests: ['test/io/yaml-source.test.ts', 'test/cli/yaml-answers.test.ts', 'test/cli/tiering.test.ts', 'test/resources/manifests.test.ts'],
  },
  // The CLI's code cache: where compiled code may be kept (owner-only) and what is read back.
  { name: 'cli', mutate: ['src/cli/chunk-loader.ts', 'src/cli/code-cache.ts', 'src/cli/process-end.ts', 'src/cli/std-output.ts'], tests: ['test/cli/chunk-loader.test.ts', 'test/cli/code-cache.test.ts', 'test/cli/process-end.test.ts', 'test/cli/std-output.test.ts'] },
];

/** The group `npm run mutation` is running now (STEWARD_MUTATION_GROUP), or undefined. */
export function currentGroup() {
  const name = process.env.STEWARD_MUTATION_GROUP;
  return MUTATION_GROUPS.find((g) => g.name === name);
}
