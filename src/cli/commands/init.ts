// `steward init [dir]`: writes the starter files. It never overwrites: if any target exists,
// nothing is written and the command exits 2 naming them and saying how to go on.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { warn } from '../io.js';
import { INIT_FILES } from '../init-templates.js';
import { displayPath } from '../../library/index.js';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a starter steward.yaml, an example policy, a waivers file and a GitHub workflow')
    .argument('[dir]', 'directory to write into', '.')
    .action((dir: string) => {
      const root = path.resolve(ctx.io.cwd, dir);
      const targets = Object.keys(INIT_FILES).map((rel) => path.join(root, rel));
      const existing = targets.filter((t) => existsSync(t));
      if (existing.length > 0) {
        // Not an input problem of a run: say which files are in the way and how to proceed.
        warn(ctx.io, ...existing.map((t) => `${displayPath(t, ctx.io.cwd)}: already exists`));
        warn(
          ctx.io,
          `steward init: nothing was written (init never overwrites): remove ${existing.length === 1 ? 'that file' : 'those files'} or run \`steward init <another directory>\``,
        );
        ctx.exitCode = 2;
        return;
      }
      for (const [rel, text] of Object.entries(INIT_FILES)) {
        const target = path.join(root, rel);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
        ctx.io.stdout.write(`wrote ${displayPath(target, ctx.io.cwd)}\n`);
      }
      ctx.io.stdout.write('\nNext: set STEWARD_TOKEN, edit steward.yaml, then run `steward check`.\n');
      ctx.exitCode = 0;
    });
}
