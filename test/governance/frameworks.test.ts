// Framework mapping: the built-in pack maps to SOC 2 and ISO/IEC 27001:2022 Annex A controls;
// `--framework` runs only mapped policies; every report summarises each control.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PolicyResult, Report } from '../../src/core/model.js';
import { frameworkSummaries } from '../../src/engine/frameworks.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { makePolicy } from '../fixtures/report.js';
import { copyDemo, runCli, sandboxEnv } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-frameworks-0001' });
});
afterAll(() => sandbox.close());

const SOC2_POLICIES = [
  'access-tokens-not-expired',
  'access-tokens-owner-active',
  'access-tokens-short-lived',
  'accounts-owner-active',
  'accounts-share-edit-through-groups',
  'admins-at-most',
  'card-sharing-matches-manifest',
  'cards-owner-active',
  'cards-share-through-groups',
  'certification-requests-current',
  'certified-datasets-certification-current',
  'certified-datasets-need-owner-group',
  'custom-roles-no-admin-grants',
  'data-file-permissions-match-manifest',
  'data-files-no-admin-grant',
  'data-files-not-public',
  'data-files-owner-active',
  'datasets-have-an-owner',
  'datasets-owner-active',
  'datasets-pdp-no-departed-users',
  'datasets-pdp-open-policy-narrow',
  'datasets-pdp-where-wide',
  'enabled-schedules-have-recipients',
  'fileset-files-edit-through-groups',
  'fileset-files-owner-active',
  'groups-have-members',
  'groups-have-owners',
  'groups-owner-active',
  'invitations-not-stale',
  'no-misconfigured-schedules',
  'page-sharing-matches-manifest',
  'pages-owner-active',
  'pages-share-through-groups',
  'queue-entries-grant-something',
  'queue-no-admin-for-users',
  'queue-permissions-match-manifest',
  'queues-owner-active',
  'report-schedules-owner-active',
  'schedule-timezone-valid',
  'users-not-dormant',
  'workflows-edit-through-groups',
  'workflows-owner-active',
];

describe('--framework', () => {
  it('SOC2 runs only the mapped policies; the JSON report has the per-control summary', async () => {
    const r = await runCli(['check', '--config', 'steward.yaml', '--framework', 'SOC2', '--format', 'json'], { cwd: copyDemo(), env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.policies.map((p) => p.id).sort()).toEqual(SOC2_POLICIES);
    const soc2 = report.frameworks.find((f) => f.name === 'SOC2');
    expect(soc2?.controls.map((c) => [c.id, c.status, c.policies.length])).toEqual([
      ['CC6.1', 'fail', 11],
      ['CC6.2', 'fail', 21],
      ['CC6.3', 'fail', 13],
      ['CC7.1', 'fail', 3],
      ['CC8.1', 'fail', 6],
    ]);
    expect(report.frameworks.map((f) => f.name)).toEqual(['ISO27001', 'SOC2']);
    expect(report.frameworks[0].controls.map((c) => c.id)).toEqual(['5.11', '5.15', '5.16', '5.17', '5.18', '5.37', '8.2', '8.3', '8.5', '8.9']);
  });

  it('with --only one policy, the controls it does not evidence are not evaluated', async () => {
    const r = await runCli(['check', '--config', 'steward.yaml', '--only', 'schedule-timezone-valid', '--format', 'json'], { cwd: copyDemo(), env: sandboxEnv(sandbox) });
    const soc2 = (JSON.parse(r.stdout) as Report).frameworks.find((f) => f.name === 'SOC2');
    expect(soc2?.controls.map((c) => [c.id, c.status])).toEqual([
      ['CC6.1', 'not-evaluated'],
      ['CC6.2', 'not-evaluated'],
      ['CC6.3', 'not-evaluated'],
      ['CC7.1', 'fail'],
      ['CC8.1', 'not-evaluated'],
    ]);
  });

  it('a framework no policy is mapped to is exit 2 naming the mapped ones, nothing sent', async () => {
    sandbox.resetCounts();
    const r = await runCli(['check', '--config', 'steward.yaml', '--framework', 'PCI'], { cwd: copyDemo(), env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('--framework: no policy is mapped to "PCI" (mapped: ISO27001, SOC2)');
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('control status', () => {
  const result = (id: string, status: PolicyResult['status']) => makePolicy({ id, status });
  const mapped = [
    { id: 'a', controls: { F: ['C1', 'C2'] } },
    { id: 'b', controls: { F: ['C2', 'C10'] } },
    { id: 'c', controls: { F: ['C3'] } },
  ];
  it('error over fail over pass; not evaluated when none of its policies ran; natural order', () => {
    expect(frameworkSummaries(mapped, [result('a', 'pass'), result('b', 'error'), result('c', 'skipped')])).toEqual([
      {
        name: 'F',
        controls: [
          { id: 'C1', status: 'pass', policies: ['a'] },
          { id: 'C2', status: 'error', policies: ['a', 'b'] },
          { id: 'C3', status: 'not-evaluated', policies: ['c'] },
          { id: 'C10', status: 'error', policies: ['b'] },
        ],
      },
    ]);
    expect(frameworkSummaries(mapped, [result('a', 'fail'), result('b', 'pass')])[0].controls.map((c) => c.status)).toEqual(['fail', 'fail', 'not-evaluated', 'pass']);
  });

  it('orders frameworks and controls by code unit, digits as numbers, with no ICU collator', () => {
    // A collator's ICU data costs ~15 ms of a start, and its order moves with ICU's version.
    vi.stubGlobal('Intl', new Proxy(Intl, { get: () => { throw new Error('Intl was asked'); } }));
    try {
      const summaries = frameworkSummaries(
        [
          { id: 'a', controls: { soc2: ['cc6.1'], SOC2: ['CC6.10', 'CC6.2', 'A.9'] } },
          { id: 'b', controls: { ISO27001: ['A.5.15'] } },
        ],
        [result('a', 'pass'), result('b', 'pass')],
      );
      expect(summaries.map((f) => [f.name, f.controls.map((c) => c.id)])).toEqual([
        ['ISO27001', ['A.5.15']],
        ['SOC2', ['A.9', 'CC6.2', 'CC6.10']],
        ['soc2', ['cc6.1']],
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
