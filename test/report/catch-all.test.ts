// A catch-all waiver (resource `*`) can hide a critical finding: every format warns about it.
import { describe, expect, it } from 'vitest';
import type { Report, WaiverRef } from '../../src/core/model.js';
import { formatReport } from '../../src/report/index.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';
import { junitXsdProblems } from './junit-xsd.js';
import { reportValidator, sarifValidator } from './schema-validators.js';

const CATCH_ALL: WaiverRef = {
  policy: 'queue-no-admin-for-users',
  resource: '*',
  reason: 'too noisy',
  owner: 'someone@acme.example',
  expires: '2027-06-30',
  location: { file: 'waivers.yaml', line: 4, column: 5 },
};

function report(): Report {
  const policy = makePolicy({ id: 'queue-no-admin-for-users', severity: 'critical', status: 'pass', evaluated: 1, violations: 0, resourceIds: ['q-1'] });
  const finding = makeFinding({ policy: policy.id, severity: 'critical', status: 'waived', waiver: CATCH_ALL, resource: { kind: 'queue', id: 'q-1', name: null } });
  const base = makeReport({ policies: [policy], findings: [finding] });
  return { ...base, waivers: { expired: [], stale: [], catchAll: [CATCH_ALL], active: [CATCH_ALL], expiring: [] } };
}

const WARNING =
  'Waiver queue-no-admin-for-users * waives every resource of queue-no-admin-for-users, including resources created later (owner someone@acme.example, until 2027-06-30); name the resources instead.';

describe('a catch-all waiver is warned about in every format', () => {
  it('text and markdown list it under its own heading', () => {
    const text = formatReport('text', report(), { color: false });
    expect(text).toContain('Catch-all waivers (every resource of the policy, including future ones):');
    expect(text).toMatch(/queue-no-admin-for-users \* until 2027-06-30 \(someone@acme\.example\)/);
    const md = formatReport('markdown', report(), { color: false });
    expect(md).toContain('**Catch-all waivers (every resource of the policy, including future ones)**\n\n- queue-no-admin-for-users \\* until 2027-06-30 (someone\\@acme.example) at `waivers.yaml:4:5`');
  });

  it('json lists it in waivers.catchAll and validates against the schema', () => {
    const json = JSON.parse(formatReport('json', report(), { color: false })) as Report;
    expect(json.waivers.catchAll).toEqual([CATCH_ALL]);
    expect(reportValidator()(json)).toEqual([]);
  });

  it('sarif: a warning notification at the waiver; github: a warning annotation at the waiver', () => {
    const sarif = JSON.parse(formatReport('sarif', report(), { color: false }));
    expect(sarifValidator()(sarif)).toEqual([]);
    const notes = sarif.runs[0].invocations[0].toolConfigurationNotifications;
    expect(notes).toContainEqual(
      expect.objectContaining({ level: 'warning', descriptor: { id: 'waiver-catch-all' }, message: { text: WARNING } }),
    );
    const github = formatReport('github', report(), { color: false });
    expect(github.split('\n')[0]).toBe(`::warning file=waivers.yaml,line=4,col=5,title=catch-all waiver::${WARNING}`);
  });

  it('junit: the waived testcase says it was waived by a catch-all waiver', async () => {
    const xml = formatReport('junit', report(), { color: false });
    expect(await junitXsdProblems(xml)).toEqual([]);
    expect(xml).toContain('message="waived by a catch-all waiver (every resource of the policy): too noisy (owner someone@acme.example, expires 2027-06-30)"');
  });
});
