// `steward validate [paths…]`: checks config, policies (schema + every expression), params,
// manifests and waivers without any request. Exit 0 when valid, 2 with file:line:column.
import type { Command } from 'commander';
import { prepareRun } from '../../library/run.js';
import type { CliContext } from '../context.js';

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check the config, policies, manifests and waivers without calling the API')
    .argument('[paths...]', 'policy files or folders (default: the config\'s policies)')
    .option('-c, --config <file>', 'config file (default: ./steward.yaml)')
    .action(async (paths: string[], flags: { config?: string }) => {
      const prepared = await prepareRun({
        config: flags.config,
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        policies: paths.length > 0 ? paths : undefined,
      });
      const { config } = prepared;
      const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
      const parts = [
        count(prepared.policies.length, 'policy', 'policies'),
        count(config.manifestFiles.queues.length, 'queue manifest'),
        count(config.manifestFiles.dataFiles.length, 'data-file manifest'),
        count(prepared.waivers.length, 'waiver'),
      ];
      ctx.io.stdout.write(`valid: ${parts.join(', ')}\n`);
      ctx.exitCode = 0;
    });
}
