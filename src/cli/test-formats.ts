// `steward test --format json|junit`: the policy tests' results for machines (CI test panels
// read JUnit), beside the text form the engine renders.
import type { PolicyTestResult } from '../library/index.js';
import { element, escapeXml } from '../report/junit.js';

type Results = readonly PolicyTestResult[] & { untested?: readonly string[] };

export function policyTestsJson(results: Results): string {
  const failed = results.filter((r) => !r.passed).length;
  const out = {
    passed: results.length - failed,
    failed,
    untested: [...(results.untested ?? [])],
    results: results.map((r) => ({ policy: r.policy, name: r.name, passed: r.passed, expected: r.expected, actual: r.actual, messages: r.messages, error: r.error ?? null, location: r.location })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** One suite per policy, one case per test; a failed test carries its reason and location. */
export function policyTestsJunit(results: Results): string {
  const byPolicy = new Map<string, PolicyTestResult[]>();
  for (const r of results) (byPolicy.get(r.policy) ?? byPolicy.set(r.policy, []).get(r.policy)!).push(r);
  const suites = [...byPolicy].map(([policy, tests]) => {
    const failures = tests.filter((t) => !t.passed).length;
    const cases = tests.map((t) => {
      const at = `${t.location.file}:${t.location.line}:${t.location.column}`;
      if (t.passed) return `    ${element('testcase', { classname: policy, name: t.name, time: '0' })}`;
      const why = t.error ?? `expected ${t.expected} violation(s), got ${t.actual}`;
      return `    ${element('testcase', { classname: policy, name: t.name, time: '0' }, element('failure', { message: why, type: 'policy-test' }, escapeXml(`${why}\n${at}`)))}`;
    });
    return [`  ${element('testsuite', { name: policy, tests: tests.length, failures, errors: 0, time: '0' }).replace(/\/>$/, '>')}`, ...cases, '  </testsuite>'].join('\n');
  });
  const failed = results.filter((r) => !r.passed).length;
  return ['<?xml version="1.0" encoding="UTF-8"?>', element('testsuites', { name: 'steward policy tests', tests: results.length, failures: failed, errors: 0 }).replace(/\/>$/, '>'), ...suites, '</testsuites>', ''].join('\n');
}
