// `--format junit`: JUnit XML, as CI systems (GitLab, Jenkins, Azure, test-report actions) read
// it. One <testsuite> per policy, one <testcase> per evaluated resource (`policy.resourceIds`).
//
// - Violations on a resource → one <failure> listing all of them (type = the severity).
// - An evaluation error on a resource → <error> (the gate fails closed on it); the body also
//   lists the resource's violations, since JUnit readers expect one outcome per testcase.
// - Only waived findings → <skipped message="waived: …">. Skipped is the one outcome every CI
//   UI counts and shows next to passes and failures, so a waiver stays visible (never hidden)
//   without failing the build; a passing case with <system-out> would be buried.
// - A policy-level error (no resource could be evaluated), or a run-wide stop that left the
//   policy nothing judged (a run that evaluated nothing) → an extra testcase named
//   POLICY_TESTCASE_NAME with <error>. Findings on a resource missing from resourceIds get a
//   testcase of their own, so no finding is dropped.
import { perInstance } from './instances.js';
import { type Formatter, findingSubject, locationText, plural, severityRank, partialCoverageNotes, stoppedNote } from './formatter.js';
import type { Finding, PolicyResult, Report } from '../core/model.js';
import { matchesEverything } from '../core/glob.js';

export const POLICY_TESTCASE_NAME = '(policy)';

/** XML 1.0 text/attribute escaping. Characters XML 1.0 cannot carry at all become `\uXXXX`. */
export function escapeXml(s: string): string {
  return s
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
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

/** `<name a="1">body</name>`, or self-closing without a body; attribute values escaped. */
export function element(name: string, attrs: Record<string, string | number>, body?: string): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
    .join('');
  return body === undefined ? `<${name}${a}/>` : `<${name}${a}>${body}</${name}>`;
}

function findingLine(f: Finding): string {
  const loc = locationText(f.location);
  const tag = f.status === 'violation' ? f.severity : f.status;
  return `[${tag}] ${findingSubject(f)}: ${f.message}${loc ? ` (${loc})` : ''}`;
}

type Outcome = 'pass' | 'failure' | 'error' | 'skipped';

interface Case {
  outcome: Outcome;
  xml: string;
}

function testcase(classname: string, name: string, outcome: Outcome, child?: string): Case {
  // Time is measured per run, not per policy or resource: 0 keeps consumers from computing NaN.
  const attrs = { name, classname, time: '0' };
  const xml = child
    ? `    ${element('testcase', attrs, `\n      ${child}\n    `)}`
    : `    ${element('testcase', attrs)}`;
  return { outcome, xml };
}

/** A waived finding stays a skipped case even beside a violation of the same resource. */
function resourceCases(policy: PolicyResult, resourceId: string, findings: Finding[]): Case[] {
  const waived = findings.filter((f) => f.status === 'waived');
  const open = findings.filter((f) => f.status !== 'waived');
  if (waived.length === 0 || open.length === 0) return [resourceCase(policy, resourceId, findings)];
  return [resourceCase(policy, resourceId, open), resourceCase(policy, `${resourceId} (waived)`, waived)];
}

function resourceCase(policy: PolicyResult, resourceId: string, findings: Finding[]): Case {
  const violations = findings.filter((f) => f.status === 'violation');
  const errors = findings.filter((f) => f.status === 'error');
  const waived = findings.filter((f) => f.status === 'waived');
  const body = escapeXml([...errors, ...violations, ...waived].map(findingLine).join('\n'));
  if (errors.length > 0) {
    const message =
      errors.length === 1
        ? errors[0].message
        : `${plural(errors.length, 'error')} evaluating ${resourceId}`;
    const child = element('error', { message, type: 'evaluation-error' }, body);
    return testcase(policy.id, resourceId, 'error', child);
  }
  if (violations.length > 0) {
    const worst = [...violations].sort(
      (a, b) => severityRank(a.severity) - severityRank(b.severity),
    )[0];
    const message =
      violations.length === 1
        ? violations[0].message
        : `${plural(violations.length, 'violation')} on ${resourceId}`;
    const child = element('failure', { message, type: worst.severity }, body);
    return testcase(policy.id, resourceId, 'failure', child);
  }
  if (waived.length > 0) {
    const w = waived[0].waiver;
    const by = w && matchesEverything(w.resource) ? 'waived by a catch-all waiver (every resource of the policy)' : 'waived';
    const message = w ? `${by}: ${w.reason} (owner ${w.owner}, expires ${w.expires})` : 'waived';
    return testcase(policy.id, resourceId, 'skipped', element('skipped', { message }, body));
  }
  return testcase(policy.id, resourceId, 'pass');
}

type Counts = Record<Outcome | 'tests', number>;

function suite(policy: PolicyResult, findings: Finding[], timestamp: string, partial: string | undefined, token?: string, instance?: string, stopped?: string | null): { xml: string; counts: Counts } {
  const byResource = new Map<string, Finding[]>();
  for (const id of policy.resourceIds) byResource.set(id, []);
  for (const f of findings) {
    const list = byResource.get(f.resource.id) ?? [];
    list.push(f);
    byResource.set(f.resource.id, list);
  }
  const cases = [...byResource].flatMap(([id, list]) => resourceCases(policy, id, list));
  // A run-wide stop (a refused token, the deadline, a run that evaluated nothing) that left the
  // policy nothing judged is its error too: a reader counting errors never takes the run as clean.
  const stop = !policy.error && stopped && policy.resourceIds.length === 0 && findings.length === 0 ? stopped : null;
  const error = policy.error ?? stop;
  if (error) {
    const child = element('error', { message: error, type: stop ? 'run-stopped' : 'evaluation-error' }, escapeXml(error));
    cases.push(testcase(policy.id, POLICY_TESTCASE_NAME, 'error', child));
  }
  const count = (o: Outcome) => cases.filter((c) => c.outcome === o).length;
  const counts: Counts = {
    tests: cases.length,
    pass: count('pass'),
    failure: count('failure'),
    error: count('error'),
    skipped: count('skipped'),
  };
  const props = [
    ['title', policy.title],
    ['severity', policy.severity],
    ['resource', policy.resource],
    ['status', policy.status],
    ...(policy.location ? [['location', locationText(policy.location)]] : []),
    // The kind's listing is known to be partial: what the suite's result does not cover.
    ...(partial ? [['coverage', `partial: ${partial}`]] : []),
    ...(token ? [['token', token]] : []),
  ].map(([name, value]) => `      ${element('property', { name, value })}`);
  const head = element('testsuite', {
    // Several instances: one suite per instance and policy, named so.
    name: instance ? `${instance}/${policy.id}` : policy.id,
    tests: counts.tests,
    failures: counts.failure,
    errors: counts.error,
    skipped: counts.skipped,
    time: '0',
    timestamp,
  }).replace(/\/>$/, '>');
  const xml = [
    `  ${head}`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...cases.map((c) => c.xml),
    '  </testsuite>',
  ].join('\n');
  return { xml, counts };
}

/** The suites of one instance's report (`instance` names them when the report holds several). */
function suitesOf(report: Report, instance: string | undefined): ReturnType<typeof suite>[] {
  const byPolicy = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = byPolicy.get(f.policy) ?? [];
    list.push(f);
    byPolicy.set(f.policy, list);
  }
  // junit-10.xsd: a suite's timestamp is a local date-time without zone (the run's start, UTC).
  const timestamp = report.startedAt.slice(0, 19);
  const notes = partialCoverageNotes(report);
  const partialOf = new Map((report.coverage ?? []).filter((c) => c.partial !== null).map((c, i) => [c.kind, notes[i]]));
  // The token note rides on the first suite (junit-10.xsd gives <testsuites> no properties).
  const stopped = stoppedNote(report);
  return report.policies.map((p, i) => suite(p, byPolicy.get(p.id) ?? [], timestamp, partialOf.get(p.resource), i === 0 ? report.token?.note : undefined, instance, stopped));
}

export const formatJunit: Formatter = (report: Report) => {
  const parts = perInstance(report);
  const suites = parts.flatMap((r) => suitesOf(r, parts.length > 1 ? r.policies[0]?.instance : undefined));
  const total = (k: keyof Counts) => suites.reduce((n, s) => n + s.counts[k], 0);
  const head = element('testsuites', {
    name: 'steward',
    tests: total('tests'),
    failures: total('failure'),
    errors: total('error'),
    time: (report.durationMs / 1000).toFixed(3),
  }).replace(/\/>$/, '>');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    head,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
};
