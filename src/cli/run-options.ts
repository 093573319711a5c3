// Flags shared by the commands that evaluate (check, fix, snapshot), declared with nothing but
// commander and the names they offer: `steward check --help` loads no command body (the run's
// translation of them is run-target.ts, loaded when a command runs).
import { type Command, Option } from 'commander';
import type { CheckOptions, EmptyInstance } from '../library/index.js';
import { FORMATS, GROUP_BY, type GroupBy } from '../report/format-names.js';
import {
  collect,
  collectPolicyIds,
  collectRaw,
  formatParser,
  type OutputTarget,
  outputParser,
  parseFailOn,
  parseGroupBy,
  parsePositiveInt,
  parseSeverities,
} from './options.js';

/** The flags of addRunOptions and addReportOptions: the library's options by the same name, and the CLI's own. */
export type RunFlags = Pick<CheckOptions, 'config' | 'baseUrl' | 'workflowUrl' | 'policies' | 'only' | 'skip' | 'severity' | 'failOn' | 'concurrency' | 'timeout' | 'framework' | 'from' | 'baseline' | 'writeBaseline' | 'allowEmpty'> & {
  /** `--override policy=reason`, parsed into CheckOptions.overrides. */
  override?: string[];
  sandbox?: boolean;
  history?: string | true;
  verbose?: boolean;
  format?: string;
  output?: OutputTarget[];
  groupBy?: GroupBy;
  instance?: string[];
};

/**
 * --config, --base-url, --policies, --only, --fail-on, --allow-empty, --concurrency, --sandbox,
 * --from, --verbose. `gate: false` leaves out --fail-on, --override and --allow-empty, and
 * `from: false` --from (for recording a snapshot).
 */
export function addRunOptions(cmd: Command, which: { gate?: boolean; from?: boolean } = {}): Command {
  cmd
    .option('-c, --config <file>', 'config file, or builtin for none (default: the nearest steward.yaml up to the repository root; demo/steward.yaml with --sandbox)')
    .option('--base-url <url>', 'instance base URL (overrides STEWARD_BASE_URL and instance.baseUrl)')
    .option('--workflow-url <url>', 'workflow API base URL (overrides STEWARD_WORKFLOW_URL and instance.workflowUrl)')
    .option('-p, --policies <path>', 'policy file or folder, "builtin" for the shipped pack (repeatable; replaces the config\'s)', collectRaw)
    .option('--only <id>', 'run only this policy (repeatable)', collectPolicyIds)
    .option('--skip <id>', 'leave out the policies this id or glob names (repeatable; `*`, `?`)', collectPolicyIds)
    .option('--severity <levels>', 'report only findings of these severities, e.g. high,critical (the gate then judges those; errors always show)', parseSeverities)
    .option('--framework <name>', 'run only the policies mapped to this framework (e.g. SOC2, ISO27001)')
    .option('--instance <name>', "check only this instance of the config's instances: (repeatable; default all)", collect);
  if (which.gate !== false) {
    cmd.option('--fail-on <level>', 'lowest severity that fails: info|low|medium|high|critical|none', parseFailOn);
    cmd.option('--override <policy=reason>', 'let a soft policy\'s violations not fail this run, recording why (repeatable)', collectRaw);
    cmd.option('--allow-empty', 'let a run that evaluated no resource pass (default: exit 2, and its report says error)');
  }
  cmd.option('--concurrency <n>', 'max concurrent requests (default 8)', parsePositiveInt(64));
  cmd.option('--timeout <duration>', 'deadline of the whole run, e.g. 90s, 30m, 2h (default 30m); past it: exit 3');
  if (which.from === false) {
    cmd.option('--sandbox', 'run against an in-process demo sandbox instance');
  } else {
    cmd
      .addOption(new Option('--sandbox', 'run against an in-process demo sandbox instance').conflicts('from'))
      .option('--from <file>', 'evaluate offline from a snapshot file (steward snapshot --out), or - for stdin');
  }
  return cmd.option('-v, --verbose', 'log every request on stderr (never the token)');
}

/**
 * Whether a run that evaluated nothing is refused (exit 2 for `check`, `fix` and `evidence`, its
 * report already saying error): an instance evaluated nothing and `--allow-empty` was not given.
 */
export function refusedAsEmpty(empty: readonly EmptyInstance[], flags: Pick<RunFlags, 'allowEmpty'>): boolean {
  return empty.length > 0 && !flags.allowEmpty;
}

/** --format and --output, for commands that print a report. */
export function addReportOptions(cmd: Command): Command {
  return cmd
    .option('-f, --format <format>', `report format on stdout: ${FORMATS.join('|')}`, formatParser(FORMATS), 'text')
    .option('-o, --output <format=path>', 'also write a report file (repeatable): FORMAT=PATH, or PATH whose extension names the format (steward.sarif, report.html)', outputParser(FORMATS))
    .option('--group-by <key>', `group findings in text, markdown and HTML by ${GROUP_BY.join('|')} (default policy; owner: the team of the owners: map, else the platform owner)`, parseGroupBy);
}
