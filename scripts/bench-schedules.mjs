// Benchmark 7: 100,000 report schedules (limit/skip, no total) at 20 ± 5 ms a request,
// concurrency 8, two schedule policies of the built-in pack, the sandbox in its own process. The
// floor is the minimum pages times 20 ms over 8 in flight; the client reads long lists ahead, so
// requests may exceed the minimum by at most concurrency − 1.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, recordingApi, writeSnapshot } from '../dist/index.js';
import { LIVE_PAIRS, median, medianMs, pairedRatio } from './bench-median.mjs';
import { bareClient, sandboxProcess } from './bench-sandbox.mjs';
import { PLAIN_OFFLINE } from './bench-scale.mjs';

const POLICIES = ['no-misconfigured-schedules', 'schedule-timezone-valid', 'enabled-schedules-have-recipients'];

/** `steward check --from` the recorded snapshot against a plain-JS process over the same file. */
async function fromSnapshot(dir, snapshot, expectedViolations, expect) {
  const only = POLICIES.flatMap((id) => ['--only', id]);
  const args = ['dist/cli.js', 'check', '--config', path.join(dir, 'steward.yaml'), '--from', snapshot, ...only, '--format', 'json', '--quiet'];
  const steward = () => {
    try {
      execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 });
    } catch (e) {
      if (e.status !== 1) throw e; // violations: exit 1
    }
  };
  const plain = () => execFileSync(process.execPath, ['-e', PLAIN_OFFLINE, snapshot], { encoding: 'utf8' });
  expect(Number(plain()) === expectedViolations, `schedules: plain JS counts ${plain()} violations, steward ${expectedViolations}`);
  return { stewardMs: await medianMs(3, steward), plainMs: await medianMs(3, plain) };
}

/**
 * The same pages read by a bare client, 8 always in flight (node:http keep-alive, JSON.parse):
 * what this machine and the sandbox serve at best, beside the latency floor that assumes a
 * server that costs nothing.
 */
async function bareReads(sandbox, pages) {
  const bare = bareClient(sandbox.token);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < pages) {
        const skip = next++ * 100;
        await bare.getJson(`${sandbox.baseUrl}/api/content/v1/reportschedules?filter=ALL&orderBy=title&isAscending=true&limit=100&skip=${skip}`);
      }
    }),
  );
  bare.close();
  return performance.now() - t0;
}

export async function benchSchedules({ print, table, expect, sampleMemory, sec, mb, latency }) {
  // The sandbox runs in its own process: memory and CPU measured here are steward's alone.
  const sandbox = await sandboxProcess({ size: { schedules: 100_000, datasets: 0, cards: 0 }, faults: latency });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-schedules-'));
  writeFileSync(path.join(dir, 'steward.yaml'), JSON.stringify({ policies: ['builtin'] }));
  const only = ['schedule-timezone-valid', 'enabled-schedules-have-recipients'];
  const live = () =>
    check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, concurrency: 8, only });
  const minimum = Math.floor(sandbox.schedules / 100) + 1;
  // The first run's memory and requests; its wall time and two more runs' against as many bare
  // reads, alternated: a slow moment of the shared machine falls on one pair, not on one side.
  const mem = sampleMemory();
  let t0 = performance.now();
  let report;
  try {
    report = await live();
  } finally {
    mem.stop();
  }
  const pairs = [{ wallMs: performance.now() - t0 }];
  const requests = (await sandbox.counts()).listReportSchedules;
  pairs[0].bareMs = await bareReads(sandbox, minimum);
  while (pairs.length < LIVE_PAIRS) {
    t0 = performance.now();
    const again = await live();
    const wallMs = performance.now() - t0;
    expect(again.summary.violations === report.summary.violations, `schedules: run ${pairs.length + 1} found ${again.summary.violations} violations, run 1 ${report.summary.violations}`);
    pairs.push({ wallMs, bareMs: await bareReads(sandbox, minimum) });
  }
  const wallMs = median(pairs.map((p) => p.wallMs));
  const bareMs = median(pairs.map((p) => p.bareMs));
  let recorder;
  // The same instance as a snapshot, for the offline row (all three schedule policies).
  const snapshot = path.join(dir, 'snapshot.json');
  const recorded = await check({
    config: path.join(dir, 'steward.yaml'),
    cwd: dir,
    env: {},
    baseUrl: sandbox.baseUrl,
    token: sandbox.token,
    only: POLICIES,
    wrapApi: (api, instance) => (recorder = recordingApi(api, { instance })),
  });
  await writeSnapshot(snapshot, recorder.snapshot());
  const offline = await fromSnapshot(dir, snapshot, recorded.summary.violations + recorded.summary.waived, expect);
  const n = sandbox.schedules;
  await sandbox.close();
  expect(report.summary.errors === 0, `schedules: ${report.summary.errors} evaluation error(s)`);
  const timezone = report.policies.find((p) => p.id === 'schedule-timezone-valid');
  expect(timezone?.evaluated === n, `schedules: ${timezone?.evaluated} of ${n} schedules evaluated`);
  expect(requests >= minimum && requests <= minimum + 7, `schedules: ${requests} list requests, minimum ${minimum} (+ at most 7 read ahead)`);
  const floorMs = (minimum * 20) / 8;
  print(`\n### 7. 100,000 report schedules (two schedule policies, concurrency 8; ${LIVE_PAIRS} runs of the check and of the bare reads, alternated, medians; memory and requests of the first)\n`);
  print(
    table(
      ['schedules', 'list requests', 'minimum', 'wall s', 'minimum × 20 ms ÷ 8', 'wall ÷ that', 'bare reads of the pages s', 'wall ÷ bare: median of the pairs (lowest–highest)', 'peak RSS MB', 'peak heap MB'],
      [[n, requests, minimum, sec(wallMs), sec(floorMs), `${(wallMs / floorMs).toFixed(2)}×`, sec(bareMs), pairedRatio(pairs.map((p) => p.wallMs / p.bareMs)), mb(mem.peak.rss), mb(mem.peak.heap)]],
    ),
  );
  print('\nOffline: `steward check --from` a snapshot of the same instance, the three schedule policies, against a plain-JS process parsing the same file and evaluating the same three predicates (whole processes, median of 3):\n');
  print(
    table(
      ['snapshot MB', 'steward check --from s', 'plain JS s', 'ratio'],
      [[(statSync(snapshot).size / 2 ** 20).toFixed(0), sec(offline.stewardMs), sec(offline.plainMs), `${(offline.stewardMs / offline.plainMs).toFixed(1)}×`]],
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}
