// Record a run over the sandbox, then replay it offline: same findings, no request.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../src/client/errors.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { loadPolicies } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { readSnapshot, recordingApi, replayApi, writeSnapshot } from '../../src/snapshot/index.js';
import { type Demo, NOW, ROOT, startDemo } from '../engine/harness.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo({ token: 'sekret-token-123456' });
});
afterAll(() => demo.close());

const pack = async () => (await loadPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT })).map((d) => compilePolicy(d));

describe('snapshots', () => {
  it('replaying a recorded run gives identical findings with zero requests', async () => {
    const policies = await pack();
    const recorder = recordingApi(demo.api(), { instance: demo.sandbox.baseUrl, now: () => NOW });
    const live = await demo.run(policies, recorder);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'steward-snap-')), 'snap.json');
    await writeSnapshot(file, recorder.snapshot());

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sekret-token-123456');
    expect(text).not.toMatch(/X-SERVICE|Authorization|Bearer/i);
    const snap = await readSnapshot(file, 'snap.json');
    expect(snap).toMatchObject({ version: 1, instance: demo.sandbox.baseUrl, recordedAt: NOW.toISOString() });
    const ops = new Set(snap.answers.map((a) => a.operation));
    expect([...ops].sort()).toEqual([
      'getCalculatedFieldStatistics',
      'getCertificationStatus',
      'getDatasetPermissions',
      'getFileByPath',
      'getMisconfiguredReports',
      'listReportSchedules',
      'listWorkflows',
    ]);

    demo.sandbox.resetCounts();
    const replayed = await demo.run(policies, replayApi(snap));
    expect(demo.sandbox.totalRequests()).toBe(0);
    expect(replayed.findings).toEqual(live.findings);
    expect(replayed.results).toEqual(live.results);
  });

  it('recorded read errors replay as the same error; unrecorded reads and writes fail', async () => {
    demo.sandbox.configure({ misconfiguredStatus: 409 });
    try {
      const policies = (await pack()).filter((p) => p.id === 'no-misconfigured-schedules');
      const recorder = recordingApi(demo.api());
      const live = await demo.run(policies, recorder);
      expect(live.results[0].status).toBe('error');
      const snap = recorder.snapshot();
      const answer = snap.answers.find((a) => a.operation === 'getMisconfiguredReports');
      expect(answer?.error).toMatchObject({ status: 409, kind: 'http' });
      const replayed = await demo.run(policies, replayApi(snap));
      expect(replayed.findings).toEqual(live.findings);

      const api = replayApi(snap);
      const miss = await api.getDatasetPermissions('ds-0001').catch((e: unknown) => e);
      expect(isApiError(miss) && miss.message).toMatch(/^getDatasetPermissions: not in snapshot/);
      const write = await api.updateQueuePermissions('q', []).catch((e: unknown) => e);
      expect(isApiError(write) && write.message).toMatch(/read-only/);
      expect(api.stats()).toEqual({ requests: 0, retries: 0, failed: 0 });
    } finally {
      demo.sandbox.configure({ misconfiguredStatus: 200 });
    }
  });

  it('a dataset run replayed without its certification answers reports errors, never passes', async () => {
    const policies = (await pack()).filter((p) => p.id === 'certified-datasets-need-owner-group');
    const recorder = recordingApi(demo.api());
    await demo.run(policies, recorder);
    const snap = recorder.snapshot();
    snap.answers = snap.answers.filter((a) => !(a.operation === 'getCertificationStatus' && a.args[1] === 'ds-hr-certified'));
    const replayed = await demo.run(policies, replayApi(snap));
    const err = replayed.findings.find((f) => f.status === 'error');
    expect(err?.resource.id).toBe('ds-hr-certified');
    expect(err?.message).toMatch(/not in snapshot/);
    expect(replayed.results[0].status).toBe('error');
  });
});
