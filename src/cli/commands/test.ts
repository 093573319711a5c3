// `steward test [paths…]`: runs the `tests` of every policy. One line per test, then
// `N passed, N failed` alone on the last line; exit 1 when a test fails, 2 on bad input.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatPolicyTestResults, testPolicies } from '../../library/index.js';
import { print } from '../io.js';

export function registerTest(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description("run the policies' own tests (no API calls)")
    .argument('[paths...]', "policy files or folders (default: the config's policies)")
    .option('-c, --config <file>', 'config file (default: ./steward.yaml)')
    .action(async (paths: string[], flags: { config?: string }) => {
      const { io } = ctx;
      const results = await testPolicies({ config: flags.config, cwd: io.cwd, env: io.env, policies: paths });
      print(io, formatPolicyTestResults(results));
      ctx.exitCode = results.some((r) => !r.passed) ? 1 : 0;
    });
}
