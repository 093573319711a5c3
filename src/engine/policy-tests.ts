// `steward test`: runs every policy's `tests` (a resource document, optional params, the
// expected number of violations) through the same evaluation as a real run.
import { compilePolicy } from '../policy/compile.js';
import type { PolicyDefinition } from '../policy/types.js';
import type { SourceLocation } from '../report/model.js';
import { evaluateDocument } from './evaluate.js';

export interface PolicyTestResult {
  policy: string;
  name: string;
  passed: boolean;
  expected: number;
  actual: number;
  /** Set when evaluating the test document failed (a CEL error): the test fails. */
  error?: string;
  /** The violation messages, to show what was caught. */
  messages: string[];
  location: SourceLocation;
}

/** Fixed clock for tests, so a policy using `now` gives the same answer every day. */
export const POLICY_TEST_NOW = new Date('2025-06-01T00:00:00Z');

export function runPolicyTests(policies: readonly PolicyDefinition[], now: Date = POLICY_TEST_NOW): PolicyTestResult[] {
  const results: PolicyTestResult[] = [];
  for (const def of policies) {
    const policy = compilePolicy(def);
    for (const test of def.tests) {
      const params = { ...policy.params, ...test.params };
      const outcomes = evaluateDocument(policy, test.resource, { params, now });
      const errors = outcomes.filter((o) => o.error !== undefined).map((o) => o.error!);
      const violations = outcomes.filter((o) => !o.passed && o.error === undefined);
      results.push({
        policy: def.id,
        name: test.name,
        passed: errors.length === 0 && violations.length === test.violations,
        expected: test.violations,
        actual: violations.length,
        ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
        messages: violations.map((o) => o.message ?? ''),
        location: test.location,
      });
    }
  }
  return results;
}

/** One line per test, failures with where they are, then `N passed, N failed`. */
export function formatPolicyTestResults(results: readonly PolicyTestResult[]): string {
  const lines = results.map((r) => {
    const at = `${r.location.file}:${r.location.line}:${r.location.column}`;
    if (r.passed) return `ok   ${r.policy} › ${r.name}`;
    const why = r.error ?? `expected ${r.expected} violation(s), got ${r.actual}${r.messages.length ? `: ${r.messages.join(' | ')}` : ''}`;
    return `FAIL ${r.policy} › ${r.name} (${at})\n     ${why}`;
  });
  const failed = results.filter((r) => !r.passed).length;
  lines.push(`${results.length - failed} passed, ${failed} failed`);
  return `${lines.join('\n')}\n`;
}
