// What each command does, in one line: `steward --help` lists these without loading any
// command (commands/index.ts), and each command's own help says the same.
const SUMMARIES = {
  check: 'evaluate the policies against the instance and report',
  merge: "merge JSON reports of several instances (or policy sets) into one report, and exit as check would on it",
  fix: 'plan (and with --apply, make) the API calls that fix violations',
  doctor: 'check the base URL, the token, the grants and the scope ids the policies need',
  validate: 'check the config, policies, manifests and waivers without calling the API',
  test: "run the policies' own tests (no API calls)",
  list: 'list the policies: id, severity, resource kind, title',
  snapshot: 'record the API answers the policies need into a file',
  sandbox: 'serve an emulated instance (seeded demo data) on 127.0.0.1 until stopped',
  init: 'write a starter steward.yaml, an example policy, a waivers file and a GitHub workflow',
  waive: "append starter waivers for a JSON report's violations to the waivers file",
  evidence: 'run a check and write a verifiable evidence pack',
  verify: 'check an evidence pack: every hash, and the verdict and findings re-evaluated offline',
  history: 'list the runs recorded in the run history (time, verdict, violations by severity, new, fixed)',
  diff: 'compare two runs: new, fixed, reopened and changed findings (default: the last two runs of the history)',
  explain: 'why a policy passes or fails on one resource: each sub-expression with its value, the fields read, what would pass',
  notify: "send a report's changes (new, reopened, fixed) to the config's notify: channels",
  issues: 'GitHub issues kept in sync with a report: one per failing policy',
  completion: 'print a shell completion script: bash, zsh or fish',
} as const;

export type CommandName = keyof typeof SUMMARIES;

export const summaryOf = (name: CommandName): string => SUMMARIES[name];
