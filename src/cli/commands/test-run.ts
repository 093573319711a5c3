// What `steward test` does (its flags are test.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { formatPolicyTestResults, testPolicies } from '../../library/index.js';
import { chosenConfig } from '../config-choice.js';
import { print } from '../io.js';
import { policyTestsJson, policyTestsJunit } from '../test-formats.js';

export async function runTest(ctx: CliContext, paths: string[], flags: { config?: string; policies?: string[]; format: 'text' | 'json' | 'junit' }): Promise<void> {
  const { io } = ctx;
  const policies = [...paths, ...(flags.policies ?? [])];
  const results = await testPolicies({ config: chosenConfig({ config: flags.config, policies }, io), cwd: io.cwd, env: io.env, policies });
  const render = { text: () => formatPolicyTestResults(results, { quiet: io.quiet }), json: () => policyTestsJson(results), junit: () => policyTestsJunit(results) };
  print(io, render[flags.format]());
  ctx.exitCode = results.some((r) => !r.passed) ? 1 : 0;
}
