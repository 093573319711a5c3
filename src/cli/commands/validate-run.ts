// What `steward validate` does (its flags are validate.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { formatProblem, RESOURCE_MANIFEST_INPUTS, validate } from '../../library/index.js';
import { chosenConfig } from '../config-choice.js';
import { print, warn } from '../io.js';

export async function runValidate(ctx: CliContext, given: string[], flags: { config?: string; policies?: string[] }): Promise<void> {
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
}
