#!/usr/bin/env node
// Benchmarks of check() (the library entry) against an in-process sandbox on 127.0.0.1 with
// 20 ± 5 ms latency per request. Prints markdown tables; exits 1 when a correctness check fails
// (requests ≠ theoretical minimum, verdict changes under faults, in-flight above the limit).
// Run with `npm run bench` (builds dist/ first). BENCHMARKS.md explains every column.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { check } from '../dist/index.js';
import { startSandbox } from '../dist/sandbox.js';
import { benchHtml } from './bench-html.mjs';
import { benchLimits } from './bench-limits.mjs';
import { benchSchedules } from './bench-schedules.mjs';
import { benchHistory } from './bench-history.mjs';
import { benchHistoryCheck, historyCheckTable } from './bench-history-check.mjs';
import { otherNode } from './bench-process.mjs';
import { benchPeopleMemory } from './bench-people.mjs';
import { benchScale } from './bench-scale.mjs';
import { benchBadWaivers, benchWaivers } from './bench-waivers.mjs';
import { benchPolicies } from './bench-policies.mjs';
import { expectedFullPack, minimumFullPack, minimumOwners, minimumPeople, PAGE_SIZE, scopeOf } from './bench-minimum.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The sandbox adds latencyMs + uniform [0, jitterMs): 15–25 ms, i.e. 20 ± 5 ms. */
const LATENCY = { latencyMs: 15, jitterMs: 10 };
const MID = { schedules: 1000, datasets: 200, cards: 100 };
const LARGE = { schedules: 5000, datasets: 1000, cards: 100 };
/** Short operation names for the per-operation column. */
const OP_SHORT = {
  listReportSchedules: 'sched', getMisconfiguredReports: 'misconf', getDatasetPermissions: 'access',
  getCertificationStatus: 'cert', getFileByPath: 'file', getCalculatedFieldStatistics: 'calc', listWorkflows: 'wf',
  getQueuePermissions: 'queue', getDataFilePermissions: 'df', listDatasets: 'list',
};

v8.setFlagsFromString('--expose-gc'); // a clean heap before each scenario, for peak memory
const gc = vm.runInNewContext('gc');
const failures = [];
const expect = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};

// Manifests (queues, data files) are the demo's: they are read from disk, never over HTTP.
const work = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-'));
cpSync(path.join(ROOT, 'demo', 'permissions'), path.join(work, 'permissions'), { recursive: true });

function sampleMemory() {
  gc();
  const peak = { rss: 0, heap: 0 };
  const take = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  };
  take();
  const timer = setInterval(take, 10);
  const stop = () => {
    clearInterval(timer);
    take();
  };
  return { peak, stop };
}

/** Most attempts open at once, from [end - duration, end] of every onRequest event. */
function maxOverlap(intervals) {
  const edges = intervals.flatMap(([start, end]) => [[start, 1], [end, -1]]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let max = 0;
  for (const [, delta] of edges) {
    open += delta;
    max = Math.max(max, open);
  }
  return max;
}

/** One check() over a fresh sandbox; the counts come from the sandbox, not from the client. */
async function run({ size, concurrency = 8, faults = {}, only, client = {} }) {
  const sandbox = await startSandbox({ size, faults: { ...LATENCY, ...faults } });
  const scope = scopeOf(sandbox.state);
  const config = path.join(work, 'steward.yaml');
  const manifests = { queues: 'permissions/queues/*.yaml', dataFiles: 'permissions/data-files/*.yaml' };
  writeFileSync(config, JSON.stringify({ policies: ['builtin'], scope, manifests, failOn: 'low' }));
  const intervals = [];
  const statuses = {};
  const mem = sampleMemory();
  const t0 = performance.now();
  try {
    const report = await check({
      config,
      cwd: work,
      env: {},
      baseUrl: sandbox.baseUrl,
      workflowUrl: sandbox.workflowUrl,
      token: sandbox.token,
      concurrency,
      only,
      client: { pageSize: PAGE_SIZE, ...client },
      onRequest: (e) => {
        const end = performance.now();
        // durationMs is rounded; +1 ms keeps back-to-back attempts of one slot from overlapping.
        intervals.push([end - e.durationMs + 1, end]);
        statuses[e.status ?? 'network'] = (statuses[e.status ?? 'network'] ?? 0) + 1;
      },
    });
    const wallMs = performance.now() - t0;
    const { state, counts } = sandbox;
    const total = sandbox.totalRequests();
    return { wallMs, report, state, scope, counts: { ...counts }, total, inFlight: maxOverlap(intervals), statuses, mem: mem.peak };
  } finally {
    mem.stop();
    await sandbox.close();
  }
}

const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
const sec = (ms) => (ms / 1000).toFixed(2);
const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
const perOp = (counts) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${OP_SHORT[op] ?? op} ${n}`)
    .join(' · ');
const sizeLabel = (r) => `${r.state.schedules.length} sched / ${r.scope.datasets.length} ds / ${r.scope.cards.length} cards`;
const verdictOf = (report) =>
  JSON.stringify({
    gate: report.summary.gate,
    findings: report.findings.map((f) => `${f.status}:${f.policy}:${f.fingerprint}`).sort(),
  });
const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** Per operation, the sandbox's count must equal the expected one (absent operations: 0). */
function matchesMinimum(name, counts, minimum) {
  const wrong = Object.keys(counts).filter((op) => counts[op] !== (minimum[op] ?? 0));
  for (const op of wrong) failures.push(`${name}: ${op} made ${counts[op]} requests, expected ${minimum[op] ?? 0}`);
  return wrong.length === 0;
}

function checkRun(name, r, concurrency) {
  expect(r.report.summary.errors === 0, `${name}: ${r.report.summary.errors} evaluation error(s)`);
  expect(r.report.http.requests === r.total, `${name}: client counted ${r.report.http.requests}, sandbox ${r.total}`);
  expect(r.inFlight <= concurrency, `${name}: ${r.inFlight} requests in flight with concurrency ${concurrency}`);
}

const print = (text) => console.log(text);
const started = Date.now();

// 1. Scale: the whole pack at three sizes.
const scaleRows = [];
const runs = {};
for (const [name, size] of [['default', {}], ['mid', MID], ['large', LARGE], ['2,000 datasets', { datasets: 2000 }]]) {
  const r = await run({ size });
  runs[name] = r;
  const minimum = minimumFullPack(r.state, r.scope);
  const expected = expectedFullPack(r.state, r.scope, 8);
  checkRun(name, r, 8);
  const ok = matchesMinimum(name, r.counts, expected);
  const ahead = sum(expected) - sum(minimum);
  // The latency floor: every request's 20 ms, 8 at a time.
  const floor = `${(r.wallMs / ((r.total * 20) / 8)).toFixed(2)}×`;
  scaleRows.push([name, sizeLabel(r), sec(r.wallMs), floor, r.total, `${sum(minimum)} + ${ahead}`, ok ? 'yes' : '**NO**', mb(r.mem.rss), mb(r.mem.heap), perOp(r.counts)]);
}
print('### 1. Scale (whole built-in pack, concurrency 8)\n');
print(table(['instance', 'size', 'wall s', 'wall ÷ (requests × 20 ms ÷ 8)', 'requests', 'minimum + read ahead', 'match', 'peak RSS MB', 'peak heap MB', 'requests per operation'], scaleRows));

// 2. Concurrency: the mid-size instance.
const concRows = [];
let wall1;
for (const concurrency of [1, 4, 8, 16]) {
  const r = await run({ size: MID, concurrency });
  checkRun(`mid c=${concurrency}`, r, concurrency);
  matchesMinimum(`mid c=${concurrency}`, r.counts, expectedFullPack(r.state, r.scope, concurrency));
  wall1 ??= r.wallMs;
  concRows.push([concurrency, sec(r.wallMs), `${(wall1 / r.wallMs).toFixed(1)}×`, r.total, r.inFlight]);
}
print('\n### 2. Concurrency (mid-size instance)\n');
print(table(['concurrency', 'wall s', 'speed-up vs 1', 'requests', 'max in flight'], concRows));

// 3. Faults: 10% 503 and 5% 429 (Retry-After: 1) on the mid-size instance.
const faulty = await run({
  size: MID,
  faults: { errorRates: { 503: 0.1 }, rateLimitRate: 0.05, retryAfterSeconds: 1 },
  client: { maxAttempts: 6, retryBaseDelayMs: 50, retryMaxDelayMs: 1000 },
});
const clean = runs.mid;
const faultMin = sum(expectedFullPack(faulty.state, faulty.scope, 8));
const retries = faulty.report.http.retries;
checkRun('faults', faulty, 8);
expect(faulty.report.http.failed === 0, `faults: ${faulty.report.http.failed} request(s) failed after all attempts`);
expect(faulty.total === faultMin + retries, `faults: ${faulty.total} requests ≠ expected ${faultMin} + ${retries} retries`);
const same = expect(verdictOf(faulty.report) === verdictOf(clean.report), 'faults: verdict differs from the fault-free run');
const s = faulty.report.summary;
print('\n### 3. Faults (mid-size instance, 10% 503 + 5% 429 with Retry-After: 1, up to 6 attempts)\n');
print(
  table(
    ['run', 'wall s', 'requests', 'expected (minimum + read ahead) + retries', '503 / 429 answered', 'retries', 'verdict', 'same verdict'],
    [
      ['fault-free', sec(clean.wallMs), clean.total, `${faultMin} + 0`, '0 / 0', 0, `${clean.report.summary.gate}, ${clean.report.summary.violations} violations`, '—'],
      ['faults', sec(faulty.wallMs), faulty.total, `${faultMin} + ${retries}`, `${faulty.statuses[503] ?? 0} / ${faulty.statuses[429] ?? 0}`, retries, `${s.gate}, ${s.violations} violations, ${s.errors} errors`, same ? 'yes' : '**NO**'],
    ],
  ),
);

// 4. Lazy parts: certification is read for every dataset, access only for the certified ones;
// the findings' owners (the dataset listing and the user directory) once, as there are findings.
const lazyRows = [];
for (const datasets of [200, 1000]) {
  const r = await run({ size: { datasets }, only: ['certified-datasets-need-owner-group'] });
  const n = r.scope.datasets.length;
  const k = r.scope.datasets.filter((id) => r.state.certifications.get(`DATA_SOURCE:${id}`)?.state === 'ACTIVE').length;
  checkRun(`lazy N=${n}`, r, 8);
  const owners = r.report.findings.length > 0 ? { listDatasets: minimumOwners(r.state).listDatasets, searchUsers: 2 } : {};
  const ok = matchesMinimum(`lazy N=${n}`, r.counts, { getCertificationStatus: n, getDatasetPermissions: k, ...owners });
  lazyRows.push([n, k, r.counts.getCertificationStatus, r.counts.getDatasetPermissions, r.total, ok ? 'yes' : '**NO**', sec(r.wallMs)]);
}
print('\n### 4. Lazy parts (only certified-datasets-need-owner-group)\n');
print(table(['N datasets', 'K certified', 'certification reads (= N)', 'access reads (= K)', 'requests', 'match', 'wall s'], lazyRows));

// 5. Discovery: `scope.datasets: all` over 50,000 datasets; a policy reading the tags the listing
// carries, so the listing pages are the only requests (50 a page: 1,000 pages, read in parallel
// once the first page says the total).
{
  const sandbox = await startSandbox({ size: { datasets: 50_000, schedules: 0, cards: 0 }, faults: LATENCY });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-discovery-'));
  writeFileSync(
    path.join(dir, 'tags.yaml'),
    'policies:\n  - id: datasets-tagged\n    title: Datasets carry at most 3 tags\n    description: Reads the tags the listing carries.\n    severity: low\n    resource: dataset\n    assert: size(resource.tags) <= 3\n',
  );
  writeFileSync(path.join(dir, 'steward.yaml'), JSON.stringify({ policies: ['tags.yaml'], scope: { datasets: 'all' } }));
  const mem = sampleMemory();
  const t0 = performance.now();
  let report;
  try {
    report = await check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, concurrency: 8 });
  } finally {
    mem.stop();
  }
  const wallMs = performance.now() - t0;
  const n = sandbox.state.datasetAccess.size;
  const minimum = Math.ceil(n / 50);
  const total = sandbox.totalRequests();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  expect(report.summary.errors === 0, `discovery: ${report.summary.errors} evaluation error(s)`);
  expect(report.policies[0].evaluated === n, `discovery: evaluated ${report.policies[0].evaluated} of ${n} datasets`);
  expect(total === minimum, `discovery: ${total} requests, minimum ${minimum}`);
  const floorMs = (total * 20) / 8;
  print('\n### 5. Discovery (`scope.datasets: all`, 50,000 datasets, a policy on the listed tags, concurrency 8)\n');
  print(
    table(
      ['datasets', 'requests', 'minimum', 'wall s', 'requests × 20 ms ÷ 8', 'wall ÷ that', 'peak RSS MB', 'peak heap MB'],
      [[n, total, minimum, sec(wallMs), sec(floorMs), `${(wallMs / floorMs).toFixed(2)}×`, mb(mem.peak.rss), mb(mem.peak.heap)]],
    ),
  );
}

// 6. The HTML report with 10,000 findings: size, formatting and browser load time.
await benchHtml(print, table, expect);

// 7. 100,000 report schedules: read-ahead paging against the latency floor.
await benchSchedules({ print, table, expect, sampleMemory, sec, mb, latency: LATENCY });

// 8. Against the limits: CEL vs JavaScript, CPU per request vs a bare fetch, start-up vs node.
await benchLimits(print, table, expect);

// 9. People: the identity policies over large directories, every kind discovered with `all`.
{
  const peopleRows = [];
  const identity = ['custom-roles-no-admin-grants', 'admins-at-most', 'access-tokens-short-lived', 'access-tokens-not-expired', 'access-tokens-owner-active', 'groups-have-members', 'groups-have-owners', 'groups-owner-active', 'users-not-dormant', 'invitations-not-stale'];
  for (const size of [{ users: 0, groups: 4, accessTokens: 3 }, { users: 20_000, groups: 2_000, accessTokens: 5_000 }]) {
    const r = await run({ size: { ...size, schedules: 0, datasets: 0, cards: 0 }, only: identity });
    const name = `people ${size.users}`;
    checkRun(name, r, 8);
    const minimum = minimumPeople(r.state);
    const ok = matchesMinimum(name, r.counts, minimum);
    const { users, groups, accessTokens } = r.state.people;
    peopleRows.push([`${users.length} users / ${groups.length} groups / ${accessTokens.length} tokens`, sec(r.wallMs), r.total, sum(minimum), ok ? 'yes' : '**NO**', r.report.summary.violations, mb(r.mem.heap), perOp(r.counts)]);
  }
  print('\n### 9. People (the identity policies, users, groups, roles and tokens discovered with `all`, concurrency 8)\n');
  // The peak heap after a full collection, not RSS: this bench process's RSS by then holds what
  // the earlier sections left mapped (it read ~1.5 GB whatever the run's size).
  print(table(['instance', 'wall s', 'requests', 'minimum', 'match', 'violations', 'peak heap MB', 'requests per operation'], peopleRows));
  // Memory per page of the user search (scripts/bench-people.mjs): whole processes.
  const people = await benchPeopleMemory({ dir: work, expect });
  print(`\n\`steward check\` of the user policies over ${people.users.toLocaleString('en-US')} users (the live and the deleted search, 200 a page, concurrency 8), against a bare node:http client reading the same two searches and keeping every user; whole processes, medians of 3:\n`);
  print(table(['users', 'steward peak RSS MB', 'bare client peak RSS MB', 'RSS ratio', 'steward CPU s', 'bare client CPU s'], [[people.users.toLocaleString('en-US'), mb(people.stewardRss * 2 ** 20), mb(people.bareRss * 2 ** 20), `${(people.stewardRss / people.bareRss).toFixed(2)}×`, sec(people.stewardCpu), sec(people.bareCpu)]]));
}

// 10. The embedded history: 365 runs of 1,000 findings, recording run 366 against run 10, alternately.
{
  const h = await benchHistory(ROOT);
  expect(h.ratio <= 1.2, `history: recording run ${h.runs + 1} took ${h.ratio.toFixed(2)}× run ${h.early + 1} (limit 1.2×)`);
  expect(h.bytesAt[365] <= 1.5 * 2 ** 20, `history: ${h.bytesAt[365]} bytes after ${h.runs} runs (bound 1.5 MiB)`);
  print(`\n### 10. History: ${h.runs} runs of ${h.findings} findings (1 % changing a run), each opened, recorded, saved and closed\n`);
  print(table([`run ${h.early + 1} ms (limit)`, `run ${h.runs + 1} ms`, 'ratio (≤ 1.2×)', 'file at run 1', 'at run 30', `at run ${h.runs} (bound 1.5 MiB)`], [
    [h.firstMs.toFixed(1), h.lastMs.toFixed(1), `${h.ratio.toFixed(2)}×`, `${(h.bytesAt[1] / 1024).toFixed(0)} KiB`, `${(h.bytesAt[30] / 1024).toFixed(0)} KiB`, `${(h.bytesAt[365] / 1024).toFixed(0)} KiB`],
  ]));
}

// … and issue 29's history row as it states it: `check --history` at 10,000 findings a run, run 30
// against the same check without a history, whole processes, on each Node.
{
  const other = otherNode();
  const rows = await benchHistoryCheck(path.join(work, 'history-check'), [{ bin: process.execPath, version: process.version }, ...(other ? [other] : [])]);
  for (const r of rows) expect(r.findings >= 10_000, `history check: ${r.findings} findings a run on ${r.version}, not 10,000`);
  print('\n`steward check --history` of 10,000 findings a run, a snapshot of 41,000 schedules (`--from`), against the same check without a history: CPU of whole processes, run 2 and run 30 each into a fresh copy of its file, medians of 11 rounds (the pairs\' lowest and highest beside each ratio):\n');
  print(table(...historyCheckTable(rows)));
}

// 11. Cost against N: offline 1k–1M schedules (snapshot, then check --from) and live 10k–300k.
await benchScale({ print, table, expect, latency: LATENCY });

// 12. Waivers at scale: as many waivers as violations (`steward waive` writes one a violation).
{
  const w = await benchWaivers(ROOT);
  for (const r of w.rows) expect(r.waived === r.n, `waivers: ${r.waived} of ${r.n} violations waived`);
  const [small, large] = w.rows;
  expect(w.ratio <= 1.5, `waivers: a violation cost ${w.ratio.toFixed(2)}× at ${large.n} what it cost at ${small.n} (limit 1.5×: linear)`);
  print(`\n### 12. Waivers: N violations each with its own waiver (file order reversed) and ${small.stale} globbed waivers matching none; applyWaivers in this process, median of 5\n`);
  print(table(['violations', 'waivers', 'ms', 'µs a violation', `ratio to ${small.n.toLocaleString('en-US')} (≤ 1.5×)`], w.rows.map((r, i) => [
    r.n.toLocaleString('en-US'), (r.n + r.stale).toLocaleString('en-US'), r.ms.toFixed(1), w.perViolation[i].toFixed(2), `${(w.perViolation[i] / w.perViolation[0]).toFixed(2)}×`,
  ])));
  // … and as bad input: a waivers file whose every entry fails the schema's choice for `resource`.
  const bad = benchBadWaivers(path.join(work, 'bad-waivers'));
  for (const r of bad.rows) expect(r.status === 2, `waivers: validate of ${r.n} bad waivers exited ${r.status}, not 2`);
  expect(bad.ratio <= 1.5, `waivers: a bad waiver cost ${bad.ratio.toFixed(2)}× at ${bad.rows[1].n} what it cost at ${bad.rows[0].n} (limit 1.5×: linear)`);
  print('\n`steward validate` of a waivers file whose every entry\'s `resource` is a list (one failed choice each, so one problem each), whole processes, median of 3 CPU:\n');
  print(table(['entries', 'exit', 'CPU ms', 'ms an entry', `ratio to ${bad.rows[0].n.toLocaleString('en-US')} (≤ 1.5×)`], bad.rows.map((r, i) => [
    r.n.toLocaleString('en-US'), r.status, r.cpuMs.toFixed(0), bad.perEntry[i].toFixed(3), `${(bad.perEntry[i] / bad.perEntry[0]).toFixed(2)}×`,
  ])));
}

// 13. Many policies: check of the demo snapshot with 1,000 and 4,000 generated policies.
{
  const snapshot = path.join(work, 'policies-demo-snapshot.json');
  execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'snapshot', '--sandbox', '--out', snapshot], { stdio: 'ignore' });
  const p = await benchPolicies(path.join(work, 'many-policies'), snapshot);
  const [small, large] = p.rows;
  expect(large.findings > small.findings, `policies: ${large.findings} findings at ${large.n} policies, ${small.findings} at ${small.n}`);
  expect(p.ratio <= 1.5, `policies: a policy cost ${p.ratio.toFixed(2)}× at ${large.n} what it cost at ${small.n} (limit 1.5×: linear)`);
  print('\n### 13. Many policies: `check` of the demo snapshot (46 schedules) through the library with N generated schedule policies, in this process, median of 3\n');
  print(table(['policies', 'findings', 'ms', 'µs a policy', `ratio to ${small.n.toLocaleString('en-US')} (≤ 1.5×)`], p.rows.map((r, i) => [
    r.n.toLocaleString('en-US'), r.findings.toLocaleString('en-US'), r.ms.toFixed(0), p.perPolicy[i].toFixed(0), `${(p.perPolicy[i] / p.perPolicy[0]).toFixed(2)}×`,
  ])));
}

rmSync(work, { recursive: true, force: true });
print(`\nTotal bench time ${sec(Date.now() - started)} s on ${os.cpus().length} cores, Node ${process.versions.node}.`);
if (failures.length > 0) {
  console.error(`\n${failures.length} correctness check(s) failed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nAll correctness checks passed.');
}
