// The whole JUnit document of a small report, to the byte: each suite's properties (title,
// severity, resource, status, location, the partial-coverage note of its kind, the token note on
// the first suite only), its counts and timestamp, and each case. With several instances, one
// suite per instance and policy, named `instance/policy`.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { formatJunit } from '../../src/report/junit.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';
import { junitXsdProblems } from './junit-xsd.js';

function report(): Report {
  const base = makeReport({
    policies: [
      makePolicy({ id: 'p1', title: 'First', severity: 'high', resource: 'queue', status: 'fail', resourceIds: ['q1', 'q2'] }),
      makePolicy({ id: 'p2', title: 'Second', severity: 'low', resource: 'user', status: 'pass', resourceIds: ['u1'], location: null }),
    ],
    findings: [makeFinding({ policy: 'p1', severity: 'high', resource: { kind: 'queue', id: 'q1', name: 'Q one' }, path: null, message: 'bad queue', location: null })],
  });
  return {
    ...base,
    token: { id: '9', expires: '2026-03-10', daysLeft: 8, note: 'the token expires in 8 days' },
    coverage: [
      { kind: 'user', listed: 1, evaluated: 1, skippedPolicies: 0, completeWith: 'user.edit', partial: 'the search answered 200 of 250', accepted: true, blocking: false },
      { kind: 'queue', listed: 2, evaluated: 2, skippedPolicies: 0, completeWith: 'queue.admin', partial: null, accepted: false, blocking: false },
    ],
  } as Report;
}

describe('JUnit, exactly', () => {
  it('one suite per policy with its properties; the token note on the first, the partial note on the user suite', async () => {
    const xml = formatJunit(report(), { color: false });
    expect(await junitXsdProblems(xml)).toEqual([]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="steward" tests="3" failures="1" errors="0" time="2.345">',
        '  <testsuite name="p1" tests="2" failures="1" errors="0" skipped="0" time="0" timestamp="2026-03-02T09:15:00">',
        '    <properties>',
        '      <property name="title" value="First"/>',
        '      <property name="severity" value="high"/>',
        '      <property name="resource" value="queue"/>',
        '      <property name="status" value="fail"/>',
        '      <property name="location" value="policies/queues.yaml:3:5"/>',
        '      <property name="token" value="the token expires in 8 days"/>',
        '    </properties>',
        '    <testcase name="q1" classname="p1" time="0">',
        '      <failure message="bad queue" type="high">[high] queue/q1: bad queue</failure>',
        '    </testcase>',
        '    <testcase name="q2" classname="p1" time="0"/>',
        '  </testsuite>',
        '  <testsuite name="p2" tests="1" failures="0" errors="0" skipped="0" time="0" timestamp="2026-03-02T09:15:00">',
        '    <properties>',
        '      <property name="title" value="Second"/>',
        '      <property name="severity" value="low"/>',
        '      <property name="resource" value="user"/>',
        '      <property name="status" value="pass"/>',
        '      <property name="coverage" value="partial: user: the search answered 200 of 250 (1 listed; accepted by acceptPartialCoverage)"/>',
        '    </properties>',
        '    <testcase name="u1" classname="p2" time="0"/>',
        '  </testsuite>',
        '</testsuites>',
      ].join('\n') + '\n',
    );
  });

  it('several instances: one suite per instance and policy, named instance/policy, each instance with its own first-suite token note', async () => {
    const one = report();
    const stamp = (r: Report, instance: string): Report =>
      ({ ...r, policies: r.policies.map((p) => ({ ...p, instance })), findings: r.findings.map((f) => ({ ...f, instance })) }) as Report;
    const a = stamp(one, 'prod');
    const b = stamp(one, 'test');
    const run = (name: string) => ({ name, url: `https://${name}.example`, startedAt: one.startedAt, durationMs: 1000, failOn: one.failOn, summary: one.summary, http: one.http });
    // A third instance that evaluated no policy (merged from a run that selected none): no suite.
    const merged = { ...one, instance: ['prod', 'test', 'idle'], policies: [...a.policies, ...b.policies], findings: [...a.findings, ...b.findings], instances: [run('prod'), run('test'), run('idle')] } as unknown as Report;
    const xml = formatJunit(merged, { color: false });
    expect(await junitXsdProblems(xml)).toEqual([]);
    expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(['prod/p1', 'prod/p2', 'test/p1', 'test/p2']);
    // One instance named in `instances:` alone: its suites are named by policy, as without it.
    const single = { ...a, instances: [run('prod')] } as unknown as Report;
    expect([...formatJunit(single, { color: false }).matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(['p1', 'p2']);
  });

  it('errors, waivers and escaping: every outcome and every cleaned character, to the byte', async () => {
    const q = (id: string) => ({ kind: 'queue', id, name: null });
    const base = makeReport({
      policies: [
        makePolicy({ id: 'p1', title: 'T', severity: 'high', resource: 'queue', status: 'error', resourceIds: ['q1', 'q2', 'q3'], location: null, error: 'could not list queues' }),
      ],
      findings: [
        makeFinding({ policy: 'p1', status: 'error', severity: 'high', resource: q('q1'), path: null, location: null, message: 'first' }),
        makeFinding({ policy: 'p1', status: 'error', severity: 'high', resource: q('q1'), path: null, location: null, message: 'second' }),
        makeFinding({ policy: 'p1', status: 'violation', severity: 'high', resource: q('q1'), path: null, location: null, message: 'bad' }),
        makeFinding({ policy: 'p1', status: 'waived', severity: 'high', resource: q('q2'), path: null, location: null, message: 'ok', waiver: undefined }),
        // A lone high and a lone low surrogate, a whole pair, a control character, CR and tab.
        makeFinding({ policy: 'p1', status: 'violation', severity: 'high', resource: q('q3'), path: null, location: null, message: 'a\uD800b x\uDC00 \uD83D\uDE00 \u0001 r\rt\t' }),
      ],
    });
    // The kind without a partial listing comes first: its note must not move to the next kind.
    const r = {
      ...base,
      coverage: [
        { kind: 'user', listed: 1, evaluated: 1, skippedPolicies: 0, completeWith: 'user.edit', partial: null, accepted: false, blocking: false },
        { kind: 'queue', listed: 3, evaluated: 3, skippedPolicies: 0, completeWith: 'queue.admin', partial: 'the list answered 3 of 4', accepted: true, blocking: false },
      ],
    } as Report;
    const xml = formatJunit(r, { color: false });
    expect(await junitXsdProblems(xml)).toEqual([]);
    expect(xml.split('\n').slice(1, -1)).toEqual([
      '<testsuites name="steward" tests="4" failures="1" errors="2" time="2.345">',
      '  <testsuite name="p1" tests="4" failures="1" errors="2" skipped="1" time="0" timestamp="2026-03-02T09:15:00">',
      '    <properties>',
      '      <property name="title" value="T"/>',
      '      <property name="severity" value="high"/>',
      '      <property name="resource" value="queue"/>',
      '      <property name="status" value="error"/>',
      '      <property name="coverage" value="partial: queue: the list answered 3 of 4 (3 listed; accepted by acceptPartialCoverage)"/>',
      '    </properties>',
      '    <testcase name="q1" classname="p1" time="0">',
      '      <error message="2 errors evaluating q1" type="evaluation-error">[error] queue/q1: first',
      '[error] queue/q1: second',
      '[high] queue/q1: bad</error>',
      '    </testcase>',
      '    <testcase name="q2" classname="p1" time="0">',
      '      <skipped message="waived">[waived] queue/q2: ok</skipped>',
      '    </testcase>',
      '    <testcase name="q3" classname="p1" time="0">',
      '      <failure message="a\uFFFDb x\uFFFD \uD83D\uDE00 \\u0001 r&#13;t&#9;" type="high">[high] queue/q3: a\uFFFDb x\uFFFD \uD83D\uDE00 \\u0001 r\rt\t</failure>',
      '    </testcase>',
      '    <testcase name="(policy)" classname="p1" time="0">',
      '      <error message="could not list queues" type="evaluation-error">could not list queues</error>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
    ]);
  });

  it('a report without policies is an empty document, not a crash', async () => {
    const xml = formatJunit(makeReport({ policies: [], findings: [] }), { color: false });
    expect(await junitXsdProblems(xml)).toEqual([]);
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="steward" tests="0" failures="0" errors="0" time="2.345">\n</testsuites>\n');
  });
});
