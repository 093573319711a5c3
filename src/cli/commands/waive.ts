// `steward waive --from REPORT.json`: starter waivers for today's violations, appended to the
// waivers file (the config's `waivers`, else ./waivers.yaml) with comments kept.
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect } from '../options.js';
import { InputError } from '../../library/startup.js';
import { print } from '../io.js';
import { summaryOf } from './summaries.js';

interface WaiveFlags {
  from: string;
  owner: string;
  reason: string;
  expires: string;
  waivers?: string;
  config?: string;
  policy?: string[];
  approver?: string;
  ticket?: string;
  risk?: string;
}

export function registerWaive(program: Command, ctx: CliContext): void {
  program
    .command('waive')
    .description(summaryOf('waive'))
    .requiredOption('--from <report>', 'JSON report (`steward check --format json`), or - for stdin')
    .requiredOption('--owner <who>', 'owner of the waivers')
    .requiredOption('--reason <text>', 'why the violations are accepted for now')
    .requiredOption('--expires <YYYY-MM-DD>', 'the day the waivers stop applying')
    .option('--waivers <file>', "waivers file to append to (default: the config's, else waivers.yaml)")
    .option('-c, --config <file>', 'config file naming the waivers file (default: the nearest steward.yaml up to the repository root)')
    .option('--policy <id>', 'only violations of this policy (repeatable)', collect)
    .option('--approver <who>', 'who approved them')
    .option('--ticket <id>', 'the ticket recording them')
    .option('--risk <level>', 'low|medium|high')
    .action(async (flags: WaiveFlags) => {
      const { io } = ctx;
      if (flags.risk !== undefined && !['low', 'medium', 'high'].includes(flags.risk)) {
        throw new InputError([{ file: '--risk', line: 0, column: 0, message: `must be low, medium or high; got "${flags.risk}"` }]);
      }
      // Loaded here: `steward waive --help` loads no command body.
      const { displayPath, loadConfig, waive } = await import('../../library/without-policies.js');
      const config = loadConfig({ configPath: flags.config, cwd: io.cwd, env: io.env });
      const file = flags.waivers ? path.resolve(io.cwd, flags.waivers) : (config.waiversFile ?? path.resolve(io.cwd, 'waivers.yaml'));
      const extra = Object.fromEntries(
        (['approver', 'ticket', 'risk'] as const).filter((k) => flags[k] !== undefined).map((k) => [k, flags[k] as string]),
      );
      const result = waive({
        report: flags.from === '-' ? '-' : path.resolve(io.cwd, flags.from),
        waivers: file,
        shown: (f) => displayPath(f, io.cwd),
        owner: flags.owner,
        reason: flags.reason,
        expires: flags.expires,
        extra,
        policies: flags.policy,
        rules: config.waiverRules,
      });
      const skipped = result.alreadyWaived ? ` (${result.alreadyWaived} already waived)` : '';
      print(io, `appended ${result.added.length} waiver${result.added.length === 1 ? '' : 's'} to ${displayPath(file, io.cwd)}${skipped}\n`);
      ctx.exitCode = 0;
    });
}
