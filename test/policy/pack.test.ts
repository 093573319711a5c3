// The built-in pack: loads against the fixture registry, has exactly the documented ids, and every
// policy's own tests pass through the runner (which also fails a wrong expectation).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPolicyTestResults, runPolicyTests } from '../../src/engine/policy-tests.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { builtinPolicyDir, loadPolicies } from '../../src/policy/loader.js';
import { KINDS } from '../fixtures/kinds.js';

const IDS = [
  'no-misconfigured-schedules',
  'schedule-timezone-valid',
  'enabled-schedules-have-recipients',
  'certified-datasets-need-owner-group',
  'datasets-have-an-owner',
  'scheduled-cards-certification-current',
  'queue-no-admin-for-users',
  'queue-entries-grant-something',
  'data-files-not-public',
  'data-files-no-admin-grant',
  'calculated-fields-valid',
  'calculated-fields-links-valid',
  'fileset-files-sha256',
  'workflows-are-named',
  'queue-permissions-match-manifest',
  'data-file-permissions-match-manifest',
  // People and their reach (policies/identity.yaml) and owner liveness per content kind.
  'custom-roles-no-admin-grants',
  'admins-at-most',
  'access-tokens-short-lived',
  'access-tokens-not-expired',
  'access-tokens-owner-active',
  'groups-have-members',
  'groups-have-owners',
  'users-not-dormant',
  'invitations-not-stale',
  'report-schedules-owner-active',
  'datasets-owner-active',
  'cards-owner-active',
  'queues-owner-active',
  'data-files-owner-active',
  'fileset-files-owner-active',
  'workflows-owner-active',
  // Who can see what (policies/sharing.yaml).
  'pages-share-through-groups',
  'cards-share-through-groups',
  'pages-owner-active',
  'datasets-pdp-where-wide',
  'datasets-pdp-open-policy-narrow',
  'datasets-pdp-no-departed-users',
  'accounts-share-edit-through-groups',
  'accounts-owner-active',
  'fileset-files-edit-through-groups',
  'workflows-edit-through-groups',
  'certification-requests-current',
  'certified-datasets-certification-current',
  'page-sharing-matches-manifest',
  'card-sharing-matches-manifest',
];

describe('built-in pack', async () => {
  const policies = await loadPolicies(['builtin'], { kinds: KINDS });

  it('`builtin` is the repository policies/ folder', () => {
    expect(builtinPolicyDir()).toBe(path.resolve('policies'));
  });

  it('has exactly the documented policies, each described and tagged', () => {
    expect(policies.map((p) => p.id).sort()).toEqual([...IDS].sort());
    for (const p of policies) {
      expect(p.description.length, p.id).toBeGreaterThan(60);
      expect(p.tags.length, p.id).toBeGreaterThan(0);
      expect(p.location.file).toMatch(/^policies\/[a-z-]+\.yaml$/);
    }
  });

  it('every policy has a passing and a failing test case, and all pass', () => {
    for (const p of policies) {
      expect(p.tests.some((t) => t.violations === 0), p.id).toBe(true);
      expect(p.tests.some((t) => t.violations > 0), p.id).toBe(true);
    }
    const results = runPolicyTests(policies.map((p) => compilePolicy(p)));
    const failed = results.filter((r) => !r.passed);
    expect(failed, formatPolicyTestResults(failed)).toEqual([]);
    expect(results.length).toBe(policies.reduce((n, p) => n + p.tests.length, 0));
    expect(formatPolicyTestResults(results)).toMatch(new RegExp(`\\n${results.length} passed, 0 failed\\n$`));
  });

  it('a wrong expectation fails with expected, actual and where the test is', () => {
    const policy = policies.find((p) => p.id === 'queue-no-admin-for-users')!;
    const wrong = { ...policy, tests: [{ ...policy.tests[0], violations: 0 }] };
    const [result] = runPolicyTests([compilePolicy(wrong)]);
    expect(result).toMatchObject({ policy: 'queue-no-admin-for-users', passed: false, expected: 0, actual: 1 });
    expect(result.messages).toEqual(['User Ana (7) holds ADMIN on queue q1']);
    expect(result.location).toEqual({ file: 'policies/queues.yaml', line: 20, column: 9 });
    expect(formatPolicyTestResults([result])).toBe(
      'FAIL queue-no-admin-for-users › user admin is caught (policies/queues.yaml:20:9)\n' +
        '     expected 0 violation(s), got 1: User Ana (7) holds ADMIN on queue q1\n0 passed, 1 failed\n',
    );
  });

  it('a test whose document makes the expression fail is a failed test with the error', () => {
    const policy = policies.find((p) => p.id === 'schedule-timezone-valid')!;
    const broken = { ...policy, tests: [{ ...policy.tests[0], resource: { id: 1, title: 'x' }, violations: 0 }] };
    const [result] = runPolicyTests([compilePolicy(broken)]);
    expect(result.passed).toBe(false);
    expect(result.error).toBe('policy schedule-timezone-valid: assert: field not found: schedule');
  });
});
