// `steward validate [paths…]`: checks config, policies (schema + every expression), params,
// manifests and waivers without any request. Exit 0 when valid, 2 with file:line:column; the
// policies' likely mistakes that still compile are warnings on stderr, each at its place.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { summaryOf } from './summaries.js';

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description(summaryOf('validate'))
    .argument('[paths...]', 'policy files or folders (default: the config\'s policies)')
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root)')
    .option('-p, --policies <paths...>', 'policy files or folders (as the paths argument)')
    .action(async (given: string[], flags: { config?: string; policies?: string[] }) => (await import('./validate-run.js')).runValidate(ctx, given, flags));
}
