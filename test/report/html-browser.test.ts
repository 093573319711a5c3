// The HTML report in a real browser (headless Chromium from scripts/chromium.mjs: the packaged
// one npm ci brings, or Debian's when installed; driven by playwright-core): the demo
// with three runs of history opens with no console error and no request beyond the file
// itself; the trend's points and the findings' rows are read back from the DOM; sorting and
// filtering work with script, and everything is there without it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import type { Report } from '../../src/core/model.js';
import { check } from '../../src/library/index.js';
import { formatReport } from '../../src/report/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { PLANTED, REPO, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
let browser: Browser;
let report: Report;
const dir = tempDir('steward-html-');
const file = path.join(dir, 'report.html');

async function demoRun(): Promise<Report> {
  return check({
    config: path.join(REPO, 'demo/steward.yaml'),
    cwd: REPO,
    env: {},
    baseUrl: sandbox.baseUrl,
    workflowUrl: sandbox.workflowUrl,
    token: sandbox.token,
    history: path.join(dir, 'history.sqlite'),
  });
}

beforeAll(async () => {
  const found = await findChromium();
  sandbox = await startSandbox();
  await demoRun();
  const s9004 = sandbox.state.schedules.find((s) => s.id === 9004)!;
  s9004.schedule.timezone = 'Europe/Berlin';
  sandbox.state.workflows.push({ ...sandbox.state.workflows.find((w) => w.id === 'wf-unnamed')!, id: 'wf-added' });
  await demoRun();
  s9004.schedule.timezone = 'Mars/Olympus';
  report = await demoRun();
  writeFileSync(file, formatReport('html', report, { color: false, cwd: REPO }));
  browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], env: { ...process.env, ...found.env } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function open(javaScriptEnabled: boolean, width = 1280, hash = ''): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`file://${file}${hash}`, { waitUntil: 'load' });
  return { page, errors, requests };
}

describe('HTML report in headless Chromium', () => {
  it('opens with no console error and no request but the file itself', async () => {
    const { page, errors, requests } = await open(true);
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${file}`]);
    expect(await page.title()).toBe(`steward report: ${report.instance} (${report.startedAt})`);
  });

  it('draws one point per run of the trend, with its run and violations', async () => {
    const { page } = await open(true);
    const points = await page.$$eval('svg.trend circle.point', (cs) => cs.map((c) => [c.getAttribute('data-run'), c.getAttribute('data-violations'), Number(c.getAttribute('cy'))]));
    expect(points.map(([run, v]) => [Number(run), Number(v)])).toEqual(report.history!.trend.map((t) => [t.run, t.violations]));
    expect(points.map(([run, v]) => [Number(run), Number(v)])).toEqual([
      [1, PLANTED.length],
      [2, PLANTED.length],
      [3, PLANTED.length + 1],
    ]);
    // More violations is higher on the chart (smaller y).
    expect((points[2]![2] as number) < (points[0]![2] as number)).toBe(true);
  });

  it('lists every finding grouped by policy, with lifecycle and age', async () => {
    const { page } = await open(true);
    const rows = await page.$$eval('tr.finding', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    const tracked = report.findings.filter((f) => f.status !== 'error');
    expect(rows).toHaveLength(tracked.length);
    const row9004 = rows.find((r) => r[1] === 'reportSchedule/9004')!;
    expect([row9004[0], row9004[4], row9004[5], row9004[6]]).toEqual(['medium', 'violation', 'reopened', '0']);
    expect(rows.find((r) => r[1] === 'workflow/wf-added')?.[5]).toBe('open');
    const headings = await page.$$eval('section[aria-labelledby="findings-h"] h3', (hs) => hs.map((h) => h.id));
    expect([...headings].sort()).toEqual([...new Set(tracked.map((f) => `policy-${f.policy}`))].sort());
    const waived = await page.$$eval('tr.finding[data-status="waived"] td:nth-child(5)', (tds) => tds.map((td) => td.textContent));
    expect(waived).toEqual(['waived (governance@acme.example, until 2099-12-31)']);
  });

  it('filters by text and severity, and sorts by a clicked column', async () => {
    const { page } = await open(true);
    const visible = () => page.$$eval('tr.finding', (trs) => trs.filter((tr) => !tr.classList.contains('hidden')).map((tr) => tr.cells[1]!.textContent));
    await page.fill('#filter-text', '9004');
    expect(await visible()).toEqual(['reportSchedule/9004']);
    await page.fill('#filter-text', '');
    await page.selectOption('#filter-severity', 'critical');
    expect(await visible()).toEqual(report.findings.filter((f) => f.severity === 'critical' && f.status !== 'error').map((f) => `${f.resource.kind}/${f.resource.id}`));
    await page.selectOption('#filter-severity', '');
    const table = page.locator('table.sortable', { has: page.locator('td', { hasText: 'queue/q-finance-intake' }) });
    await table.locator('th button', { hasText: 'Resource' }).click();
    await table.locator('th button', { hasText: 'Resource' }).click();
    const order = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(order).toEqual([...order].sort().reverse());
    expect(await table.locator('th', { hasText: 'Resource' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('is whole without script: every row shown, the filters hidden; landmarks and table headers present', async () => {
    const { page, errors } = await open(false);
    expect(errors).toEqual([]);
    expect(await page.locator('tr.finding:visible').count()).toBe(report.findings.filter((f) => f.status !== 'error').length);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('header, main, footer').count()).toBe(3);
    expect(await page.$$eval('table', (ts) => ts.every((t) => t.querySelector('thead th[scope="col"]') !== null && t.querySelector('caption') !== null))).toBe(true);
  });

  it('lists every policy with its status, passing ones too, and every framework control', async () => {
    const { page } = await open(true);
    const tiles = await page.$$eval('li.policy-tile', (ls) => ls.map((l) => [l.getAttribute('data-policy'), l.querySelector('.badge')!.textContent]));
    expect(new Map(tiles as [string, string][])).toEqual(new Map(report.policies.map((p) => [p.id, p.status])));
    expect(tiles.some(([, status]) => status === 'pass')).toBe(true);
    const controls = await page.locator('li.control-tile').count();
    expect(controls).toBe(report.frameworks.reduce((n, f) => n + f.controls.length, 0));
    const kpis = await page.$$eval('.tile .tile-label', (ls) => ls.map((l) => l.textContent));
    expect(kpis).toEqual(['Verdict', 'Violations', 'Policies passing', 'Coverage', 'Errors', 'Waived', 'Since the previous run']);
    expect(await page.locator('.tile.gate-fail .tile-value').textContent()).toBe('fail');
    expect(await page.getAttribute('.severity-bar', 'aria-label')).toBe(
      `Violations by severity: ${['critical', 'high', 'medium', 'low', 'info'].map((s) => `${report.summary.bySeverity[s as 'high']} ${s}`).join(', ')}`,
    );
  });

  it('filters hide the groups they empty, say how many are shown, and live in the URL hash', async () => {
    const { page } = await open(true);
    const visibleGroups = () => page.$$eval('.finding-group', (gs) => gs.filter((g) => !g.classList.contains('hidden')).map((g) => g.querySelector('h3')!.id));
    const all = await visibleGroups();
    await page.selectOption('#filter-severity', 'high');
    const high = report.findings.filter((f) => f.status !== 'error' && (f.severity === 'high' || f.severity === 'critical'));
    expect((await visibleGroups()).sort()).toEqual([...new Set(high.map((f) => `policy-${f.policy}`))].sort());
    expect(await page.textContent('#filter-count')).toBe(`${high.length} of ${report.findings.filter((f) => f.status !== 'error').length} findings shown`);
    await page.selectOption('#filter-lifecycle', 'reopened');
    // 9004, the one reopened finding, is medium: nothing high was reopened, and the page says so.
    expect(await visibleGroups()).toEqual([]);
    expect(await page.locator('#no-match').isVisible()).toBe(true);
    await page.selectOption('#filter-severity', '');
    expect(await visibleGroups()).toEqual(['policy-schedule-timezone-valid']);
    expect(await page.locator('#no-match').isVisible()).toBe(false);
    expect(new URL(page.url()).hash).toBe('#lifecycle=reopened');
    await page.selectOption('#filter-status', 'waived');
    expect(await visibleGroups()).toEqual([]);
    expect(await page.locator('#no-match').isVisible()).toBe(true);
    // The hash opens the same view; clearing every filter shows every group again.
    const shared = await open(true, 1280, '#lifecycle=reopened');
    expect(await shared.page.$$eval('.finding-group:not(.hidden) h3', (hs) => hs.map((h) => h.id))).toEqual(['policy-schedule-timezone-valid']);
    expect(await shared.page.inputValue('#filter-lifecycle')).toBe('reopened');
    await shared.page.selectOption('#filter-lifecycle', '');
    expect(await shared.page.$$eval('.finding-group:not(.hidden) h3', (hs) => hs.map((h) => h.id))).toEqual(all);
    // An owner filter: only that owner's rows.
    const owner = 'USER Eva Novak (31)';
    await shared.page.selectOption('#filter-owner', owner);
    const owners = await shared.page.$$eval('tr.finding:not(.hidden)', (trs) => trs.map((tr) => tr.getAttribute('data-owner')));
    expect(owners.length).toBeGreaterThan(3);
    expect(new Set(owners)).toEqual(new Set([owner]));
  });

  it('fits a phone: nothing wider than the 390 px viewport but the tables, which scroll inside', async () => {
    const { page } = await open(true, 390);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    const tileWidths = await page.$$eval('.tile', (ts) => ts.map((t) => t.getBoundingClientRect().width));
    expect(Math.max(...tileWidths)).toBeLessThan(200); // two per row
    if (process.env.STEWARD_WRITE_SCREENSHOT) {
      await page.screenshot({ path: path.join(REPO, 'docs/html-report-390.png'), fullPage: false });
      const wide = await open(true, 1400);
      await wide.page.screenshot({ path: path.join(REPO, 'docs/html-report-1400.png'), fullPage: false });
    }
  });

  it('prints with the filters hidden and every collapsed part open', async () => {
    const { page } = await open(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#filters').isVisible()).toBe(false);
    await page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
    expect(await page.$$eval('details', (ds) => ds.every((d) => d.open))).toBe(true);
  });
});
