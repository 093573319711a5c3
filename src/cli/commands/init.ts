// `steward init [dir]`: writes the starter files. It never overwrites: if any target exists,
// nothing is written and the command exits 2 naming them.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { displayPath } from '../../config/index.js';
import { InputError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { INIT_FILES } from '../init-templates.js';

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
        throw new InputError(
          existing.map((t) => ({ file: displayPath(t, ctx.io.cwd), line: 0, column: 0, message: 'already exists; init never overwrites, nothing was written' })),
        );
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
