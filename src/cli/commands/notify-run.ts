// What `steward notify` does (its flags are notify.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { chosenConfig } from '../config-choice.js';
import { print, warn } from '../io.js';
import { notifyFrom } from '../../library/without-policies.js';

export async function runNotify(ctx: CliContext, flags: { from: string; config?: string; dryRun?: boolean }): Promise<void> {
  const { io } = ctx;
  const outcome = await notifyFrom({ from: flags.from, config: chosenConfig({ config: flags.config }, io), cwd: io.cwd, env: io.env, dryRun: flags.dryRun });
  if (flags.dryRun) print(io, `${JSON.stringify(outcome.planned, null, 2)}\n`);
  warn(io, outcome.warnings.map((w) => `steward: ${w}`));
  for (const r of outcome.records) if (!flags.dryRun) print(io, `${r.type} (${r.destination}): ${r.sent ? `sent, ${r.items} changes` : `not sent: ${r.error}`}\n`);
  // A channel that could not be reached is a warning, as in check: the report's verdict stands.
  ctx.exitCode = 0;
}
