// The job summary stays under GitHub's 1 MiB limit whatever the report holds: the findings
// table is cut first (the markdown formatter says so), the fix plan keeps at most its share.
import { describe, expect, test } from 'vitest';
import { SUMMARY_PLAN_SHARE, summaryMarkdown, truncateLines } from '../../src/action/summary.js';
import { JOB_SUMMARY_MAX_BYTES } from '../../src/report/index.js';
import type { Finding, Report } from '../../src/core/model.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function finding(i: number): Finding {
  return {
    policy: 'queue-no-admin-for-users',
    severity: 'high',
    status: 'violation',
    resource: { kind: 'queue', id: `q-${i}`, name: null },
    path: 'permissions[0]',
    message: `User ${i} holds ADMIN on queue q-${i} ${'é'.repeat(200)}`,
    location: { file: `permissions/queues/q-${i}.yaml`, line: 3, column: 5 },
    fingerprint: `fp-${i}`,
    baseline: null,
    fix: null,
    waiver: null,
  };
}

function report(findings: number): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'steward', version: '0.1.0' },
    instance: 'https://acme.example.com',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    failOn: 'low',
    summary: {
      policies: 1,
      resources: findings,
      checks: findings,
      violations: findings,
      waived: 0,
      errors: 0,
      bySeverity: { critical: 0, high: findings, medium: 0, low: 0, info: 0 },
      gate: 'fail',
    },
    policies: [],
    findings: Array.from({ length: findings }, (_, i) => finding(i)),
    waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] },
    overrides: [],
    frameworks: [],
    baseline: null,
    http: { requests: 0, retries: 0, failed: 0 },
  };
}

describe('job summary', () => {
  test('a small report is written whole, plan after it', () => {
    const text = summaryMarkdown(report(3), ['## Fix plan\n\nplan body\n']);
    expect(text.match(/\| queue-no-admin-for-users \| high \|/g)).toHaveLength(3);
    expect(text.endsWith('\n## Fix plan\n\nplan body\n')).toBe(true);
    expect(text).not.toContain('Showing');
  });

  test('a report over 1 MiB is cut under the limit, saying how much is shown', () => {
    const big = report(4000); // ~1.9 MB of table rows
    const plan = `## Fix plan\n\n${'POST /api/queues/v1/q/permissions\n'.repeat(20_000)}`;
    const text = summaryMarkdown(big, [plan]);
    expect(bytes(text)).toBeLessThanOrEqual(JOB_SUMMARY_MAX_BYTES);
    expect(bytes(text)).toBeLessThan(1024 * 1024);
    const shown = text.match(/\| queue-no-admin-for-users \| high \|/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(1000);
    expect(text).toContain(`_Showing ${shown} of 4000 findings to stay within the size limit`);
    expect(text).toContain('_Fix plan cut to fit the job summary; run `steward fix` for all of it._');
    const planPart = text.slice(text.indexOf('## Fix plan'));
    expect(bytes(planPart)).toBeLessThanOrEqual(Math.floor(JOB_SUMMARY_MAX_BYTES * SUMMARY_PLAN_SHARE));
  });

  test('truncateLines cuts on a line boundary within the budget', () => {
    const text = 'aaaa\nbbbb\ncccc\n';
    expect(truncateLines(text, 100, 'cut')).toBe(text);
    const cut = truncateLines(text, 14, 'cut');
    expect(cut).toBe('aaaa\n_cut_\n');
    expect(bytes(cut)).toBeLessThanOrEqual(14);
  });
});
