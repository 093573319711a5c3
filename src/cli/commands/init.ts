// `steward init [dir]`: writes the starter files. It never overwrites: if any target exists,
// nothing is written and the command exits 2 naming them and saying how to go on. It writes
// only regular files inside the target: a symlink on the way (a dangling one, a linked
// `.github`) is refused the same way, so nothing is ever written outside it.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { summaryOf } from './summaries.js';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description(summaryOf('init'))
    .argument('[dir]', 'directory to write into', '.')
    .action(async (dir: string) => (await import('./init-run.js')).runInit(ctx, dir));
}
