// Bench row: waivers at scale. `steward waive` writes one waiver a violation, so a team that
// waives a large report next checks N violations against N waivers: each violation must find
// its waiver by lookup, not by trying every waiver (quadratic: 10,052 of each took a whole check
// from 0.9 to 14 s before src/engine/waivers.ts indexed them). applyWaivers is timed in this
// process at SMALL and LARGE violations, each with its own waiver (listed in reverse, so a scan
// from the top reaches each one late) and GLOBBED globs of the same policy that match none; the
// cost per violation at LARGE must stay within 1.5× the cost at SMALL.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median } from './bench-median.mjs';

const SMALL = 10_000;
const LARGE = 40_000;
const GLOBBED = 20;
const RUNS = 5;

/** The waivers module, bundled from source (the library's public entry does not export it). */
async function waiversModule(root) {
  const outfile = path.join(root, 'node_modules/.cache/steward-bench/waivers.mjs');
  await build({ entryPoints: [path.join(root, 'src/engine/waivers.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

function violations(n) {
  return Array.from({ length: n }, (_, i) => ({
    policy: 'bench-policy',
    severity: 'low',
    status: 'violation',
    resource: { kind: 'reportSchedule', id: String(100_000 + i), name: null },
    path: null,
    item: null,
    message: `Report schedule ${100_000 + i} runs daily`,
    location: null,
    fingerprint: `fp-${i}`,
    baseline: null,
    fix: null,
    waiver: null,
  }));
}

function waiversFor(findings) {
  const base = { policy: 'bench-policy', reason: 'accepted for the migration', owner: 'gov@acme.example', expires: '2099-12-31' };
  const named = findings.map((f) => ({ ...base, resource: f.resource.id })).reverse();
  const globbed = Array.from({ length: GLOBBED }, (_, i) => ({ ...base, resource: `legacy-${i}-*` }));
  return [...named, ...globbed];
}

/** Milliseconds of applyWaivers for n violations and their waivers (median of RUNS, after one unmeasured). */
function applyMs(mod, n) {
  const findings = violations(n);
  const waivers = waiversFor(findings);
  const now = new Date('2026-12-01T00:00:00Z');
  const times = [];
  let waived = 0;
  for (let run = 0; run <= RUNS; run++) {
    const t0 = performance.now();
    const out = mod.applyWaivers(findings, waivers, now);
    if (run > 0) times.push(performance.now() - t0);
    waived = out.findings.filter((f) => f.status === 'waived').length;
  }
  return { ms: median(times), waived, stale: GLOBBED };
}

export async function benchWaivers(root) {
  const mod = await waiversModule(root);
  const rows = [SMALL, LARGE].map((n) => ({ n, ...applyMs(mod, n) }));
  const perViolation = rows.map((r) => (r.ms * 1000) / r.n);
  return { rows, perViolation, ratio: perViolation[1] / perViolation[0] };
}
