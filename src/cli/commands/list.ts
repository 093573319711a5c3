// `steward list`: every policy the config (or --policies) loads: id, severity, resource, title.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collectRaw, formatParser } from '../options.js';
import { summaryOf } from './summaries.js';

export function registerList(program: Command, ctx: CliContext): void {
  program
    .command('list')
    .description(summaryOf('list'))
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root)')
    .option('-p, --policies <path>', 'policy file or folder (repeatable)', collectRaw)
    .option('-f, --format <format>', 'text|json|ids (one id a line, for scripts and completion)', formatParser(['text', 'json', 'ids']), 'text')
    .action(async (flags: { config?: string; policies?: string[]; format: string }) => (await import('./list-run.js')).runList(ctx, flags));
}
