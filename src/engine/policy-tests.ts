// `steward test`: runs every policy's `tests` (a resource document, optional params, the
// expected number of violations) through the same evaluation as a real run. Each violation's
// message is rendered, so a message that cannot render fails its test; a policy without tests
// is reported (`no tests: <id>`) but does not fail the run.
import type { CompiledPolicy } from '../policy/compile.js';
import type { SourceLocation } from '../core/model.js';
import { evaluateDocument } from './evaluate.js';

export interface PolicyTestResult {
  policy: string;
  name: string;
  passed: boolean;
  expected: number;
  actual: number;
  /** Set when evaluating the test document or rendering a violation's message failed (a CEL error): the test fails. */
  error?: string;
  /** The violation messages, to show what was caught. */
  messages: string[];
  location: SourceLocation;
}

/** Fixed clock for tests, so a policy using `now` gives the same answer every day. */
export const POLICY_TEST_NOW = new Date('2025-06-01T00:00:00Z');

/** The results, with the ids of the policies that have no tests (a warning, not a failure). */
export type PolicyTestRun = PolicyTestResult[] & { untested: string[] };

export function runPolicyTests(policies: readonly CompiledPolicy[], now: Date = POLICY_TEST_NOW): PolicyTestRun {
  const results: PolicyTestResult[] = [];
  const untested: string[] = [];
  for (const policy of policies) {
    const def = policy.def;
    if (def.tests.length === 0) untested.push(def.id);
    for (const test of def.tests) {
      const params = { ...policy.params, ...test.params };
      const outcomes = evaluateDocument(policy, test.resource, { params, now });
      // A violation whose message cannot render fails the test as an evaluation error does.
      const errors = outcomes.map((o) => o.error ?? o.messageError).filter((e): e is string => e !== undefined);
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
  return Object.assign(results, { untested });
}

/** One line per test, failures with where they are, `no tests: <id>` per untested policy, then `N passed, N failed`. */
/** `quiet`: the failures and the summary line only. */
export function formatPolicyTestResults(results: readonly PolicyTestResult[] & { untested?: readonly string[] }, options: { quiet?: boolean } = {}): string {
  const lines = results.filter((r) => !(options.quiet && r.passed)).map((r) => {
    const at = `${r.location.file}:${r.location.line}:${r.location.column}`;
    if (r.passed) return `ok   ${r.policy} › ${r.name}`;
    const why = r.error ?? `expected ${r.expected} violation(s), got ${r.actual}${r.messages.length ? `: ${r.messages.join(' | ')}` : ''}`;
    return `FAIL ${r.policy} › ${r.name} (${at})\n     ${why}`;
  });
  for (const id of results.untested ?? []) lines.push(`no tests: ${id}`);
  const failed = results.filter((r) => !r.passed).length;
  lines.push(`${results.length - failed} passed, ${failed} failed`);
  return `${lines.join('\n')}\n`;
}
