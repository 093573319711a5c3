// `steward doctor`: checks the connection, the grants and the scope ids the selected policies
// need, one cheap request each, and prints what to do about each that is not ok. Exit 0 when
// every check is ok, 3 otherwise, 2 on bad input.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect, collectPolicyIds, formatParser } from '../options.js';
import type { RunFlags } from '../run-options.js';
import { summaryOf } from './summaries.js';

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description(summaryOf('doctor'))
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root; demo/steward.yaml with --sandbox)')
    .option('--base-url <url>', 'instance base URL (overrides STEWARD_BASE_URL and instance.baseUrl)')
    .option('--workflow-url <url>', 'workflow API base URL (overrides STEWARD_WORKFLOW_URL and instance.workflowUrl)')
    .option('--only <id>', 'check only what this policy needs (repeatable)', collectPolicyIds)
    .option('--instance <name>', "check this instance of the config's instances: (one)", collect)
    .option('--sandbox', 'check an in-process demo sandbox instance')
    .option('-f, --format <format>', 'text|json', formatParser(['text', 'json']), 'text')
    .action(async (flags: RunFlags & { format: string }) => (await import('./doctor-run.js')).runDoctor(ctx, flags));
}
