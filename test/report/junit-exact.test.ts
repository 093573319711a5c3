// The whole JUnit document of a small report, to the byte: each suite's properties (title,
// severity, resource, status, location, the partial-coverage note of its kind, the token note on
// the first suite only), its counts and timestamp, and each case. With several instances, one
// suite per instance and policy, named `instance/policy`.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { formatJunit } from '../../src/report/junit.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

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
  it('one suite per policy with its properties; the token note on the first, the partial note on the user suite', () => {
    expect(formatJunit(report(), { color: false })).toBe(
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

  it('several instances: one suite per instance and policy, named instance/policy, each instance with its own first-suite token note', () => {
    const one = report();
    const stamp = (r: Report, instance: string): Report =>
      ({ ...r, policies: r.policies.map((p) => ({ ...p, instance })), findings: r.findings.map((f) => ({ ...f, instance })) }) as Report;
    const a = stamp(one, 'prod');
    const b = stamp(one, 'test');
    const run = (name: string) => ({ name, url: `https://${name}.example`, startedAt: one.startedAt, durationMs: 1000, failOn: one.failOn, summary: one.summary, http: one.http });
    const merged = { ...one, instance: ['prod', 'test'], policies: [...a.policies, ...b.policies], findings: [...a.findings, ...b.findings], instances: [run('prod'), run('test')] } as unknown as Report;
    const xml = formatJunit(merged, { color: false });
    expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(['prod/p1', 'prod/p2', 'test/p1', 'test/p2']);
  });
});
