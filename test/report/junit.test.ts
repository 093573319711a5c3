import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXml, formatJunit } from '../../src/report/junit.js';
import { makeFinding, makePassingReport, makePolicy, makeReport } from '../fixtures/report.js';
import { junitXsdProblems } from './junit-xsd.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true, // decode numeric references such as &#10;
  isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
});

// biome-ignore lint/suspicious/noExplicitAny: parsed XML has no static shape
type Node = Record<string, any>;

/** The document's root, once it is well-formed and valid against junit-10.xsd. */
async function parse(xml: string): Promise<Node> {
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(await junitXsdProblems(xml)).toEqual([]);
  return parser.parse(xml).testsuites;
}

function suiteNamed(root: Node, name: string): Node {
  return root.testsuite.find((s: Node) => s.name === name);
}

describe('junit format', () => {
  it('writes one suite per policy and one testcase per evaluated resource, with counts', async () => {
    const root = await parse(formatJunit(makeReport(), { color: false }));
    expect(root).toMatchObject({
      name: 'steward',
      tests: '14',
      failures: '5',
      errors: '1',
      time: '2.345',
    });
    // junit-10.xsd: no skipped or timestamp on <testsuites>; timestamp (no zone) and time on
    // every <testsuite>, time on every <testcase>.
    expect(root.skipped).toBeUndefined();
    expect(root.timestamp).toBeUndefined();
    for (const s of root.testsuite as Node[]) {
      expect([s.timestamp, s.time]).toEqual(['2026-03-02T09:15:00', '0']);
      for (const c of s.testcase as Node[]) expect(c.time).toBe('0');
    }
    expect(
      root.testsuite.map((s: Node) => [s.name, s.tests, s.failures, s.errors, s.skipped]),
    ).toEqual([
      ['queue-no-admin-for-users', '3', '1', '0', '1'],
      ['data-file-not-public', '2', '1', '0', '0'],
      ['schedule-not-misconfigured', '4', '2', '0', '0'],
      ['certified-dataset-has-owner-group', '2', '0', '1', '0'],
      ['card-certified', '2', '0', '0', '0'],
      ['workflow-has-description', '1', '1', '0', '0'],
    ]);
    const queue = suiteNamed(root, 'queue-no-admin-for-users');
    expect(queue.testcase.map((c: Node) => c.name)).toEqual([
      'q-finance-intake',
      'q-ops-triage',
      'q-hr-onboarding',
    ]);
    expect(queue.testcase[0].failure).toMatchObject({
      type: 'high',
      message: 'User Ana Ruiz (7) holds ADMIN on queue q-finance-intake',
    });
    expect(queue.testcase[1].skipped.message).toBe(
      'waived: break-glass account, reviewed quarterly (owner governance@acme.example, expires 2027-03-31)',
    );
    expect(queue.testcase[2].failure).toBeUndefined();
    const dataset = suiteNamed(root, 'certified-dataset-has-owner-group');
    expect(dataset.testcase[1]).toMatchObject({
      name: 'ds-2',
      classname: 'certified-dataset-has-owner-group',
    });
    expect(dataset.testcase[1].error.type).toBe('evaluation-error');
  });

  it('puts several violations on one resource in one failure', async () => {
    const report = makeReport({
      policies: [makePolicy({ resourceIds: ['q1'] })],
      findings: [
        makeFinding({
          resource: { kind: 'queue', id: 'q1', name: null },
          path: 'permissions[0]',
          message: 'first',
        }),
        makeFinding({
          resource: { kind: 'queue', id: 'q1', name: null },
          path: 'permissions[2]',
          message: 'second',
          severity: 'critical',
        }),
      ],
    });
    const root = await parse(formatJunit(report, { color: false }));
    const c = root.testsuite[0].testcase[0];
    expect(root.testsuite[0]).toMatchObject({ tests: '1', failures: '1' });
    expect(c.failure.message).toBe('2 violations on q1');
    expect(c.failure.type).toBe('critical');
    expect(c.failure['#text']).toBe(
      '[high] queue/q1 permissions[0]: first (permissions/queues/finance-intake.yaml:3:5)\n' +
        '[critical] queue/q1 permissions[2]: second (permissions/queues/finance-intake.yaml:3:5)',
    );
  });

  it('adds a policy testcase for a policy-level error and keeps findings on unlisted resources', async () => {
    const report = makeReport({
      policies: [
        makePolicy({ status: 'error', error: 'GET /api/queues answered 503', resourceIds: [] }),
      ],
      findings: [makeFinding({ resource: { kind: 'queue', id: 'q9', name: null } })],
    });
    const root = await parse(formatJunit(report, { color: false }));
    expect(root.testsuite[0]).toMatchObject({ tests: '2', failures: '1', errors: '1' });
    expect(root.testsuite[0].testcase.map((c: Node) => c.name)).toEqual(['q9', '(policy)']);
    expect(root.testsuite[0].testcase[1].error.message).toBe('GET /api/queues answered 503');
  });

  it('a stopped run gives each policy it left unjudged a policy testcase with a run-stopped error, and no other', async () => {
    const report = makeReport({
      policies: [
        makePolicy({ status: 'pass', resourceIds: [] }),
        makePolicy({ id: 'judged', status: 'pass', resourceIds: ['q1'] }),
        makePolicy({ id: 'failed', status: 'error', error: 'GET /api/queues answered 503', resourceIds: [] }),
        makePolicy({ id: 'unlisted', status: 'fail', resourceIds: [] }),
      ],
      findings: [makeFinding({ policy: 'unlisted', resource: { kind: 'queue', id: 'q9', name: null } })],
    });
    report.summary.gate = 'error';
    report.stoppedBy = [{ cause: 'the run evaluated nothing (no queue resources were found)', advice: 'name some in scope' }];
    const suites = (await parse(formatJunit(report, { color: false }))).testsuite as Node[];
    const cases = suites.map((s) => s.testcase.map((c: Node) => [c.name, c.error?.type ?? null, c.error?.message ?? null]));
    expect(cases).toEqual([
      [['(policy)', 'run-stopped', 'the run evaluated nothing (no queue resources were found): name some in scope.']],
      [['q1', null, null]],
      [['(policy)', 'evaluation-error', 'GET /api/queues answered 503']],
      [['q9', null, null]],
    ]);
    delete report.stoppedBy;
    expect((await parse(formatJunit(report, { color: false }))).testsuite[0].testcase).toBeUndefined();
  });

  it('escapes markup and control characters so the XML stays well-formed', async () => {
    const nasty = `a <b> & "c" 'd' \u0007bell\u0000nul\u001b[31m\nnext`;
    const report = makeReport({
      policies: [makePolicy({ id: 'p<&>', title: nasty, resourceIds: ['r"1'] })],
      findings: [
        makeFinding({
          policy: 'p<&>',
          resource: { kind: 'queue', id: 'r"1', name: null },
          message: nasty,
        }),
      ],
    });
    const xml = formatJunit(report, { color: false });
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const root = await parse(xml);
    const c = root.testsuite[0].testcase[0];
    expect(root.testsuite[0].name).toBe('p<&>');
    expect(c.name).toBe('r"1');
    expect(c.failure.message).toBe(`a <b> & "c" 'd' \\u0007bell\\u0000nul\\u001b[31m\nnext`);
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
  });

  it('libxml2 with junit-10.xsd refuses what the format leaves out, so the documents above passed a real check', async () => {
    const xml = formatJunit(makePassingReport(), { color: false });
    const wrong = xml.replace('<testsuites ', '<testsuites skipped="0" ').replace(/(<testsuite [^>]*) errors="0"/, '$1');
    expect(await junitXsdProblems(wrong)).toEqual([
      "report.xml:2: Schemas validity error : Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed.",
      "report.xml:3: Schemas validity error : Element 'testsuite': The attribute 'errors' is required but missing.",
    ]);
  });

  it('a clean run has no failures', async () => {
    const root = await parse(formatJunit(makePassingReport(), { color: false }));
    expect(root).toMatchObject({ tests: '14', failures: '0', errors: '0' });
  });

  it('a waived finding is a skipped testcase even when the same resource also has a violation', async () => {
    const policy = makePolicy({ id: 'p', resourceIds: ['q-1'] });
    const waiver = { policy: 'p', resource: 'q-1', item: '15', reason: 'break glass', owner: 'gov', expires: '2099-01-01' };
    const report = makeReport({
      policies: [policy],
      findings: [
        makeFinding({ policy: 'p', resource: { kind: 'queue', id: 'q-1', name: null }, path: 'permissions[0]', message: 'user 7 holds ADMIN' }),
        makeFinding({ policy: 'p', resource: { kind: 'queue', id: 'q-1', name: null }, path: 'permissions[2]', status: 'waived', waiver, message: 'user 15 holds ADMIN' }),
      ],
    });
    const suite = (await parse(formatJunit(report, { color: false }))).testsuite[0] as Node;
    expect([suite.tests, suite.failures, suite.skipped]).toEqual(['2', '1', '1']);
    expect(suite.testcase.map((c: Node) => [c.name, c.failure ? 'failure' : c.skipped ? 'skipped' : 'pass'])).toEqual([
      ['q-1', 'failure'],
      ['q-1 (waived)', 'skipped'],
    ]);
    expect(suite.testcase[1].skipped.message).toBe('waived: break glass (owner gov, expires 2099-01-01)');
  });

  it('a resource with both an evaluation error and a violation is an <error> (the gate fails closed), listing both', async () => {
    const policy = makePolicy({ id: 'p', resourceIds: ['q-1'] });
    const queue = { kind: 'queue', id: 'q-1', name: null } as const;
    const report = makeReport({
      policies: [policy],
      findings: [
        makeFinding({ policy: 'p', resource: queue, path: 'permissions[0]', message: 'user 7 holds ADMIN' }),
        makeFinding({ policy: 'p', resource: queue, path: 'permissions[1]', status: 'error', message: 'no such key: permissions' }),
      ],
    });
    const suite = (await parse(formatJunit(report, { color: false }))).testsuite[0] as Node;
    expect([suite.tests, suite.failures, suite.errors]).toEqual(['1', '0', '1']);
    const [testcase] = suite.testcase as Node[];
    expect(testcase.failure).toBeUndefined();
    expect(testcase.error.message).toBe('no such key: permissions');
    expect(testcase.error.type).toBe('evaluation-error');
    expect(testcase.error['#text']).toContain('user 7 holds ADMIN');
  });
});
