// `steward notify --from REPORT.json [--dry-run]`: sends what the run that wrote the report would
// have sent to the config's `notify:` channels (for pipelines that check in one job and notify in
// another); --dry-run prints each message instead (no URL, no key).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { summaryOf } from './summaries.js';

export function registerNotify(program: Command, ctx: CliContext): void {
  program
    .command('notify')
    .description(summaryOf('notify'))
    .requiredOption('--from <report>', 'a JSON report written by `steward check --format json` (or --output json=…)')
    .option('-c, --config <file>', 'config file naming the channels (default: the nearest steward.yaml up to the repository root)')
    .option('--dry-run', 'print the messages instead of sending them')
    .action(async (flags: { from: string; config?: string; dryRun?: boolean }) => (await import('./notify-run.js')).runNotify(ctx, flags));
}
