// `steward test [paths…]`: runs the `tests` of every policy. One line per test, then
// `N passed, N failed` alone on the last line; exit 1 when a test fails, 2 on bad input.
import { type Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { summaryOf } from './summaries.js';

export function registerTest(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description(summaryOf('test'))
    .argument('[paths...]', "policy files or folders (default: the config's policies)")
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root)')
    .option('-p, --policies <paths...>', 'policy files or folders (as the paths argument)')
    .addOption(new Option('-f, --format <format>', 'text (default), json, or junit (CI test panels)').choices(['text', 'json', 'junit']).default('text'))
    .action(async (paths: string[], flags: { config?: string; policies?: string[]; format: 'text' | 'json' | 'junit' }) => (await import('./test-run.js')).runTest(ctx, paths, flags));
}
