// `steward notify --from REPORT.json [--dry-run]`: sends what the run that wrote the report would
// have sent to the config's `notify:` channels (for pipelines that check in one job and notify in
// another); --dry-run prints each message instead (no URL, no key).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { summaryOf } from './summaries.js';

export function registerNotify(program: Command, ctx: CliContext): void {
  program
    .command('notify')
    .description(summaryOf('notify'))
    .requiredOption('--from <report>', 'a JSON report written by `steward check --format json` (or --output json=…)')
    .option('-c, --config <file>', 'config file naming the channels (default: the nearest steward.yaml up to the repository root)')
    .option('--dry-run', 'print the messages instead of sending them')
    .action(async (flags: { from: string; config?: string; dryRun?: boolean }) => {
      const { io } = ctx;
      // Loaded here: `steward notify --help` loads no command body.
      const [{ notifyFrom }, { chosenConfig }] = await Promise.all([import('../../library/without-policies.js'), import('../config-choice.js')]);
      const outcome = await notifyFrom({ from: flags.from, config: chosenConfig({ config: flags.config }, io), cwd: io.cwd, env: io.env, dryRun: flags.dryRun });
      if (flags.dryRun) print(io, `${JSON.stringify(outcome.planned, null, 2)}\n`);
      warn(io, outcome.warnings.map((w) => `steward: ${w}`));
      for (const r of outcome.records) if (!flags.dryRun) print(io, `${r.type} (${r.destination}): ${r.sent ? `sent, ${r.items} changes` : `not sent: ${r.error}`}\n`);
      // A channel that could not be reached is a warning, as in check: the report's verdict stands.
      ctx.exitCode = 0;
    });
}
