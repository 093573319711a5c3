// `steward explain POLICY RESOURCE`: why a policy passes or fails on one resource: the fields
// it reads, each expression node by node with its value, and for what came out false the value
// that would have passed. Same flags as check for reaching the instance (or --sandbox, --from).
// Its flags; what it does, and the text of an explanation, are explain-run.ts.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatParser } from '../options.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { summaryOf } from './summaries.js';

export function registerExplain(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('explain')
    .description(summaryOf('explain'))
    .argument('<policy>', 'policy id (see `steward list`)')
    .argument('<resource>', 'resource id');
  addRunOptions(cmd, { gate: false });
  cmd.option('-f, --format <format>', 'text|json', formatParser(['text', 'json']), 'text').action(async (policy: string, resource: string, flags: RunFlags & { format: string }) => (await import('./explain-run.js')).runExplain(ctx, policy, resource, flags));
}
