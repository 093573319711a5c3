// Benchmark 6: the HTML report with 10,000 findings and a 20-run trend. Its size, the time to
// format it, and the time headless Chromium (scripts/chromium.mjs) takes to load and lay it out, each as a
// ratio against a limit measured in the same run: JSON.stringify of the same report for the
// formatting, and a bare HTML table of the same rows (no style, no script) for the browser.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, medianMs } from './bench-median.mjs';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'];

export function bigReport(n, policyCount = 16) {
  const startedAt = '2026-11-23T06:00:00.000Z';
  const findings = Array.from({ length: n }, (_, i) => ({
    policy: `policy-${i % policyCount}`,
    severity: SEVERITIES[i % 5],
    status: i % 50 === 0 ? 'waived' : 'violation',
    resource: { kind: 'dataset', id: `ds-${String(i).padStart(6, '0')}`, name: `Dataset ${i}` },
    path: null,
    message: `Dataset ds-${i} has no GROUP with OWNER access (certified ${i % 7} days ago)`,
    location: { file: 'policies/datasets.yaml', line: 4, column: 5 },
    fingerprint: `fp${i}`,
    baseline: null,
    fix: null,
    waiver: i % 50 === 0 ? { policy: `policy-${i % 16}`, resource: `ds-${i}`, reason: 'accepted', owner: 'gov@acme.example', expires: '2099-12-31' } : null,
    lifecycle: ['new', 'open', 'reopened'][i % 3],
    firstSeen: '2026-10-01T06:00:00.000Z',
  }));
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s && f.status === 'violation').length]));
  const trend = Array.from({ length: 20 }, (_, i) => ({ run: i + 1, startedAt, gate: 'fail', violations: n - 200 + i * 10, bySeverity, new: 5, reopened: 1, fixed: 3 }));
  const policies = Array.from({ length: 16 }, (_, i) => ({
    id: `policy-${i}`, title: `Policy ${i}`, description: '', severity: SEVERITIES[i % 5], resource: 'dataset', status: 'fail',
    evaluated: n, violations: n / 16, error: null, resourceIds: [], location: null, tags: [], enforcement: 'hard', controls: {},
  }));
  return {
    schemaVersion: 1, tool: { name: 'steward', version: 'bench' }, instance: 'https://acme.example.com', startedAt, durationMs: 1000, failOn: 'low',
    summary: { policies: 16, resources: n, checks: n, violations: n - n / 50, waived: n / 50, errors: 0, bySeverity, gate: 'fail' },
    policies, findings, waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] }, overrides: [], frameworks: [], baseline: null,
    fixed: [], history: { file: 'history.sqlite', run: 20, new: 5, open: n - 6, reopened: 1, fixed: 3, trend }, http: { requests: 1, retries: 0, failed: 0 },
  };
}

function bareTable(report) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = report.findings.map((f) => `<tr><td>${f.severity}</td><td>${esc(f.resource.id)}</td><td>${esc(f.message)}</td><td>${f.status}</td><td>${f.lifecycle}</td></tr>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><table>${rows.join('\n')}</table></body></html>`;
}

/** Milliseconds from navigation start to the end of the load event, as the page measured it. */
async function loadTime(browser, file) {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const ms = await page.evaluate(() => {
    const [nav] = performance.getEntriesByType('navigation');
    return nav.loadEventEnd - nav.startTime;
  });
  await page.close();
  return ms;
}

/** 100,000 findings in one policy, each format once cold, then the median of 3 (argv: the report bundle, this module). */
const ONE_POLICY = `
const [bundle, bench] = process.argv.slice(1);
const { formatReport } = await import(bundle);
const { bigReport } = await import(bench);
const { medianMs } = await import(new URL('./bench-median.mjs', bench).href);
const one = bigReport(100_000, 1);
formatReport('html', one, { color: false });
formatReport('json', one, { color: false });
const htmlOne = await medianMs(3, () => formatReport('html', one, { color: false }));
const jsonOne = await medianMs(3, () => formatReport('json', one, { color: false }));
process.stdout.write(JSON.stringify({ htmlOne, jsonOne }));
`;

export async function benchHtml(print, table, expect) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-html-'));
  const bundle = path.join(dir, 'report.mjs');
  await build({ entryPoints: ['src/report/index.ts'], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
  const { formatReport } = await import(pathToFileURL(bundle).href);
  const report = bigReport(10_000);
  const html = formatReport('html', report, { color: false });
  const formatMs = await medianMs(5, () => formatReport('html', report, { color: false }));
  const jsonMs = await medianMs(5, () => JSON.stringify(report));
  writeFileSync(path.join(dir, 'report.html'), html);
  writeFileSync(path.join(dir, 'bare.html'), bareTable(report));
  expect((html.match(/<tr class="finding"/g) ?? []).length === 10_000, 'html: not 10,000 finding rows');
  let browserRow;
  const found = await findChromium();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], env: { ...process.env, ...found.env } });
  try {
    // Warm up once; then the median of 3 loads each, alternating, as the page measured them.
    await loadTime(browser, path.join(dir, 'bare.html'));
    const times = { report: [], bare: [] };
    for (let i = 0; i < 3; i++) {
      times.report.push(await loadTime(browser, path.join(dir, 'report.html')));
      times.bare.push(await loadTime(browser, path.join(dir, 'bare.html')));
    }
    const [r, b] = [median(times.report), median(times.bare)];
    browserRow = [`${Math.round(r)} ms`, `${Math.round(b)} ms`, `${(r / b).toFixed(2)}×`];
  } finally {
    await browser.close();
  }
  print('\n### 6. HTML report (10,000 findings, 16 policies, a 20-run trend)\n');
  print(
    table(
      ['size MB', 'format ms', 'JSON.stringify ms', 'format ÷ stringify', 'Chromium load', 'bare table load', 'load ÷ bare'],
      [[(Buffer.byteLength(html) / 2 ** 20).toFixed(2), formatMs.toFixed(0), jsonMs.toFixed(0), `${(formatMs / jsonMs).toFixed(1)}×`, ...browserRow]],
    ),
  );
  // Issue 29's row: 100,000 findings in one policy (the shape that made the grouping quadratic),
  // the HTML report against the JSON report of the same report.
  // In a process of its own: the bench's heap, grown by the sections before, slowed the HTML
  // formatter's garbage collection and not JSON.stringify's.
  const { htmlOne, jsonOne } = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', ONE_POLICY, pathToFileURL(bundle).href, import.meta.url], { encoding: 'utf8', maxBuffer: 1 << 20 }),
  );
  const ratio = htmlOne / jsonOne;
  print('\n100,000 findings in one policy, each format against the JSON report of the same run (goal ≤ 1.5×):\n');
  print(table(['HTML ms', 'JSON report ms', 'ratio', 'goal'], [[htmlOne.toFixed(0), jsonOne.toFixed(0), `${ratio.toFixed(2)}×`, `≤ 1.5× ${ratio <= 1.5 ? '(met)' : '(not met)'}`]]));
  rmSync(dir, { recursive: true, force: true });
}
