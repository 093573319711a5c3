// The verdict's rules one by one, each guarded by a case that fails without it (mutation testing
// found them guarded only end to end): an errored policy without error findings, enforcement
// levels and overrides, coverage that blocks, waiver dates and the expiry window.
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/core/model.js';
import type { InputError } from '../../src/core/problem.js';
import type { RunResult } from '../../src/engine/run.js';
import { buildReport, gateOf } from '../../src/engine/verdict.js';
import { isExpiring, parseWaivers } from '../../src/engine/waivers.js';
import { makeFinding, makePolicy } from '../fixtures/report.js';

const run = (results: PolicyResult[], findings = [makeFinding()]): RunResult => ({ results, findings, resources: 1, checks: 1, warnings: [], collected: {}, evaluated: {}, stoppedBy: [] });
const report = (r: RunResult, extra: Partial<Parameters<typeof buildReport>[0]> = {}) =>
  buildReport({ run: r, failOn: 'low', instance: 'i', toolVersion: 't', startedAt: new Date('2026-01-10T00:00:00Z'), durationMs: 1, http: { requests: 0, retries: 0, failed: 0 }, ...extra });

describe('the gate', () => {
  it('is error when a policy errored without any error finding (a whole-kind failure), and only then', () => {
    const ok = makePolicy({ status: 'fail' });
    expect(gateOf([ok, makePolicy({ id: 'other', status: 'error' })], [], 'low', false)).toBe('error');
    expect(gateOf([ok], [], 'low', false)).toBe('pass');
  });

  it('counts a hard policy always, a soft one unless overridden, an advisory one never', () => {
    const f = makeFinding();
    const at = (enforcement: PolicyResult['enforcement'], overridden = false) =>
      gateOf([makePolicy({ enforcement })], [f], 'low', false, overridden ? [{ policy: f.policy, reason: 'r' }] : []);
    expect([at('hard'), at('hard', true), at('soft'), at('soft', true), at('advisory')]).toEqual(['fail', 'fail', 'fail', 'pass', 'pass']);
    // A policy the run does not know is hard (the default level).
    expect(gateOf([], [f], 'low', false)).toBe('fail');
  });

  it('with a baseline only new violations fail; below failOn nothing fails', () => {
    expect(gateOf([makePolicy()], [makeFinding({ baseline: 'known' })], 'low', true)).toBe('pass');
    expect(gateOf([makePolicy()], [makeFinding({ baseline: 'new' })], 'low', true)).toBe('fail');
    expect(gateOf([makePolicy()], [makeFinding({ severity: 'low' })], 'high', false)).toBe('pass');
  });

  it('counts violations only: a waived finding at failOn of a hard policy passes', () => {
    expect(gateOf([makePolicy()], [makeFinding({ status: 'waived' })], 'low', false)).toBe('pass');
    expect(gateOf([makePolicy()], [makeFinding({ status: 'violation' })], 'low', false)).toBe('fail');
  });

  it('in the report: a soft policy the run overrides does not fail it', () => {
    const soft = makePolicy({ enforcement: 'soft' });
    const f = makeFinding({ policy: soft.id });
    expect(report(run([soft], [f])).summary.gate).toBe('fail');
    expect(report(run([soft], [f]), { overrides: [{ policy: soft.id, reason: 'release train' }] }).summary.gate).toBe('pass');
  });

  it('in the report: a throttled run says how far its concurrency fell', () => {
    const http = { requests: 9, retries: 2, failed: 0, throttled: 2, lowestConcurrency: 2 };
    expect(report(run([makePolicy()]), { http }).http).toMatchObject({ throttled: 2, lowestConcurrency: 2 });
    expect(report(run([makePolicy()])).http).not.toHaveProperty('throttled');
  });
});

describe('coverage in the report', () => {
  const partial = { kind: 'queue', listed: 3, evaluated: 2, completeWith: 'admin', partial: 'only the token user’s', accepted: false };
  it('a partial kind read by a failOn-level policy blocks the gate; accepted, skipped or below failOn it does not', () => {
    const p = makePolicy({ resource: 'queue', status: 'fail', resourceIds: ['a', 'b'] });
    const other = makePolicy({ id: 'other', resource: 'dataset', status: 'pass', resourceIds: ['x', 'y', 'z'] });
    const blocked = report(run([p, other]), { coverage: [partial] });
    expect(blocked.coverage).toEqual([{ ...partial, evaluated: 2, skippedPolicies: 0, blocking: true }]);
    expect(blocked.summary.gate).toBe('error');
    expect(report(run([p]), { coverage: [{ ...partial, accepted: true }] }).coverage?.[0].blocking).toBe(false);
    const skipped = report(run([makePolicy({ resource: 'queue', status: 'skipped' })], []), { coverage: [partial] });
    expect(skipped.coverage?.[0]).toMatchObject({ skippedPolicies: 1, blocking: false });
    expect(report(run([makePolicy({ resource: 'queue', severity: 'low' })], []), { coverage: [partial], failOn: 'high' }).coverage?.[0].blocking).toBe(false);
    expect(report(run([p]), { coverage: [{ ...partial, partial: null }] }).coverage?.[0].blocking).toBe(false);
  });

  it('only the kind\'s own policies count: another kind\'s failOn-level policy does not block it, its skipped ones are not counted; one live policy among skipped ones blocks', () => {
    const dataset = makePolicy({ id: 'd', resource: 'dataset', status: 'pass' });
    const datasetSkipped = makePolicy({ id: 'd2', resource: 'dataset', status: 'skipped' });
    const queueSkipped = makePolicy({ id: 'q1', resource: 'queue', status: 'skipped' });
    const elsewhere = report(run([dataset, datasetSkipped, queueSkipped], []), { coverage: [partial] });
    expect(elsewhere.coverage?.[0]).toMatchObject({ skippedPolicies: 1, blocking: false });
    const queueLive = makePolicy({ id: 'q2', resource: 'queue', status: 'pass' });
    expect(report(run([queueSkipped, queueLive], []), { coverage: [partial] }).coverage?.[0]).toMatchObject({ skippedPolicies: 1, blocking: true });
  });
});

describe('waiver dates', () => {
  const file = (extra: string) => `waivers:\n  - policy: p\n    resource: r\n    reason: x\n    owner: o\n    expires: 2026-03-01\n${extra}`;
  it('created must be a calendar date on or before expires', () => {
    const problems = (text: string) => {
      try {
        parseWaivers(text, 'w.yaml');
        return [];
      } catch (e) {
        return (e as InputError).problems.map((p) => p.message);
      }
    };
    expect(problems(file('    created: 2026-02-30\n'))).toEqual(['created 2026-02-30 is not a date (YYYY-MM-DD)']);
    expect(problems(file('    created: 2026-03-02\n'))).toEqual(['created 2026-03-02 is after expires 2026-03-01']);
    expect(problems(file('    created: 2026-03-01\n'))).toEqual([]);
  });

  it('a waiver is expiring from `days` days before its expires day, and no longer from that day (it has ended)', () => {
    const w = parseWaivers(file(''), 'w.yaml')[0];
    const day = (d: string) => new Date(`${d}T12:00:00Z`);
    expect(isExpiring(w, day('2026-02-19'), 10)).toBe(true); // ends 2026-03-01: 10 days later
    expect(isExpiring(w, day('2026-02-18'), 10)).toBe(false);
    expect(isExpiring(w, day('2026-02-28'), 1)).toBe(true);
    expect(isExpiring(w, day('2026-02-28'), 0)).toBe(false);
    expect(isExpiring(w, day('2026-03-01'), 30)).toBe(false); // its expires day: ended
  });
});
