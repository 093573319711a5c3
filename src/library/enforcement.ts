// Enforcement levels and overrides: the config's `enforcement.<id>` wins over the policy file's
// level, and `--override POLICY="reason"` lets a soft policy's violations not fail this run.
// Every refusal is bad input before any request.
import type { Config } from '../config/index.js';
import type { Override } from '../core/model.js';
import type { InputProblem } from '../core/problem.js';
import type { PolicyDefinition } from '../policy/types.js';
import { didYouMean } from '../policy/suggest.js';

/** The policies with their effective level; problems for levels naming no policy. */
export function withEnforcement(
  policies: PolicyDefinition[],
  config: Config,
  checkIds: boolean,
): { policies: PolicyDefinition[]; problems: InputProblem[] } {
  const ids = new Set(policies.map((p) => p.id));
  const problems: InputProblem[] = [];
  for (const [id, { location }] of Object.entries(config.enforcement)) {
    if (checkIds && policies.length > 0 && !ids.has(id)) {
      problems.push({ ...location, message: `enforcement: no policy with id "${id}"${didYouMean(id, ids)}` });
    }
  }
  const leveled = policies.map((p) => {
    const level = config.enforcement[p.id]?.level;
    return level ? { ...p, enforcement: level } : p;
  });
  return { policies: leveled, problems };
}

/** `POLICY=reason` → an Override; the text after the first `=` is the reason. */
export function parseOverride(text: string): Override {
  const at = text.indexOf('=');
  return at < 0 ? { policy: text.trim(), reason: '' } : { policy: text.slice(0, at).trim(), reason: text.slice(at + 1).trim() };
}

/** Problems of the run's overrides: each must name a soft policy of the run, with a reason. */
export function overrideProblems(overrides: readonly Override[], policies: readonly PolicyDefinition[], where: string): InputProblem[] {
  const byId = new Map(policies.map((p) => [p.id, p]));
  const problem = (message: string): InputProblem => ({ file: where, line: 0, column: 0, message });
  return overrides.flatMap((o) => {
    const policy = byId.get(o.policy);
    if (!policy) return [problem(`no policy with id "${o.policy}"${didYouMean(o.policy, new Set(byId.keys()))}`)];
    if (o.reason === '') return [problem(`${o.policy}: an override needs a reason: ${where} ${o.policy}="why this run may pass"`)];
    if (policy.enforcement === 'hard') return [problem(`${o.policy} is hard: it cannot be overridden (only soft policies can)`)];
    if (policy.enforcement === 'advisory') return [problem(`${o.policy} is advisory: it never fails the gate, there is nothing to override`)];
    return [];
  });
}
