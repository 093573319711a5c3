// `steward snapshot --out FILE`: a run whose every API answer is recorded into one JSON file
// (never a token or a header), for `steward check --from FILE`. Exit 0 when recorded, 3 when
// some read failed (the failure is recorded too), 2 on bad input.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { summaryOf } from './summaries.js';

export function registerSnapshot(program: Command, ctx: CliContext): void {
  const cmd = program.command('snapshot').description(summaryOf('snapshot'));
  // Recording needs no gate (--fail-on) and reads the live instance (not --from).
  addRunOptions(cmd, { gate: false, from: false });
  cmd.requiredOption('--out <file>', 'snapshot file to write').action(async (flags: RunFlags & { out: string }) => (await import('./snapshot-run.js')).runSnapshot(ctx, flags));
}
