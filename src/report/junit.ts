// `--format junit`: JUnit XML, as CI systems (GitLab, Jenkins, Azure, test-report actions) read
// it. One <testsuite> per policy, one <testcase> per evaluated resource (`policy.resourceIds`).
//
// - Violations on a resource → one <failure> listing all of them (type = the severity).
// - An evaluation error on a resource → <error> (the gate fails closed on it); the body also
//   lists the resource's violations, since JUnit readers expect one outcome per testcase.
// - Only waived findings → <skipped message="waived: …">. Skipped is the one outcome every CI
//   UI counts and shows next to passes and failures, so a waiver stays visible (never hidden)
//   without failing the build; a passing case with <system-out> would be buried.
// - A policy-level error (no resource could be evaluated) → an extra testcase named
//   POLICY_TESTCASE_NAME with <error>. Findings on a resource missing from resourceIds get a
//   testcase of their own, so no finding is dropped.
import { type Formatter, findingSubject, locationText, plural, severityRank } from './formatter.js';
import type { Finding, PolicyResult, Report } from './model.js';

export const POLICY_TESTCASE_NAME = '(policy)';

/** XML 1.0 text/attribute escaping. Characters XML 1.0 cannot carry at all become `\uXXXX`. */
export function escapeXml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Attribute values also keep their line breaks and tabs (a parser would fold them to spaces). */
function attr(s: string): string {
  return escapeXml(s).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function findingLine(f: Finding): string {
  const loc = locationText(f.location);
  const tag = f.status === 'violation' ? f.severity : f.status;
  return `[${tag}] ${findingSubject(f)}: ${f.message}${loc ? ` (${loc})` : ''}`;
}

interface Case {
  name: string;
  outcome: 'pass' | 'failure' | 'error' | 'skipped';
  xml: string;
}

function testcase(policy: PolicyResult, resourceId: string, findings: Finding[]): Case {
  const open = `    <testcase name="${attr(resourceId)}" classname="${attr(policy.id)}"`;
  const violations = findings.filter((f) => f.status === 'violation');
  const errors = findings.filter((f) => f.status === 'error');
  const waived = findings.filter((f) => f.status === 'waived');
  const body = [...errors, ...violations, ...waived].map(findingLine).join('\n');
  if (errors.length > 0) {
    const message = errors.length === 1 ? errors[0].message : `${plural(errors.length, 'error')} evaluating ${resourceId}`;
    return { name: resourceId, outcome: 'error', xml: `${open}>\n      <error message="${attr(message)}" type="evaluation-error">${escapeXml(body)}</error>\n    </testcase>` };
  }
  if (violations.length > 0) {
    const worst = [...violations].sort((a, b) => severityRank(a.severity) - severityRank(b.severity))[0];
    const message = violations.length === 1 ? violations[0].message : `${plural(violations.length, 'violation')} on ${resourceId}`;
    return { name: resourceId, outcome: 'failure', xml: `${open}>\n      <failure message="${attr(message)}" type="${worst.severity}">${escapeXml(body)}</failure>\n    </testcase>` };
  }
  if (waived.length > 0) {
    const w = waived[0].waiver;
    const why = w ? `waived: ${w.reason} (owner ${w.owner}, expires ${w.expires})` : 'waived';
    return { name: resourceId, outcome: 'skipped', xml: `${open}>\n      <skipped message="${attr(why)}">${escapeXml(body)}</skipped>\n    </testcase>` };
  }
  return { name: resourceId, outcome: 'pass', xml: `${open}/>` };
}

function suite(policy: PolicyResult, findings: Finding[]): { xml: string; counts: Record<Case['outcome'] | 'tests', number> } {
  const byResource = new Map<string, Finding[]>();
  for (const id of policy.resourceIds) byResource.set(id, []);
  for (const f of findings) {
    const list = byResource.get(f.resource.id) ?? [];
    list.push(f);
    byResource.set(f.resource.id, list);
  }
  const cases = [...byResource].map(([id, list]) => testcase(policy, id, list));
  if (policy.error) {
    const open = `    <testcase name="${POLICY_TESTCASE_NAME}" classname="${attr(policy.id)}"`;
    cases.push({ name: POLICY_TESTCASE_NAME, outcome: 'error', xml: `${open}>\n      <error message="${attr(policy.error)}" type="evaluation-error">${escapeXml(policy.error)}</error>\n    </testcase>` });
  }
  const count = (o: Case['outcome']) => cases.filter((c) => c.outcome === o).length;
  const counts = { tests: cases.length, pass: count('pass'), failure: count('failure'), error: count('error'), skipped: count('skipped') };
  const props = [
    ['title', policy.title],
    ['severity', policy.severity],
    ['resource', policy.resource],
    ['status', policy.status],
    ...(policy.location ? [['location', locationText(policy.location)]] : []),
  ]
    .map(([k, v]) => `      <property name="${k}" value="${attr(v)}"/>`)
    .join('\n');
  const head = `  <testsuite name="${attr(policy.id)}" tests="${counts.tests}" failures="${counts.failure}" errors="${counts.error}" skipped="${counts.skipped}">`;
  const xml = [head, `    <properties>\n${props}\n    </properties>`, ...cases.map((c) => c.xml), '  </testsuite>'].join('\n');
  return { xml, counts };
}

export const formatJunit: Formatter = (report: Report) => {
  const byPolicy = new Map<string, Finding[]>();
  for (const f of report.findings) byPolicy.set(f.policy, [...(byPolicy.get(f.policy) ?? []), f]);
  const suites = report.policies.map((p) => suite(p, byPolicy.get(p.id) ?? []));
  const total = (k: 'tests' | 'failure' | 'error' | 'skipped') => suites.reduce((n, s) => n + s.counts[k], 0);
  const time = (report.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="steward" tests="${total('tests')}" failures="${total('failure')}" errors="${total('error')}" skipped="${total('skipped')}" time="${time}" timestamp="${attr(report.startedAt)}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
};
