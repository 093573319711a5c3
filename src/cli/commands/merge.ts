// `steward merge REPORT.json…`: the JSON reports of a fan-out (one job per instance) as one report
// (library/merge.ts), written like check's (--format, --output FORMAT=PATH, --group-by) and
// exiting like check on it: 3 when an instance is in error, 1 when one fails, else 0.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect, parseFailOn, type OutputTarget } from '../options.js';
import { addReportOptions } from '../run-options.js';
import type { FailOn } from '../../library/startup.js';
import type { GroupBy } from '../../report/format-names.js';
import { summaryOf } from './summaries.js';

export function registerMerge(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('merge')
    .description(summaryOf('merge'))
    .argument('[reports...]', 'JSON reports written by `steward check --format json` (or --output json=…)')
    .option('--fail-on <level>', "judge the merged report at this severity (default: each report's own)", parseFailOn)
    .option('--allow-same-instance', 'merge reports of one instance taken at different times (refused by default: their union is neither run)')
    .option('--expect <names>', 'the instances the merge must hold (comma list): one without a report makes it exit 3', collect)
    .option('--allow-empty', 'let an instance whose report shows no resource evaluated pass (refused by default, as check refuses the run)');
  addReportOptions(cmd);
  cmd.action(async (files: string[], flags: { failOn?: FailOn; allowSameInstance?: boolean; expect?: string[]; allowEmpty?: boolean; format?: string; output?: OutputTarget[]; groupBy?: GroupBy }) => (await import('./merge-run.js')).runMerge(ctx, files, flags));
}
