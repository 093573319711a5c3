// What a notification says changed (digestOf), on the report of one instance and of several:
// with several, the same resource id may be on each, so every change names its instance.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { digestOf } from '../../src/library/notify.js';
import { makeFinding, makeReport } from '../fixtures/report.js';

const FIXED_AT = '2026-03-02T09:15:00.000Z';

/** One instance's run: q-finance new there, q-hr fixed there. */
const run = (url: string): Report =>
  makeReport({
    instance: url,
    findings: [makeFinding({ resource: { kind: 'queue', id: 'q-finance', name: null }, path: 'permissions[0]', lifecycle: 'new' })],
    fixed: [{ policy: 'queue-no-admin-for-users', severity: 'high', resource: { kind: 'queue', id: 'q-hr', name: null }, fingerprint: 'f-hr', message: 'm', firstSeen: FIXED_AT, fixedAt: FIXED_AT }],
  });
const changes = (r: Report) => digestOf(r, {}).changes.map((c) => `${c.change} ${c.resource}`);

describe('digestOf', () => {
  it('one instance: each change is its resource', () => {
    expect(changes(stampInstance(run('https://prod.example.com'), 'prod'))).toEqual(['new queue/q-finance permissions[0]', 'fixed queue/q-hr']);
  });

  it('several instances: each change names its instance', () => {
    const merged = mergeReports([stampInstance(run('https://prod.example.com'), 'prod'), stampInstance(run('https://stg.example.com'), 'staging')]);
    expect(changes(merged).sort()).toEqual([
      'fixed prod: queue/q-hr',
      'fixed staging: queue/q-hr',
      'new prod: queue/q-finance permissions[0]',
      'new staging: queue/q-finance permissions[0]',
    ]);
    expect(digestOf(merged, {}).instance).toBe('prod, staging');
  });
});
