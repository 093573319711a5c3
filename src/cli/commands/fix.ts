// `steward fix` (DESIGN §10): evaluate like check, then print the plan of API calls that would
// fix what can be fixed. Its flags; what it does is fix-run.ts, loaded when it runs (`steward
// fix --help` loads no command body).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatParser, parsePositiveInt } from '../options.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { MAX_CHANGES_DEFAULT } from '../../library/startup.js';
import { summaryOf } from './summaries.js';

export interface FixFlags extends RunFlags {
  apply?: boolean;
  yes?: boolean;
  planOut?: string;
  plan?: string;
  journal?: string;
  maxChanges?: number;
  write?: boolean;
  includeOptIn?: boolean;
  format: 'text' | 'json';
}

export function registerFix(program: Command, ctx: CliContext): void {
  const cmd = program.command('fix').description(summaryOf('fix'));
  addRunOptions(cmd);
  cmd
    .option('--apply', 'send the planned requests (asks first on a terminal)')
    .option('-y, --yes', 'apply without asking')
    .option('--plan-out <file>', 'save the plan as JSON')
    .option('--plan <file>', 'use this saved plan instead of evaluating (refused if its manifests changed)')
    .option('--journal <file>', 'journal to append to (default .steward/journal-<time>.jsonl); if it exists, what it shows applied is not planned again')
    .option('--max-changes <n>', `refuse a plan with more changes, before anything is sent or written (default ${MAX_CHANGES_DEFAULT})`, parsePositiveInt(100_000))
    .option('--write', 'rewrite the manifest files to the fixed state (comments and layout kept)')
    .option('--include-opt-in', 'also plan opt-in fixes (dataset tags: the POST may replace the tag list)')
    .option('-f, --format <format>', 'plan format on stdout: text|json', formatParser(['text', 'json']), 'text')
    .action(async (flags: FixFlags) => (await import('./fix-run.js')).runFix(flags, ctx));
}
