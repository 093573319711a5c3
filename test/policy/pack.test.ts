// The built-in pack: loads against the fixture registry, has exactly the documented ids, and every
// policy's own tests pass through the runner (which also fails a wrong expectation).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPolicyTestResults, runPolicyTests } from '../../src/engine/policy-tests.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { builtinPolicyDir, loadPolicies } from '../../src/policy/loader.js';
import { KINDS } from '../fixtures/kinds.js';

/**
 * The policy ids the README's table of the built-in pack documents (its first column: one or
 * more backticked ids a row), in the order it lists them: the one list of the pack's ids.
 */
function documentedIds(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('### The built-in pack (`policies/`)');
  expect(start, 'README: no section "The built-in pack"').toBeGreaterThan(-1);
  const rows = readme.slice(start).split('\n\n')[1].split('\n').slice(2);
  return rows.flatMap((row) => [...row.split(' | ')[0].matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]));
}

describe('built-in pack', async () => {
  const policies = await loadPolicies(['builtin'], { kinds: KINDS });

  it('`builtin` is the repository policies/ folder', () => {
    expect(builtinPolicyDir()).toBe(path.resolve('policies'));
  });

  it('has exactly the policies the README documents, each described and tagged', () => {
    const documented = documentedIds();
    expect(new Set(documented).size, 'README lists an id twice').toBe(documented.length);
    expect(policies.map((p) => p.id).sort()).toEqual(documented.sort());
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
