// `steward test [paths…]`: runs the `tests` of every policy. One line per test, then
// `N passed, N failed` alone on the last line; exit 1 when a test fails, 2 on bad input.
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { formatPolicyTestResults, runPolicyTests } from '../../engine/policy-tests.js';
import { loadPolicies } from '../../policy/loader.js';
import { RESOURCE_KINDS } from '../../resources/index.js';
import type { CliContext } from '../context.js';

export function registerTest(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description("run the policies' own tests (no API calls)")
    .argument('[paths...]', "policy files or folders (default: the config's policies)")
    .option('-c, --config <file>', 'config file (default: ./steward.yaml)')
    .action(async (paths: string[], flags: { config?: string }) => {
      const { io } = ctx;
      const policyPaths =
        paths.length > 0 ? paths : loadConfig({ configPath: flags.config, cwd: io.cwd, env: io.env }).policies;
      const policies = await loadPolicies(policyPaths, { kinds: RESOURCE_KINDS, cwd: io.cwd });
      const results = runPolicyTests(policies);
      io.stdout.write(formatPolicyTestResults(results));
      ctx.exitCode = results.some((r) => !r.passed) ? 1 : 0;
    });
}
