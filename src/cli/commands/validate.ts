// `steward validate [paths…]`: checks config, policies (schema + every expression), params,
// manifests and waivers without any request. Exit 0 when valid, 2 with file:line:column; the
// policies' likely mistakes that still compile are warnings on stderr, each at its place.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { summaryOf } from './summaries.js';

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description(summaryOf('validate'))
    .argument('[paths...]', 'policy files or folders (default: the config\'s policies)')
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root)')
    .option('-p, --policies <paths...>', 'policy files or folders (as the paths argument)')
    .action(async (given: string[], flags: { config?: string; policies?: string[] }) => {
      // Loaded here: `steward validate --help` loads no command body.
      const [{ formatProblem, RESOURCE_MANIFEST_INPUTS, validate }, { chosenConfig }] = await Promise.all([import('../../library/index.js'), import('../config-choice.js')]);
      const paths = [...given, ...(flags.policies ?? [])];
      // Without a config or paths, validating the built-in pack alone would say "valid" about nothing of the user's.
      const prepared = await validate({
        config: chosenConfig({ config: flags.config, policies: paths }, ctx.io),
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        policies: paths.length > 0 ? paths : undefined,
      });
      const { config } = prepared;
      const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
      const parts = [
        count(prepared.policies.length, 'policy', 'policies'),
        // One count per kind declared in manifests (the registry names them).
        ...RESOURCE_MANIFEST_INPUTS.map((m) => count(config.manifestFiles[m.key]?.length ?? 0, `${m.description.replace(/ /g, '-')} manifest`)),
        count(prepared.waivers.length, 'waiver'),
      ];
      warn(ctx.io, prepared.warnings.map((w) => `steward: warning: ${formatProblem(w)}`));
      const warned = prepared.warnings.length > 0 ? ` (${count(prepared.warnings.length, 'warning')})` : '';
      print(ctx.io, `valid: ${parts.join(', ')}${warned}\n`);
      ctx.exitCode = 0;
    });
}
