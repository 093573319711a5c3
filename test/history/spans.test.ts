// The bounded, incremental history (src/history/spans.ts): a run that changes nothing adds no
// finding row; a history of schema 1 is migrated with every run's findings and lifecycles
// intact; `keep` folds older runs into their totals (their findings refused by diff, their
// totals still listed); the file stops growing.
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { HISTORY_SCHEMA_VERSION, listRuns, openHistory, openRunHistory, recordReport, runContents } from '../../src/history/index.js';
import { SQLITE_MIGRATIONS } from '../../src/history/migrations.js';
import { OPEN_RUN } from '../../src/history/spans.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { sampleFinding, sampleReport } from './sample-report.js';

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const count = async (file: string, table: string) => {
  const db = await openHistory(file, 'h.sqlite', { create: false });
  try {
    return Number((await db.all(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
  } finally {
    await db.close();
  }
};

async function record(file: string, reports: Report[], keep?: { runs: number } | { days: number }): Promise<Report[]> {
  const h = await openRunHistory(file, 'h.sqlite', 'test');
  try {
    const out: Report[] = [];
    for (const r of reports) out.push(await recordReport(h, r, 'hash', keep));
    return out;
  } finally {
    await h.close();
  }
}

describe('spans', () => {
  it('a run that changes nothing adds no finding row, and the file stops growing', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    await record(file, [sampleReport(300, undefined, at(1))]);
    const [texts, spans] = [await count(file, 'texts'), await count(file, 'spans')];
    expect([texts, spans]).toEqual([300, 300]);
    const size = statSync(file).size;
    await record(file, Array.from({ length: 20 }, (_, i) => sampleReport(300, undefined, at(i + 2))));
    expect([await count(file, 'texts'), await count(file, 'spans'), await count(file, 'runs'), await count(file, 'policy_spans')]).toEqual([300, 300, 21, 1]);
    // 20 more runs: their totals only (a row each), not 6,000 finding rows.
    expect(statSync(file).size - size).toBeLessThan(20 * 1024);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      const [run1, run21] = [await runContents(db, 1), await runContents(db, 21)];
      expect(run1!.findings).toHaveLength(300);
      expect(new Set(run1!.findings.map((f) => f.lifecycle))).toEqual(new Set(['new']));
      expect(new Set(run21!.findings.map((f) => f.lifecycle))).toEqual(new Set(['open']));
      expect(run21!.findings.map((f) => f.fingerprint)).toEqual(run1!.findings.map((f) => f.fingerprint));
    } finally {
      await db.close();
    }
  });

  it('texts with a resource name are found again: unchanged runs with names add nothing either', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const named = (r: Report) => ({ ...r, findings: r.findings.map((f) => ({ ...f, resource: { ...f.resource, name: `Dataset ${f.resource.id}` } })) });
    await record(file, [named(sampleReport(3, undefined, at(1))), named(sampleReport(3, undefined, at(2))), named(sampleReport(3, undefined, at(3)))]);
    expect([await count(file, 'texts'), await count(file, 'spans')]).toEqual([3, 3]);
  });

  it('a run that changes nothing reads the open spans once and writes none of them, whatever the number of policies', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    // 1,200 findings over three policies, recorded twice; the second recording's statements counted.
    const three = (startedAt: string): Report => {
      const r = sampleReport(1200, undefined, startedAt);
      const policyOf = (i: number) => `p-${i % 3}`;
      return {
        ...r,
        policies: [0, 1, 2].map((p) => ({ ...r.policies[0]!, id: `p-${p}`, resourceIds: r.policies[0]!.resourceIds })),
        findings: r.findings.map((f, i) => ({ ...f, policy: policyOf(i), fingerprint: `fp-${policyOf(i)}-${i}` })),
      };
    };
    await record(file, [three(at(1))]);
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    const statements: string[] = [];
    for (const method of ['all', 'bulk', 'run'] as const) {
      const original = h.db[method].bind(h.db);
      h.db[method] = ((sql: string, params?: unknown[]) => {
        statements.push(sql.replace(/\s+/g, ' ').replace(/\?(, \?)+/, '?…').slice(0, 60));
        return original(sql, params as never);
      }) as never;
    }
    let second: Report;
    try {
      second = await recordReport(h, three(at(2)), 'hash');
    } finally {
      await h.close();
    }
    expect(new Set(second.findings.map((f) => f.lifecycle))).toEqual(new Set(['open']));
    const times = (start: string) => statements.filter((s) => s.startsWith(start)).length;
    expect(times('SELECT s.id, s.status, s.first_seen')).toBe(1);
    // … as one JSON text, not a row at a time (json-rows.ts).
    expect(times('SELECT json_group_array(json_array(CASE WHEN typeof("id")')).toBe(1);
    // Each stays open as it was (schema 3 rewrote the last run of all 1,200, three statements of 500).
    expect(times('UPDATE spans')).toBe(0);
    // Every text is its open span's, and so is every first sighting: none is looked up or written again.
    expect(times('SELECT * FROM texts')).toBe(0);
    expect(times('SELECT t.fingerprint, MIN(s.first_seen)')).toBe(0);
    expect(times('INSERT INTO')).toBe(1);
    expect([await count(file, 'texts'), await count(file, 'spans')]).toEqual([1200, 1200]);
  });

  it('exactly 500 findings (one full chunk of the IN lists) are found again', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const [, second] = await record(file, [sampleReport(500, undefined, at(1)), sampleReport(500, undefined, at(2))]);
    expect(new Set(second!.findings.map((f) => f.lifecycle))).toEqual(new Set(['open']));
    expect(await count(file, 'spans')).toBe(500);
  });

  it('a span reaches only across runs that evaluated its policy: gone while its policy ran, back later, it is a new span', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    // Two policies: p-one's finding ds-0, and p-two's. Run 2 runs p-one only (ds-0 gone), run 3 p-one again (ds-0 back).
    const two = (r: Report, withTwo: boolean): Report => {
      const extra = withTwo ? [{ ...r.policies[0]!, id: 'p-two', resourceIds: ['ds-9'] }] : [];
      const finding = { ...r.findings[0], policy: 'p-two', fingerprint: 'fp-p-two-9', resource: { kind: 'dataset', id: 'ds-9', name: null } };
      return { ...r, policies: [...r.policies, ...extra], findings: [...r.findings, ...(withTwo && r.findings[0] ? [finding as Report['findings'][number]] : [])] };
    };
    await record(file, [two(sampleReport(1, undefined, at(1)), true), two(sampleReport(0, undefined, at(2), 1), false), two(sampleReport(1, undefined, at(3)), false)]);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      expect((await runContents(db, 2))!.findings.map((f) => f.fingerprint)).toEqual([]);
      expect((await runContents(db, 3))!.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([['fp-p-one-0', 'reopened']]);
      expect((await db.all("SELECT first_run, last_run FROM spans s JOIN texts t ON t.id = s.text_id WHERE t.fingerprint = 'fp-p-one-0' ORDER BY s.id")).map((r) => [r.first_run, r.last_run])).toEqual([
        [1, 1],
        [3, OPEN_RUN],
      ]);
    } finally {
      await db.close();
    }
  });

  it('policies last evaluated at different runs: each is read at its own (what one held then is not what the other says)', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    // p-two runs at 1 and 3 only; p-one at 1, 2 (ds-0 gone) and 3 (ds-0 back). At run 3 p-two's
    // last run is 1, where p-one still held ds-0: that is not p-one's word at its own last run, 2.
    const two = (r: Report, withTwo: boolean): Report => {
      const extra = withTwo ? [{ ...r.policies[0]!, id: 'p-two', resourceIds: ['ds-9'] }] : [];
      const finding = { ...sampleFinding(9), policy: 'p-two', fingerprint: 'fp-p-two-9' };
      return { ...r, policies: [...r.policies, ...extra], findings: [...r.findings, ...(withTwo ? [finding] : [])] };
    };
    const [, , third] = await record(file, [two(sampleReport(1, undefined, at(1)), true), two(sampleReport(0, undefined, at(2), 1), false), two(sampleReport(1, undefined, at(3)), true)]);
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'reopened', at(1)],
      ['fp-p-two-9', 'open', at(1)],
    ]);
    expect(third!.fixed).toEqual([]);
  });

  it('a run whose policy was in error holds none of its findings, though the span reaches across it', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const inError = (r: Report): Report => ({
      ...r,
      findings: [],
      policies: r.policies.map((p) => ({ ...p, status: 'error', evaluated: 0, violations: 0, error: 'could not list datasets', resourceIds: [] })),
      summary: { ...r.summary, violations: 0, errors: 1, gate: 'error' },
    });
    await record(file, [sampleReport(1, undefined, at(1)), inError(sampleReport(1, undefined, at(2))), sampleReport(1, undefined, at(3))]);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      // Run 2 did not evaluate p-one: its finding is neither there nor gone; run 3 continues it.
      expect((await runContents(db, 2))!.findings).toEqual([]);
      expect((await runContents(db, 3))!.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([['fp-p-one-0', 'open']]);
      expect((await db.all('SELECT first_run, last_run FROM spans')).map((r) => [r.first_run, r.last_run])).toEqual([[1, OPEN_RUN]]);
    } finally {
      await db.close();
    }
  });

  it('a finding still there while its policy had an error on another resource: its span reaches into that run; the next evaluating run finds it open and starts a span of its own', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    // Run 2: p-one in error (ds-1 could not be evaluated), its finding on ds-0 still reported.
    const partlyInError = (r: Report): Report => ({
      ...r,
      findings: [...r.findings, { ...r.findings[0]!, status: 'error', resource: { kind: 'dataset', id: 'ds-1', name: null }, fingerprint: 'fp-error', message: 'could not evaluate' }],
      policies: r.policies.map((p) => ({ ...p, status: 'error', error: 'ds-1: could not evaluate', resourceIds: ['ds-0', 'ds-1'] })),
      summary: { ...r.summary, errors: 1, gate: 'error' },
    });
    const [, second, third] = await record(file, [sampleReport(1, undefined, at(1)), partlyInError(sampleReport(1, undefined, at(2))), sampleReport(1, undefined, at(3))]);
    expect(second!.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([
      ['fp-p-one-0', 'open'],
      ['fp-error', null],
    ]);
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([['fp-p-one-0', 'open', at(1)]]);
    expect(third!.fixed).toEqual([]);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      // The span reaching into run 2 (an error run) is not the one run 3 extends: run 1 was p-one's last evaluating run.
      expect((await db.all('SELECT first_run, last_run FROM spans ORDER BY id')).map((r) => [r.first_run, r.last_run])).toEqual([
        [1, 2],
        [3, OPEN_RUN],
      ]);
      expect(await count(file, 'texts')).toBe(1);
    } finally {
      await db.close();
    }
  });

  it.each([
    ['severity', (f: Report['findings'][number]) => ({ ...f, severity: 'critical' as const })],
    ['resource name', (f: Report['findings'][number]) => ({ ...f, resource: { ...f.resource, name: 'Renamed' } })],
    ['resource kind', (f: Report['findings'][number]) => ({ ...f, resource: { ...f.resource, kind: 'card' } })],
    ['resource id', (f: Report['findings'][number]) => ({ ...f, resource: { ...f.resource, id: 'ds-other' } })],
    ['policy', (f: Report['findings'][number]) => ({ ...f, policy: 'p-renamed' })],
  ])('a finding whose %s changes under the same fingerprint gets a new text and a new span', async (_, change) => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const changed = (r: Report): Report => ({ ...r, findings: r.findings.map(change), policies: [...r.policies, { ...r.policies[0]!, id: 'p-renamed' }] });
    const original = (r: Report): Report => ({ ...r, policies: [...r.policies, { ...r.policies[0]!, id: 'p-renamed' }] });
    await record(file, [original(sampleReport(1, undefined, at(1))), changed(sampleReport(1, undefined, at(2)))]);
    expect([await count(file, 'texts'), await count(file, 'spans')]).toEqual([2, 2]);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      const [first, second] = [(await runContents(db, 1))!.findings[0]!, (await runContents(db, 2))!.findings[0]!];
      const { lifecycle: _l1, status: _s1, firstSeen: _f1, ...was } = first;
      const { lifecycle: _l2, status: _s2, firstSeen: _f2, ...now } = second;
      expect(was).toEqual({ fingerprint: 'fp-p-one-0', policy: 'p-one', severity: 'high', resource: { kind: 'dataset', id: 'ds-0', name: null }, message: 'violation 0' });
      const { status: _s, path: _p, location: _loc, baseline: _b, fix: _fx, waiver: _w, ...expected } = change(sampleFinding(0));
      expect(now).toEqual(expected);
    } finally {
      await db.close();
    }
  });

  it('a named finding gone and back reuses its text', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const named = (r: Report) => ({ ...r, findings: r.findings.map((f) => ({ ...f, resource: { ...f.resource, name: `Dataset ${f.resource.id}` } })) });
    const [, , third] = await record(file, [named(sampleReport(2, undefined, at(1))), named(sampleReport(1, undefined, at(2), 2)), named(sampleReport(2, undefined, at(3)))]);
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([
      ['fp-p-one-0', 'open'],
      ['fp-p-one-1', 'reopened'],
    ]);
    expect([await count(file, 'texts'), await count(file, 'spans')]).toEqual([2, 3]);
  });

  it('a finding that changes its message opens a new span; one gone and back is reopened, its first sighting kept', async () => {
    const file = path.join(tempDir('steward-spans-'), 'h.sqlite');
    const [, , third, fourth, fifth] = await record(file, [sampleReport(2, 'first', at(1)), sampleReport(2, 'second', at(2)), sampleReport(1, 'second', at(3), 2), sampleReport(2, 'second', at(4)), sampleReport(2, 'second', at(5))]);
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      expect((await runContents(db, 1))!.findings.map((f) => f.message)).toEqual(['first', 'first']);
      expect((await runContents(db, 2))!.findings.map((f) => [f.message, f.lifecycle])).toEqual([
        ['second', 'open'],
        ['second', 'open'],
      ]);
    } finally {
      await db.close();
    }
    expect(third!.fixed?.map((f) => f.fingerprint)).toEqual(['fp-p-one-1']);
    expect(fourth!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'reopened', at(1)],
    ]);
    // Open again, each keeps its first sighting: the reopened one's from its earlier spans, through its new span.
    expect(fifth!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'open', at(1)],
    ]);
    // Texts once per variant: two messages × two findings.
    expect(await count(file, 'texts')).toBe(4);
  });
});

describe('schema 1 → 2', () => {
  it('a history written by schema 1 is migrated: every run reads back the same, and the next run continues its lifecycles', async () => {
    const SQL = await initSqlJs();
    const v1 = new SQL.Database();
    v1.exec(SQLITE_MIGRATIONS[0]!.sql);
    v1.run('PRAGMA user_version = 1');
    const run = (id: number, violations: number) =>
      v1.run(
        `INSERT INTO runs (id, started_at, instance, tool_version, policy_hash, gate, fail_on, policies, resources, violations, waived, errors, by_severity, new_count, reopened_count, fixed_count, requests, duration_ms)
         VALUES (?, ?, 'https://example.test', '0.0.9', 'hash', 'fail', 'low', 1, 2, ?, 0, 0, '{"high":1}', 0, 0, 0, 1, 1)`,
        [id, at(id), violations],
      );
    const finding = (runId: number, i: number, lifecycle: string) =>
      v1.run(
        `INSERT INTO findings (run_id, fingerprint, policy, resource_kind, resource_id, resource_name, status, severity, message, first_seen, lifecycle)
         VALUES (?, ?, 'p-one', 'dataset', ?, ?, 'violation', 'high', ?, ?, ?)`,
        [runId, `fp-p-one-${i}`, `ds-${i}`, i === 0 ? 'Sales' : null, `violation ${i}`, at(1), lifecycle],
      );
    run(1, 2);
    v1.run("INSERT INTO run_policies VALUES (1, 'p-one', 'fail')");
    finding(1, 0, 'new');
    finding(1, 1, 'new');
    run(2, 1);
    v1.run("INSERT INTO run_policies VALUES (2, 'p-one', 'fail')");
    finding(2, 0, 'open');
    const file = path.join(tempDir('steward-v1-'), 'h.sqlite');
    writeFileSync(file, v1.export());
    v1.close();

    const db = await openHistory(file, 'h.sqlite', { create: true });
    try {
      expect((await db.all('PRAGMA user_version'))[0]!.user_version).toBe(HISTORY_SCHEMA_VERSION);
      expect((await listRuns(db)).map((r) => [r.run, r.violations])).toEqual([
        [1, 2],
        [2, 1],
      ]);
      expect((await runContents(db, 1))!.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([
        ['fp-p-one-0', 'new'],
        ['fp-p-one-1', 'new'],
      ]);
      expect((await runContents(db, 2))!.findings.map((f) => [f.fingerprint, f.lifecycle, f.resource.name])).toEqual([['fp-p-one-0', 'open', 'Sales']]);
      expect((await runContents(db, 1))!.findings.map((f) => f.resource.name)).toEqual(['Sales', null]);
      expect(await db.all("SELECT name FROM sqlite_master WHERE name IN ('findings', 'run_policies')")).toEqual([]);
      // ds-0 present in both runs is one span; ds-1 one run long.
      expect((await db.all('SELECT t.fingerprint, s.first_run, s.last_run FROM spans s JOIN texts t ON t.id = s.text_id ORDER BY s.id')).map((r) => [r.fingerprint, r.first_run, r.last_run])).toEqual([
        ['fp-p-one-0', 1, OPEN_RUN],
        ['fp-p-one-1', 1, 1],
      ]);
      await db.save();
    } finally {
      await db.close();
    }
    // Run 3: ds-1 back (reopened, first seen on day 1), ds-0 still open.
    const [third] = await record(file, [sampleReport(2, undefined, at(3))]);
    expect(third!.findings.map((f) => [f.fingerprint, f.lifecycle, f.firstSeen])).toEqual([
      ['fp-p-one-0', 'open', at(1)],
      ['fp-p-one-1', 'reopened', at(1)],
    ]);
  });
});

describe('history.keep', () => {
  it('runs past keep are folded into their totals: listed, their findings no longer kept, diff refusing them', async () => {
    const dir = tempDir('steward-keep-');
    const file = path.join(dir, 'h.sqlite');
    await record(file, [sampleReport(3, undefined, at(1)), sampleReport(2, undefined, at(2), 3), sampleReport(2, undefined, at(3), 3), sampleReport(1, undefined, at(4), 3)], { runs: 2 });
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      const runs = await listRuns(db);
      expect(runs.map((r) => [r.run, r.violations])).toEqual([
        [1, 3],
        [2, 2],
        [3, 2],
        [4, 1],
      ]);
      expect((await db.all('SELECT id, folded FROM runs ORDER BY id')).map((r) => [r.id, r.folded])).toEqual([
        [1, 1],
        [2, 1],
        [3, 0],
        [4, 0],
      ]);
      expect(Number((await db.all('SELECT COUNT(*) AS n FROM policy_spans WHERE last_run < 3'))[0]!.n)).toBe(0);
      // ds-2's span ended at run 1: gone with it; ds-0 and ds-1 reach into the kept runs.
      expect((await db.all('SELECT t.resource_id FROM texts t ORDER BY t.id')).map((r) => r.resource_id)).toEqual(['ds-0', 'ds-1']);
      expect((await runContents(db, 4))!.findings.map((f) => f.fingerprint)).toEqual(['fp-p-one-0']);
    } finally {
      await db.close();
    }
    const diff = await runCli(['diff', '1', '4', '--history', file], { cwd: dir });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('run 1 was folded into its totals (history.keep): its findings are no longer kept');
  });

  it('folding drops the policy statuses of folded runs too', async () => {
    const file = path.join(tempDir('steward-keep-'), 'h.sqlite');
    // Run 1 passes, runs 2–3 fail: two policy spans; keeping 2 runs folds run 1 and its span.
    await record(file, [sampleReport(0, undefined, at(1)), sampleReport(1, undefined, at(2)), sampleReport(1, undefined, at(3))], { runs: 2 });
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      expect((await db.all('SELECT status, first_run, last_run FROM policy_spans ORDER BY id')).map((r) => [r.status, r.first_run, r.last_run])).toEqual([['fail', 2, 3]]);
    } finally {
      await db.close();
    }
  });

  it('a span still open is folded with its policy\'s last evaluating run, and stays whole while that run is kept', async () => {
    const file = path.join(tempDir('steward-keep-'), 'h.sqlite');
    // p-two evaluated at run 1 only, p-three at runs 1 and 3, p-one at every run: each one's finding open since run 1.
    const withOthers = (r: Report, ...others: string[]): Report => ({
      ...r,
      policies: [...r.policies, ...others.map((id) => ({ ...r.policies[0]!, id, resourceIds: ['ds-9'] }))],
      findings: [...r.findings, ...others.map((id) => ({ ...sampleFinding(9), policy: id, fingerprint: `fp-${id}-9` }))],
    });
    await record(
      file,
      [withOthers(sampleReport(1, undefined, at(1)), 'p-two', 'p-three'), sampleReport(1, undefined, at(2)), withOthers(sampleReport(1, undefined, at(3)), 'p-three'), sampleReport(1, undefined, at(4))],
      { runs: 2 },
    );
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      // Runs 1–2 folded: p-two's span went with run 1; p-one's and p-three's (last evaluated at run 3, kept) reach into the kept runs.
      expect((await db.all('SELECT t.fingerprint, s.first_run, s.last_run FROM spans s JOIN texts t ON t.id = s.text_id ORDER BY s.id')).map((r) => [r.fingerprint, r.first_run, r.last_run])).toEqual([
        ['fp-p-one-0', 1, OPEN_RUN],
        ['fp-p-three-9', 1, OPEN_RUN],
      ]);
      expect(await count(file, 'texts')).toBe(2);
    } finally {
      await db.close();
    }
  });

  it('keep in days folds the runs older than that many days before the run recorded', async () => {
    const file = path.join(tempDir('steward-keep-'), 'h.sqlite');
    await record(file, [sampleReport(1, undefined, at(1)), sampleReport(1, undefined, at(5)), sampleReport(1, undefined, at(9)), sampleReport(1, undefined, at(10))], { days: 3 });
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      // Run 4 on day 10 keeps days 7–10: runs 3 and 4.
      expect((await db.all('SELECT id, folded FROM runs ORDER BY id')).map((r) => [r.id, r.folded])).toEqual([
        [1, 1],
        [2, 1],
        [3, 0],
        [4, 0],
      ]);
    } finally {
      await db.close();
    }
  });

  it('history: { path, keep } in steward.yaml; a bad keep is exit 2 at its line', async () => {
    const dir = tempDir('steward-keep-config-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nhistory: { path: h.sqlite, keep: 90x }\n');
    const bad = await runCli(['validate'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^steward\.yaml:2:\d+: /m);
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nhistory: { path: h.sqlite, keep: 90d }\n');
    const config = await runCli(['check', '--print-config', '--format', 'json'], { cwd: dir });
    expect(config.code).toBe(0);
    expect(config.stdout).toContain('h.sqlite');
  });
});
