// Reports built by hand for history tests: `n` violations of one policy, each its own resource.
import type { Finding, Report } from '../../src/core/model.js';

export function sampleFinding(i: number, message = `violation ${i}`, policy = 'p-one'): Finding {
  return {
    policy,
    severity: i % 2 === 0 ? 'high' : 'low',
    status: 'violation',
    resource: { kind: 'dataset', id: `ds-${i}`, name: null },
    path: null,
    message,
    location: null,
    fingerprint: `fp-${policy}-${i}`,
    baseline: null,
    fix: null,
    waiver: null,
  };
}

/** `n` violations on ds-0…ds-(n-1); `evaluated` resources (default n) were evaluated, ds-0 first. */
export function sampleReport(n: number, message?: string, startedAt = '2026-11-01T00:00:00.000Z', evaluated = n): Report {
  const findings = Array.from({ length: n }, (_, i) => sampleFinding(i, message));
  const bySeverity = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const f of findings) bySeverity[f.severity]++;
  return {
    schemaVersion: 1,
    tool: { name: 'steward', version: '0.0.0-test' },
    instance: 'https://example.test',
    startedAt,
    durationMs: 1,
    failOn: 'low',
    summary: { policies: 1, resources: n, checks: n, violations: n, waived: 0, errors: 0, bySeverity, gate: n > 0 ? 'fail' : 'pass' },
    policies: [
      {
        id: 'p-one',
        title: 'Policy one',
        description: '',
        severity: 'high',
        resource: 'dataset',
        status: n > 0 ? 'fail' : 'pass',
        evaluated: n,
        violations: n,
        error: null,
        resourceIds: Array.from({ length: Math.max(n, evaluated) }, (_, i) => `ds-${i}`),
        location: null,
        tags: [],
        enforcement: 'hard',
        controls: {},
      },
    ],
    findings,
    waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] },
    overrides: [],
    frameworks: [],
    baseline: null,
    http: { requests: 1, retries: 0, failed: 0 },
  };
}
