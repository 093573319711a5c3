// `steward test`: --quiet keeps the failures and the summary; --format json and junit for
// machines; -p/--policies names files as the paths argument does (validate takes it too).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';

function policyFile(): string {
  const dir = tempDir('steward-tests-');
  writeFileSync(
    path.join(dir, 'p.yaml'),
    `policies:
  - id: named
    title: Workflows are named
    description: A test policy with one test that passes and one that does not.
    severity: low
    resource: workflow
    assert: has(resource.name) && resource.name != ''
    tests:
      - name: an empty name is caught
        resource: { id: w1, name: "" }
        violations: 1
      - name: wrongly expects a violation
        resource: { id: w2, name: ok }
        violations: 1
`,
  );
  return dir;
}

describe('steward test', () => {
  it('--quiet prints the failures and the summary only', async () => {
    const dir = policyFile();
    const loud = await runCli(['test', 'p.yaml'], { cwd: dir });
    const quiet = await runCli(['--quiet', 'test', '-p', 'p.yaml'], { cwd: dir });
    expect([loud.code, quiet.code]).toEqual([1, 1]);
    expect(loud.stdout).toContain('ok   named › an empty name is caught');
    expect(quiet.stdout).toBe('FAIL named › wrongly expects a violation (p.yaml:12:9)\n     expected 1 violation(s), got 0\n1 passed, 1 failed\n');
  });

  it('--format json and --format junit say the same', async () => {
    const dir = policyFile();
    const json = JSON.parse((await runCli(['test', 'p.yaml', '--format', 'json'], { cwd: dir })).stdout);
    expect(json).toMatchObject({ passed: 1, failed: 1, untested: [] });
    expect(json.results.map((r: { name: string; passed: boolean }) => [r.name, r.passed])).toEqual([
      ['an empty name is caught', true],
      ['wrongly expects a violation', false],
    ]);
    const xml = (await runCli(['test', 'p.yaml', '--format', 'junit'], { cwd: dir })).stdout;
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(await junitXsdProblems(xml)).toEqual([]);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '2', failures: '1' });
    expect(doc.testsuites.testsuite.testcase[1].failure).toMatchObject({ message: 'expected 1 violation(s), got 0', type: 'policy-test' });
  });

  it('validate -p checks the named files', async () => {
    const dir = policyFile();
    const r = await runCli(['validate', '-p', 'p.yaml'], { cwd: dir });
    expect([r.code, r.stdout]).toEqual([0, 'valid: 1 policy, 0 card-sharing manifests, 0 queue manifests, 0 data-file manifests, 0 page-sharing manifests, 0 waivers\n']);
  });
});
