// `steward evidence --out DIR`: a check run written as a verifiable evidence pack;
// `steward verify DIR`: every hash checked and the run re-evaluated offline (exit 0 when all
// match, 1 naming each file or finding that differs). Their flags; what they do is
// evidence-run.ts, loaded when one runs.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { summaryOf } from './summaries.js';

export function registerEvidence(program: Command, ctx: CliContext): void {
  const cmd = program.command('evidence').description(summaryOf('evidence'));
  addRunOptions(cmd, { from: false });
  cmd
    .requiredOption('--out <dir>', 'new directory for the pack')
    .option('--baseline <file>', 'fail only on findings not in this baseline (the pack keeps it)')
    .action(async (flags: RunFlags & { out: string }) => (await import('./evidence-run.js')).runEvidence(ctx, flags));
}

export function registerVerify(program: Command, ctx: CliContext): void {
  program
    .command('verify')
    .description(summaryOf('verify'))
    .argument('<dir>', 'the pack (steward evidence --out DIR)')
    .action(async (dir: string) => (await import('./evidence-run.js')).runVerify(ctx, dir));
}
