// CONTRIBUTING's recipes hold: a kind declared in one module (test/fixtures/recipes.ts) is
// collected, typed in its policies and judged over real HTTP once it is in a registry, and a
// formatter in one module renders the report; no other file needed editing for either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { runPolicies } from '../../src/engine/run.js';
import { buildReport } from '../../src/engine/verdict.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { checkPolicyText } from '../../src/policy/policy-set.js';
import { emptyScope, RESOURCE_KINDS } from '../../src/resources/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { expiringToken, formatTsv } from '../fixtures/recipes.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const kinds = { ...RESOURCE_KINDS, expiringToken };

describe('the recipes', () => {
  it('a kind is its declaration plus a registry line: policies are type-checked against it and judged', async () => {
    const text = `policies:
  - id: tokens-last-a-week
    title: Tokens last at least a week
    description: A token that expires within a week breaks the runs that use it unannounced.
    severity: medium
    resource: expiringToken
    assert: resource.daysLeft >= 7
`;
    const { policies, problems } = parsePolicyText(text, 'tokens.yaml', { kinds });
    expect(problems).toEqual([]);
    // The kind's document schema types the expressions: a field it does not have is an input problem.
    expect(checkPolicyText(text.replace('daysLeft >= 7', 'daysLft >= 7'), 'tokens.yaml', { kinds }).map((p) => p.message)).toEqual([
      "unknown field 'daysLft' of expiringToken (did you mean 'daysLeft'?)",
    ]);
    const api = createClient({ baseUrl: sandbox.baseUrl, token: sandbox.token });
    const scope = { ...emptyScope(), discover: { expiringTokens: { exclude: [] } } };
    const run = await runPolicies({ policies: policies.map((p) => compilePolicy(p, { kinds })), api, kinds, scope, manifestFiles: {}, displayRoot: '.', now: new Date() });
    const tokens = sandbox.state.people.accessTokens;
    const soon = tokens.filter((t) => Math.floor((t.expires - Date.now()) / 86_400_000) < 7).map((t) => String(t.id)).sort();
    expect(run.findings.map((f) => f.resource.id).sort()).toEqual(soon);
    expect(run.results[0]).toMatchObject({ status: soon.length > 0 ? 'fail' : 'pass', evaluated: tokens.length });

    // A format is one pure function over the report.
    const report = buildReport({ run, failOn: 'low', instance: sandbox.baseUrl, toolVersion: '0.0.0', startedAt: new Date(), durationMs: 1, http: api.stats() });
    expect(formatTsv(report, { color: false }).trimEnd().split('\n')).toEqual(report.findings.map((f) => `tokens-last-a-week\tmedium\tviolation\texpiringToken/${f.resource.id}\t${f.message}`));
  });
});
