// Bench row: the embedded history at 365 runs of 1,000 findings. Each run is recorded as `check
// --history` records it (open and lock the file, read what earlier runs said, write the run,
// save it, close), with the SQLite driver of the Node that runs the bench (src/history/
// sqlite-drivers.ts: node:sqlite on Node 24.15+); 1 % of the findings change each run (10 fixed, 10 new). The
// limit is the cost of recording run 10 into a file of 9 runs; the row is the cost of recording
// run 366 into the file of 365, which should be within 1.2× of it, and the file bounded.
// The two are measured alternately (PAIRS times each, ABBA order, each into a fresh copy of its
// file, the copy untimed), so a slow second of the machine falls on both: timed minutes apart
// (runs 2–10, then 357–365), one bench run in several read 1.3–1.8× for a cost that read
// 0.9–1.15× alone (2026-11-27). Each recording takes ~0.13 s, so the pairs are cheap; with 15,
// nine runs of the section alone on 2026-12-02 read 1.02–1.34× (a median of 15 moves with a few
// slow seconds), with 45, four read 1.11–1.19×.
// The code is warmed first (WARM_UP runs into a file of their own): measured cold, the first
// runs paid for V8's compiling the history's code.
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median } from './bench-median.mjs';

const RUNS = 365;
const FINDINGS = 1000;
const CHANGED = 10;
const WARM_UP = 40;
const EARLY = 9;
const PAIRS = 45;

/** The history module, bundled from source (the library's public entry does not export it). */
async function historyModule(root) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-history-'));
  // Beside node_modules, so its packages (sql.js, pg) load as installed.
  const outfile = path.join(root, 'node_modules/.cache/steward-bench/history.mjs');
  await build({ entryPoints: [path.join(root, 'src/history/index.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  return { mod: await import(pathToFileURL(outfile).href), dir };
}

function report(run) {
  // Findings i … i+999, shifted by CHANGED a run: the oldest CHANGED fixed, CHANGED new.
  const first = run * CHANGED;
  const findings = Array.from({ length: FINDINGS }, (_, j) => {
    const i = first + j;
    return {
      policy: `policy-${i % 20}`,
      severity: ['low', 'medium', 'high'][i % 3],
      status: 'violation',
      resource: { kind: 'dataset', id: `ds-${i}`, name: `Dataset ${i}` },
      path: null,
      message: `Dataset ${i} breaks policy ${i % 20}: a message of ordinary length for a finding`,
      location: null,
      fingerprint: `fp-${i}`,
      baseline: null,
      fix: null,
      waiver: null,
    };
  });
  const ids = findings.map((f) => f.resource.id);
  const policies = Array.from({ length: 20 }, (_, p) => ({
    id: `policy-${p}`, title: '', description: '', severity: 'high', resource: 'dataset', status: 'fail', evaluated: FINDINGS, violations: FINDINGS / 20, error: null,
    resourceIds: [...ids, ...Array.from({ length: CHANGED }, (_, k) => `ds-${first - 1 - k}`)], location: null, tags: [], enforcement: 'hard', controls: {},
  }));
  const bySeverity = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const f of findings) bySeverity[f.severity]++;
  return {
    schemaVersion: 1, tool: { name: 'steward', version: 'bench' }, instance: 'https://bench.example', startedAt: new Date(Date.UTC(2025, 11, 1) + run * 86_400_000).toISOString(), durationMs: 1, failOn: 'low',
    summary: { policies: 20, resources: FINDINGS, checks: FINDINGS, violations: FINDINGS, waived: 0, errors: 0, bySeverity, gate: 'fail' },
    policies, findings, waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] }, overrides: [], frameworks: [], baseline: null, http: { requests: 0, retries: 0, failed: 0 },
  };
}

export async function benchHistory(root) {
  const { mod, dir } = await historyModule(root);
  const file = path.join(dir, 'history.sqlite');
  const early = path.join(dir, 'early.sqlite');
  const work = path.join(dir, 'work.sqlite');
  const record = async (at, run) => {
    const h = await mod.openRunHistory(at, 'history.sqlite', 'bench');
    await mod.recordReport(h, report(run), 'hash');
    await h.close();
  };
  const sizes = [];
  const costs = { early: [], late: [] };
  try {
    const warm = path.join(dir, 'warm-up.sqlite');
    for (let run = 1; run <= WARM_UP; run++) await record(warm, run);
    for (let run = 1; run <= RUNS; run++) {
      await record(file, run);
      sizes.push(statSync(file).size);
      if (run === EARLY) copyFileSync(file, early);
    }
    // One more run into a fresh copy of each file, timed; the copy is not.
    const timed = async (which) => {
      copyFileSync(which === 'early' ? early : file, work);
      const t0 = performance.now();
      await record(work, which === 'early' ? EARLY + 1 : RUNS + 1);
      costs[which].push(performance.now() - t0);
    };
    for (let i = 0; i < PAIRS; i++) {
      for (const which of i % 2 ? ['late', 'early'] : ['early', 'late']) await timed(which);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = median(costs.early);
  const last = median(costs.late);
  return { runs: RUNS, early: EARLY, findings: FINDINGS, firstMs: first, lastMs: last, ratio: last / first, bytesAt: { 1: sizes[0], 30: sizes[29], 365: sizes[RUNS - 1] } };
}
