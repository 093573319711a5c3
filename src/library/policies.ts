// The library calls that need no instance: list the policies, run their own tests, validate
// every input. Each reads the config the same way a run does.
import { loadConfig } from '../config/index.js';
import { type PolicyTestRun, runPolicyTests } from '../engine/policy-tests.js';
import { loadCompiledPolicies } from '../policy/policy-set.js';
import type { PolicyDefinition } from '../policy/types.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import { InputError } from '../core/problem.js';
import { noPoliciesProblem, type PreparedRun, prepareRun } from './prepare.js';

export interface PolicySource {
  /** steward.yaml; default ./steward.yaml if present. */
  config?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Policy files or folders instead of the config's `policies`. */
  policies?: string[];
}

/** The policies the config (or `policies`) names, loaded and checked. */
export async function listPolicies(source: PolicySource = {}): Promise<PolicyDefinition[]> {
  const cwd = source.cwd ?? process.cwd();
  const config = loadConfig({ configPath: source.config, cwd, env: source.env, overrides: { policies: source.policies } });
  return (await loadCompiledPolicies(config.policies, { kinds: RESOURCE_KINDS, cwd })).map((p) => {
    const pack = config.policySources[p.def.pathIndex ?? -1];
    return pack ? { ...p.def, source: pack } : p.def;
  });
}

/** Runs every policy's `tests` (no API call); `untested` names the policies without tests. */
export async function testPolicies(source: PolicySource = {}): Promise<PolicyTestRun> {
  const cwd = source.cwd ?? process.cwd();
  const named = source.policies && source.policies.length > 0 ? source.policies : null;
  const config = named ? null : loadConfig({ configPath: source.config, cwd, env: source.env });
  const policies = await loadCompiledPolicies(named ?? config!.policies, { kinds: RESOURCE_KINDS, cwd });
  // No policy, no test: "0 passed, 0 failed" would pass a CI step that tested nothing (a path
  // typo, an empty folder). Bad input, as validate and check say it.
  if (policies.length === 0) throw new InputError([noPoliciesProblem(config ?? named!)]);
  return runPolicyTests(policies);
}

/** Config, policies, manifests and waivers validated without any request (InputError when not). */
export function validate(source: PolicySource = {}): Promise<PreparedRun> {
  return prepareRun(source);
}
