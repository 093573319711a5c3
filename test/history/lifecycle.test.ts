// Lifecycle through recorded runs: a policy that could not be evaluated fixes nothing and does
// not make its findings look reopened later; a policy left out of a run fixes nothing; errors
// have no lifecycle; two instances in one file do not mix.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { openRunHistory, recordReport } from '../../src/history/index.js';
import { tempDir } from '../cli/helpers.js';
import { sampleFinding, sampleReport } from './sample-report.js';

async function record(file: string, reports: Report[]): Promise<Report[]> {
  const h = await openRunHistory(file, 'h.sqlite', 'test');
  try {
    const out: Report[] = [];
    for (const r of reports) out.push(await recordReport(h, r, 'hash'));
    return out;
  } finally {
    await h.close();
  }
}

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** `r` with its policy failing to evaluate: status error, one error finding, no violations. */
function errored(r: Report): Report {
  const error = { ...sampleFinding(0), status: 'error' as const, message: 'could not evaluate', fingerprint: 'fp-error' };
  return { ...r, policies: r.policies.map((p) => ({ ...p, status: 'error' as const })), findings: [error] };
}

describe('lifecycle over recorded runs', () => {
  it('an errored run fixes nothing, and the next good run sees the findings as open, not reopened', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const [, second, third] = await record(file, [sampleReport(2, undefined, at(1)), errored(sampleReport(0, undefined, at(2))), sampleReport(2, undefined, at(3))]);
    expect(second!.fixed).toEqual([]);
    expect(second!.findings.map((f) => [f.status, f.lifecycle, f.firstSeen])).toEqual([['error', null, null]]);
    expect(second!.history).toMatchObject({ new: 0, open: 0, reopened: 0, fixed: 0 });
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'open', at(1)],
    ]);
  });

  it('a policy in error fixes nothing, even on the resources it did evaluate', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    // Run 2: the policy errored on one resource after evaluating both (its resource ids say so).
    const [, second] = await record(file, [sampleReport(2, undefined, at(1)), errored(sampleReport(0, undefined, at(2), 2))]);
    expect(second!.policies[0]!.resourceIds).toEqual(['ds-0', 'ds-1']);
    expect(second!.fixed).toEqual([]);
  });

  it('a resource the run did not evaluate (out of scope, deleted) is not fixed', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const [, second] = await record(file, [sampleReport(2, undefined, at(1)), sampleReport(1, undefined, at(2), 1)]);
    expect(second!.fixed).toEqual([]);
  });

  it('a policy not in the run (--only) fixes nothing', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const other = { ...sampleReport(0, undefined, at(2)), policies: [] };
    const [, second] = await record(file, [sampleReport(2, undefined, at(1)), other]);
    expect(second!.fixed).toEqual([]);
  });

  it('fixed lists what the previous run had; gone and back is reopened with the first sighting kept', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const [, second, third] = await record(file, [sampleReport(2, undefined, at(1)), sampleReport(1, undefined, at(2), 2), sampleReport(2, undefined, at(3))]);
    expect(second!.fixed!.map((f) => [f.fingerprint, f.firstSeen, f.fixedAt])).toEqual([['fp-p-one-1', at(1), at(2)]]);
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'reopened', at(1)],
    ]);
    expect(third!.history!.trend.map((t) => [t.run, t.violations, t.new, t.reopened, t.fixed])).toEqual([
      [1, 2, 2, 0, 0],
      [2, 1, 0, 0, 1],
      [3, 2, 0, 1, 0],
    ]);
  });

  it('runs of another instance in the same file neither open nor fix findings', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const elsewhere = { ...sampleReport(2, undefined, at(2)), instance: 'https://other.test' };
    const [, second, third] = await record(file, [sampleReport(2, undefined, at(1)), elsewhere, sampleReport(0, undefined, at(3), 2)]);
    expect(second!.findings.map((f) => f.lifecycle)).toEqual(['new', 'new']);
    expect(second!.history!.trend.map((t) => t.run)).toEqual([2]);
    expect(third!.fixed!.map((f) => f.fingerprint)).toEqual(['fp-p-one-0', 'fp-p-one-1']);
  });

  it('waived findings are recorded and followed: a waived finding stays open, keeps its first sighting, and is fixed when gone', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const waiver = { policy: 'p-one', resource: 'ds-1', reason: 'accepted', owner: 'gov', expires: '2099-01-01' };
    const waivedOne = (r: Report): Report => ({ ...r, findings: r.findings.map((f) => (f.resource.id === 'ds-1' ? { ...f, status: 'waived' as const, waiver } : f)) });
    const [first, second, third] = await record(file, [waivedOne(sampleReport(2, undefined, at(1))), waivedOne(sampleReport(2, undefined, at(2))), sampleReport(1, undefined, at(3), 2)]);
    expect(first!.findings.map((f) => [f.fingerprint, f.status, f.lifecycle])).toEqual([
      ['fp-p-one-0', 'violation', 'new'],
      ['fp-p-one-1', 'waived', 'new'],
    ]);
    expect(second!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'open', at(1)],
    ]);
    expect(third!.fixed!.map((f) => [f.fingerprint, f.firstSeen])).toEqual([['fp-p-one-1', at(1)]]);
  });
});
