// `steward check`: evaluate, report, exit 0/1/2/3 (DESIGN §4, §9). Its flags; what it does is
// check-run.ts, loaded when it runs (`steward check --help` loads no command body).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addReportOptions, addRunOptions, type RunFlags } from '../run-options.js';
import { InvalidArgumentError } from 'commander';
import { summaryOf } from './summaries.js';

/** `--explain POLICY:RESOURCE` (a policy id holds no colon; a resource id may). */
function parseExplainTarget(value: string): { policy: string; resource: string } {
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError('expected POLICY:RESOURCE, e.g. schedule-timezone-valid:9004.');
  return { policy: value.slice(0, at), resource: value.slice(at + 1) };
}

export function registerCheck(program: Command, ctx: CliContext): void {
  const cmd = program.command('check').description(summaryOf('check'));
  addRunOptions(cmd);
  addReportOptions(cmd);
  cmd
    .option('--baseline <file>', 'fail only on findings not in this baseline')
    .option('--write-baseline <file>', "record this run's findings as the baseline")
    .option('--history [file]', "record the run in this history and report each finding as new, open or reopened (bare: .steward/history.sqlite beside the config; default: the config's history)")
    .option('--print-config', 'print the resolved config, each setting with where it came from, and exit (no request)')
    .option('--no-notify', "send no notification this run (the config's notify: stays for the next)")
    .option('--explain <policy:resource>', 'after the report, explain this policy on this resource (as `steward explain`)', parseExplainTarget)
    .action(async (flags: RunFlags & { printConfig?: boolean; notify?: boolean; explain?: { policy: string; resource: string } }) => (await import('./check-run.js')).runCheck(ctx, flags));
}
