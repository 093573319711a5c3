// Benchmark 11: cost against N. Offline: `steward snapshot` of N schedules (a process of its
// own), then `steward check --from` it with the three schedule policies, against a plain-JS
// process reading the same file (N = 1k, 10k, 100k, 1M). Live: `steward check` of the two
// schedule policies against the sandbox (its own process), against a bare
// node:http client reading the same pages (N = 10k, 100k, 300k), 15 ± 10 ms a request as in §7,
// three runs of each side alternated. Every side is a whole process: CPU and peak RSS as the
// process itself reports them (scripts/bench-process.mjs).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { otherNode, processUsage } from './bench-process.mjs';
import { LIVE_PAIRS, median, pairedRatio } from './bench-median.mjs';
import { sandboxProcess } from './bench-sandbox.mjs';

/**
 * The three schedule policies' predicates in plain JavaScript over the snapshot's lines: every
 * line parsed, the answers kept (a replay must serve reads in any order), then judged.
 */
export const PLAIN_OFFLINE = `
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
(async () => {
  const pages = new Map();
  for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) {
    const a = JSON.parse(line);
    if (a.page) (pages.get(a.operation) ?? pages.set(a.operation, []).get(a.operation)).push(a.page);
  }
  const misconfigured = new Set((pages.get('getMisconfiguredReports') ?? []).flat().map((m) => m.id));
  const zones = new Map();
  const validZone = (z) => {
    if (!zones.has(z)) { try { new Intl.DateTimeFormat('en', { timeZone: z }); zones.set(z, true); } catch { zones.set(z, false); } }
    return zones.get(z);
  };
  let violations = 0;
  for (const page of pages.get('listReportSchedules') ?? []) for (const s of page) {
    if (misconfigured.has(s.id)) violations++;
    if (!validZone(s.schedule.timezone)) violations++;
    if (s.schedule.enabled && !(s.recipientCount > 0)) violations++;
  }
  process.stdout.write(String(violations));
})();
`;

/** A bare client reading every schedule page (8 in flight, node:http keep-alive), keeping the items. */
const PLAIN_LIVE = `
const http = require('node:http');
const [baseUrl, token, total] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const get = (skip) => new Promise((resolve, reject) => {
  http.get(baseUrl + '/api/content/v1/reportschedules?filter=ALL&orderBy=title&isAscending=true&limit=100&skip=' + skip, { agent, headers: { 'X-SERVICE-Developer-Token': token } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    res.on('error', reject);
  }).on('error', reject);
});
(async () => {
  const pages = Math.floor(Number(total) / 100) + 1;
  const items = [];
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { while (next < pages) items.push(...(await get(next++ * 100))); }));
  agent.destroy();
  process.stdout.write(String(items.length));
})();
`;

const OFFLINE_POLICIES = ['no-misconfigured-schedules', 'schedule-timezone-valid', 'enabled-schedules-have-recipients'];
const LIVE_POLICIES = ['schedule-timezone-valid', 'enabled-schedules-have-recipients'];
const only = (ids) => ids.flatMap((id) => ['--only', id]);

/** Violations and waived findings of a JSON report on stdout. */
const violationsOf = (stdout) => {
  const { summary } = JSON.parse(stdout);
  return summary.violations + summary.waived;
};

async function offline(n, dir, expect) {
  const sandbox = await sandboxProcess({ size: { schedules: n, datasets: 0, cards: 0 } });
  const env = { ...process.env, STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token };
  const file = path.join(dir, `snapshot-${n}.jsonl`);
  const config = path.join(dir, 'offline.yaml');
  const t0 = performance.now();
  const recorded = processUsage(['dist/cli.js', 'snapshot', '--config', config, ...only(OFFLINE_POLICIES), '--out', file], { env });
  const recordMs = performance.now() - t0;
  await sandbox.close();
  const runs = n >= 1_000_000 ? 1 : 3;
  const steward = processUsage(['dist/cli.js', 'check', '--config', config, '--from', file, ...only(OFFLINE_POLICIES), '--format', 'json', '--quiet'], { runs });
  const plain = processUsage(['-e', PLAIN_OFFLINE, file], { runs });
  expect(Number(plain.stdout) === violationsOf(steward.stdout), `scale: at ${n} plain JS counts ${plain.stdout} violations, steward ${violationsOf(steward.stdout)}`);
  const mb = statSync(file).size / 2 ** 20;
  rmSync(file);
  return { n, mb, recordMs, recorded, steward, plain };
}

async function live(n, dir, latency, expect, node = process.execPath) {
  const sandbox = await sandboxProcess({ size: { schedules: n, datasets: 0, cards: 0 }, faults: latency });
  const env = { ...process.env, STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token };
  const config = path.join(dir, 'steward.yaml');
  const pairs = [];
  for (let i = 0; i < LIVE_PAIRS; i++) {
    let t0 = performance.now();
    const steward = processUsage(['dist/cli.js', 'check', '--config', config, ...only(LIVE_POLICIES), '--concurrency', '8', '--format', 'json', '--quiet'], { env, node });
    const stewardMs = performance.now() - t0;
    t0 = performance.now();
    const bare = processUsage(['-e', PLAIN_LIVE, sandbox.baseUrl, sandbox.token, String(sandbox.schedules)], { node });
    const bareMs = performance.now() - t0;
    const evaluated = JSON.parse(steward.stdout).policies.find((p) => p.id === 'schedule-timezone-valid')?.evaluated;
    expect(evaluated === sandbox.schedules && Number(bare.stdout) === sandbox.schedules, `scale: live ${n}: steward evaluated ${evaluated}, the bare client read ${bare.stdout} of ${sandbox.schedules}`);
    pairs.push({ steward, stewardMs, bare, bareMs });
  }
  await sandbox.close();
  const of = (pick) => median(pairs.map(pick));
  return {
    n,
    stewardMs: of((p) => p.stewardMs),
    bareMs: of((p) => p.bareMs),
    ratios: pairs.map((p) => p.stewardMs / p.bareMs),
    steward: { cpuMs: of((p) => p.steward.cpuMs), rssMb: of((p) => p.steward.rssMb) },
    bare: { rssMb: of((p) => p.bare.rssMb) },
  };
}

export async function benchScale({ print, table, expect, latency, offlineSizes = [1_000, 10_000, 100_000, 1_000_000], liveSizes = [10_000, 100_000, 300_000] }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-scale-'));
  writeFileSync(path.join(dir, 'steward.yaml'), JSON.stringify({ policies: ['builtin'] }));
  // 1M schedules are 10,001 pages of 100, past MAX_PAGES (10,000): recorded 500 a page (public
  // clients page schedules 2,000 at a time), at every N alike.
  writeFileSync(path.join(dir, 'offline.yaml'), JSON.stringify({ policies: ['builtin'], instance: { pageSize: 500 } }));
  const s = (ms) => (ms / 1000).toFixed(2);
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const per = (total, n) => `${((total * 1e6) / n).toFixed(1)}`;
  const liveRow = (r) => [r.n.toLocaleString('en'), s(r.stewardMs), s(r.bareMs), pairedRatio(r.ratios), s(r.steward.cpuMs), per(r.steward.cpuMs / 1000, r.n), r.steward.rssMb.toFixed(0), r.bare.rssMb.toFixed(0), `${((r.steward.rssMb * 1024) / r.n).toFixed(2)} KB`];
  print('\n### 11. Cost against N (whole processes: CPU and peak RSS as each reports them)\n');
  print('Offline: `steward snapshot` of N schedules (500 a page), then `steward check --from` it (three schedule policies) against a plain-JS process reading the same lines (median of 3; 1 at 1M):\n');
  const offRows = [];
  for (const n of offlineSizes) {
    const r = await offline(n, dir, expect);
    offRows.push([n.toLocaleString('en'), r.mb.toFixed(1), s(r.recordMs), r.recorded.rssMb.toFixed(0), s(r.steward.cpuMs), s(r.plain.cpuMs), x(r.steward.cpuMs, r.plain.cpuMs), per(r.steward.cpuMs / 1000, n), r.steward.rssMb.toFixed(0), r.plain.rssMb.toFixed(0), x(r.steward.rssMb, r.plain.rssMb)]);
  }
  print(table(['schedules', 'snapshot MB', '`snapshot` wall s', '`snapshot` peak RSS MB', '`check --from` CPU s', 'plain JS CPU s', 'CPU ratio (≤ 3×)', 'µs CPU per schedule', '`check --from` peak RSS MB', 'plain JS peak RSS MB', 'RSS ratio (≤ 1.5×)'], offRows));
  print(`\nLive: \`steward check\` (two schedule policies, concurrency 8) against a bare node:http client keeping every item (8 in flight), 15 ± 10 ms a request, the sandbox in its own process; ${LIVE_PAIRS} runs of each, alternated, medians:\n`);
  const liveRows = [];
  for (const n of liveSizes) {
    const r = await live(n, dir, latency, expect);
    liveRows.push(liveRow(r));
  }
  const liveHead = ['schedules', 'steward wall s', 'bare wall s', 'wall ratio: median of the pairs (lowest–highest) (≤ 1.3×)', 'steward CPU s', 'µs CPU per schedule', 'steward peak RSS MB (≤ 250 at 300k)', 'bare peak RSS MB', 'RSS per schedule'];
  print(table(liveHead, liveRows));
  // The largest live run again on the other Node the package is tested on: V8's young generation
  // differs by version, and with it the peak RSS of steward and of the bare client alike.
  const other = otherNode();
  const largest = liveSizes.at(-1);
  if (other && largest !== undefined) {
    const r = await live(largest, dir, latency, expect, other.bin);
    print(`\nThe same live run of ${largest.toLocaleString('en')} schedules on ${other.version}:\n`);
    print(table(liveHead, [liveRow(r)]));
  }
  rmSync(dir, { recursive: true, force: true });
}

// `node scripts/bench-scale.mjs [offline sizes] [live sizes]`: this section alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const table = (head, rows) => [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const sizes = (arg, fallback) => (arg ? arg.split(',').map(Number) : fallback);
  const failures = [];
  await benchScale({
    print: (t) => process.stdout.write(`${t}\n`),
    table,
    expect: (ok, what) => ok || failures.push(what),
    latency: { latencyMs: 15, jitterMs: 10 },
    offlineSizes: sizes(process.argv[2], undefined),
    liveSizes: sizes(process.argv[3], undefined),
  });
  if (failures.length) {
    console.error(failures.join('\n'));
    process.exit(1);
  }
}
