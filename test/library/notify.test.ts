// What a notification says changed (digestOf), on the report of one instance and of several:
// with several, the same resource id may be on each, so every change names its instance.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { SecretSet } from '../../src/core/redact.js';
import { digestOf, sendNotifications } from '../../src/library/notify.js';
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

describe('sendNotifications', () => {
  it('what it sends holds no form of a secret an instance echoed into an owner, a path or a message; the signature is of what is sent', async () => {
    const token = 'tok-8c1f2e9a7d3b-secret';
    const secrets = SecretSet.of(token, 'hook-key-4d2c9b1e');
    const report = makeReport({
      findings: [
        makeFinding({
          lifecycle: 'new',
          path: `permissions[${token}]`,
          message: `echoed ${JSON.stringify(token).slice(1, -1)} and ${Buffer.from(`svc:${token}`).toString('base64')}`,
          owner: { type: 'USER', id: '7', name: `Ana ${encodeURIComponent(token)}`, email: null, state: 'active' },
        }),
      ],
    });
    const target = { type: 'webhook' as const, url: { variable: 'HOOK', value: 'http://127.0.0.1:9/hook' }, secret: { variable: 'KEY', value: 'hook-key-4d2c9b1e' }, on: 'always' as const, teams: null, location: { file: 'steward.yaml', line: 1, column: 1 } };
    const sent = await sendNotifications(report, [target], { env: {}, dryRun: true, redact: (t) => secrets.redact(t) });
    const [planned] = sent.planned;
    const body = JSON.stringify(planned!.body);
    expect(body).not.toContain(token);
    expect(body).not.toContain(Buffer.from(`svc:${token}`).toString('base64').slice(4, 20));
    expect((planned!.body as { changes: { resource: string; message: string; owner: string }[] }).changes.map((c) => [c.resource, c.message, c.owner])).toEqual([
      ['queue/q-finance-intake permissions[***]', 'echoed *** and c3ZjOn***', 'USER Ana *** (7)'],
    ]);
    const { createHmac } = await import('node:crypto');
    expect(planned!.headers['X-Steward-Signature-256']).toBe(`sha256=${createHmac('sha256', 'hook-key-4d2c9b1e').update(JSON.stringify(planned!.body)).digest('hex')}`);
  });
});
