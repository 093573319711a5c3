// Baseline, gate, exit codes and the assembled report, over a real run of the demo instance.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBaseline, parseBaseline, readBaseline, writeBaseline } from '../../src/engine/baseline.js';
import type { RunResult } from '../../src/engine/run.js';
import { buildReport, exitCodeForGate, gateOf } from '../../src/engine/verdict.js';
import { loadWaivers } from '../../src/engine/waivers.js';
import { InputError } from '../../src/core/problem.js';
import type { Finding } from '../../src/core/model.js';
import { compilePolicies, type Demo, DEMO, NOW, startDemo } from './harness.js';
import { MISSION_POLICIES } from './mission-policies.js';
import { makeFinding, makePolicy } from '../fixtures/report.js';

const POLICIES = compilePolicies(MISSION_POLICIES);

let demo: Demo;
let run: RunResult;
beforeAll(async () => {
  demo = await startDemo();
  run = await demo.run(POLICIES);
});
afterAll(() => demo.close());

const report = (extra: Partial<Parameters<typeof buildReport>[0]> = {}) =>
  buildReport({
    run,
    failOn: 'low',
    instance: demo.sandbox.baseUrl,
    toolVersion: '0.0.0-test',
    startedAt: NOW,
    durationMs: 5,
    http: { requests: 7, retries: 0, failed: 0 },
    ...extra,
  });

describe('buildReport', () => {
  it('applies the demo waiver: q-support-escalations item 15 is waived, the rest count', async () => {
    const waivers = await loadWaivers(path.join(DEMO, 'waivers.yaml'), 'demo/waivers.yaml');
    const r = report({ waivers });
    const waived = r.findings.filter((f) => f.status === 'waived');
    expect(waived.map((f) => [f.resource.id, f.item])).toEqual([['q-support-escalations', '15']]);
    expect(waived[0].waiver?.owner).toBe('governance@acme.example');
    expect(r.summary).toEqual({
      policies: 3,
      resources: run.resources,
      checks: run.checks,
      violations: 7,
      waived: 1,
      errors: 0,
      bySeverity: { critical: 0, high: 7, medium: 0, low: 0, info: 0 },
      gate: 'fail',
    });
    expect(r.policies.find((p) => p.id === 'queue-no-admin-for-users')).toMatchObject({ status: 'fail', violations: 2 });
    expect(r.waivers).toMatchObject({ expired: [], stale: [], catchAll: [], expiring: [] });
    expect(r.waivers.active.map((w) => `${w.resource}#${w.item}`)).toEqual(['q-support-escalations#15']);
    expect(r).toMatchObject({ schemaVersion: 1, tool: { name: 'steward', version: '0.0.0-test' }, failOn: 'low', baseline: null });
    expect(r.http).toEqual({ requests: 7, retries: 0, failed: 0 });
    expect(exitCodeForGate(r.summary.gate)).toBe(1);
  });

  it('failOn: a threshold above every violation passes; none never fails', () => {
    expect(report({ failOn: 'critical' }).summary.gate).toBe('pass');
    expect(report({ failOn: 'high' }).summary.gate).toBe('fail');
    expect(report({ failOn: 'none' }).summary.gate).toBe('pass');
  });

  it('an errored policy makes the gate error (exit 3) whatever failOn says', () => {
    const errored: RunResult = {
      ...run,
      results: run.results.map((r, i) => (i === 0 ? { ...r, status: 'error', error: 'x' } : r)),
      findings: [...run.findings, { ...run.findings[0], status: 'error', message: 'x' }],
    };
    const r = report({ run: errored, failOn: 'none' });
    expect(r.summary.gate).toBe('error');
    expect(r.summary.errors).toBe(1);
    expect(exitCodeForGate('error')).toBe(3);
    expect(exitCodeForGate('pass')).toBe(0);
  });

  it('an error on one resource makes the gate error although its policy evaluated (status fail) and failOn is none', () => {
    const policy = makePolicy({ id: 'p', status: 'fail', error: null });
    const resource = { kind: 'queue', id: 'q-1', name: null } as const;
    const violation = makeFinding({ policy: 'p', severity: 'low', resource });
    const resourceError = makeFinding({ policy: 'p', severity: 'low', resource, status: 'error', message: 'no such key' });
    expect(gateOf([policy], [violation], 'none', false)).toBe('pass');
    expect(gateOf([policy], [violation, resourceError], 'none', false)).toBe('error');
    expect(gateOf([{ ...policy, status: 'pass' }], [resourceError], 'critical', false)).toBe('error');
  });
});

describe('baseline', () => {
  it('writes today’s fingerprints; a re-run is all known and passes; a new one fails', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'steward-bl-')), 'baseline.json');
    await writeBaseline(file, run.findings, NOW);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toEqual({
      version: 1,
      createdAt: NOW.toISOString(),
      fingerprints: [...new Set(run.findings.map((f) => f.fingerprint))].sort(),
      instances: { default: [...new Set(run.findings.map((f) => f.fingerprint))].sort() },
      entries: Object.fromEntries(
        run.findings.map((f) => [
          f.fingerprint,
          { policy: f.policy, resource: { kind: f.resource.kind, id: f.resource.id }, path: f.path, message: f.message },
        ]),
      ),
    });
    const data = await readBaseline(file, 'baseline.json');
    const same = report({ baseline: { file: 'baseline.json', data, instance: 'default' } });
    expect(new Set(same.findings.map((f) => f.baseline))).toEqual(new Set(['known']));
    expect(same.summary.gate).toBe('pass');
    expect(same.baseline).toEqual({ file: 'baseline.json', resolved: [], resolvedEntries: [] });

    // One finding unknown to the baseline, one baseline entry no longer seen.
    const list = [...data.fingerprints.slice(1), 'ffffffffffffffffffff'];
    const partial = { ...data, fingerprints: list, instances: { default: list } };
    const r = report({ baseline: { file: 'baseline.json', data: partial, instance: 'default' } });
    const news = r.findings.filter((f) => f.baseline === 'new');
    expect(news.map((f) => f.fingerprint)).toEqual([data.fingerprints[0]]);
    expect(r.baseline?.resolved).toEqual(['ffffffffffffffffffff']);
    expect(r.summary.gate).toBe('fail');
  });

  it('errors carry no baseline state and are not recorded', () => {
    const err = { ...run.findings[0], status: 'error', fingerprint: 'e' } as Finding;
    const out = compareBaseline([err], { version: 1, createdAt: '', fingerprints: [] }, 'default');
    expect(out.findings[0].baseline).toBeNull();
    expect(gateOf([], out.findings, 'low', true)).toBe('error');
  });

  it('refuses a file that is not a baseline', () => {
    expect(() => parseBaseline('{"version":2}', 'b.json')).toThrow(InputError);
    expect(() => parseBaseline('nope', 'b.json')).toThrow(/not JSON/);
    expect(() => parseBaseline('{"version":1,"fingerprints":[1]}', 'b.json')).toThrow(/array of strings/);
  });
});
