// Bench row: waivers at scale. `steward waive` writes one waiver a violation, so a team that
// waives a large report next checks N violations against N waivers: each violation must find
// its waiver by lookup, not by trying every waiver (quadratic: 10,052 of each took a whole check
// from 0.9 to 14 s before src/engine/waivers.ts indexed them). applyWaivers is timed in this
// process at SMALL and LARGE violations, each with its own waiver (listed in reverse, so a scan
// from the top reaches each one late) and GLOBBED globs of the same policy that match none; the
// cost per violation at LARGE must stay within 1.5× the cost at SMALL.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median } from './bench-median.mjs';
import { processUsage } from './bench-process.mjs';

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

/**
 * The same scale as bad input: `steward validate` of a waivers file whose every entry's resource
 * is a list (a choice of string or integer in the schema, so each entry is a failed anyOf), at
 * BAD_SMALL and BAD_LARGE entries, whole processes (median of 3 CPU). Each error was compared with
 * every choice error until src/io/schema-problems.ts indexed them by path: 8,000 entries took 59 s.
 * The CPU per entry at BAD_LARGE must stay within 1.5× that at BAD_SMALL (start-up counts in both).
 */
const BAD_SMALL = 2_000;
const BAD_LARGE = 8_000;

export function benchBadWaivers(dir) {
  mkdirSync(dir, { recursive: true });
  const rows = [BAD_SMALL, BAD_LARGE].map((n) => {
    const waivers = path.join(dir, `bad-${n}.yaml`);
    writeFileSync(waivers, `waivers:\n${'  - { policy: bench-policy, resource: [1], reason: r, owner: o, expires: 2099-12-31 }\n'.repeat(n)}`);
    const config = path.join(dir, `steward-${n}.yaml`);
    writeFileSync(config, `policies: [builtin]\nwaivers: ${path.basename(waivers)}\n`);
    const usage = processUsage(['dist/cli.js', 'validate', '--config', config], { runs: 3, exitCodes: [2] });
    return { n, cpuMs: usage.cpuMs, status: usage.status };
  });
  const perEntry = rows.map((r) => r.cpuMs / r.n);
  return { rows, perEntry, ratio: perEntry[1] / perEntry[0] };
}
