// `steward test` renders every violation's message (a message that cannot render fails its
// test with the template error) and names the policies that have no tests, without failing.
import { describe, expect, it } from 'vitest';
import { formatPolicyTestResults, runPolicyTests } from '../../src/engine/policy-tests.js';
import { compileAll } from '../../src/policy/compile.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';

const load = (text: string) => {
  const { policies, problems } = parsePolicyText(text, 'p.yaml', { kinds: RESOURCE_KINDS });
  expect(problems).toEqual([]);
  return compileAll(policies, RESOURCE_KINDS);
};

const POLICIES = `policies:
  - id: workflows-are-named
    title: Workflows are named
    severity: low
    resource: workflow
    assert: "resource.name != ''"
    message: "Workflow {{ resource.nope.deeper }} has no name"
    tests:
      - name: an unnamed workflow is caught
        resource: { id: w1, name: "" }
        violations: 1
      - name: a named workflow passes
        resource: { id: w2, name: Ingest }
        violations: 0
  - id: workflows-have-an-id
    title: Workflows have an id
    severity: info
    resource: workflow
    assert: "resource.id != ''"
`;

describe('runPolicyTests', () => {
  it('a violation whose message cannot render fails its test with the template error', () => {
    const results = runPolicyTests(load(POLICIES));
    expect(results.map((r) => [r.name, r.passed, r.actual, r.error])).toEqual([
      ['an unnamed workflow is caught', false, 1, 'policy workflows-are-named: message: field not found: nope'],
      ['a named workflow passes', true, 0, undefined],
    ]);
    expect(results.untested).toEqual(['workflows-have-an-id']);
    expect(formatPolicyTestResults(results)).toBe(
      'FAIL workflows-are-named › an unnamed workflow is caught (p.yaml:9:9)\n' +
        '     policy workflows-are-named: message: field not found: nope\n' +
        'ok   workflows-are-named › a named workflow passes\n' +
        'no tests: workflows-have-an-id\n' +
        '1 passed, 1 failed\n',
    );
  });

  it('a policy without tests is a warning line only: the run still passes', () => {
    const fixed = POLICIES.replace('{{ resource.nope.deeper }}', '{{ resource.id }}');
    const results = runPolicyTests(load(fixed));
    expect(results.every((r) => r.passed)).toBe(true);
    expect(results[0].messages).toEqual(['Workflow w1 has no name']);
    expect(formatPolicyTestResults(results).split('\n').slice(-3)).toEqual(['no tests: workflows-have-an-id', '2 passed, 0 failed', '']);
  });
});
