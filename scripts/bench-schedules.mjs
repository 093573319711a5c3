// Benchmark 7: 100,000 report schedules (limit/skip, no total) at 20 ± 5 ms a request,
// concurrency 8, two schedule policies of the built-in pack. The floor is the minimum pages
// times 20 ms over 8 in flight; the client reads long lists ahead, so requests may exceed the
// minimum by at most concurrency − 1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check } from '../dist/index.js';
import { startSandbox } from '../dist/sandbox.js';

export async function benchSchedules({ print, table, expect, sampleMemory, sec, mb, latency }) {
  const sandbox = await startSandbox({ size: { schedules: 100_000, datasets: 0, cards: 0 }, faults: latency });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-schedules-'));
  writeFileSync(path.join(dir, 'steward.yaml'), JSON.stringify({ policies: ['builtin'] }));
  const only = ['schedule-timezone-valid', 'enabled-schedules-have-recipients'];
  const mem = sampleMemory();
  const t0 = performance.now();
  let report;
  try {
    report = await check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, concurrency: 8, only });
  } finally {
    mem.stop();
  }
  const wallMs = performance.now() - t0;
  const n = sandbox.state.schedules.length;
  const minimum = Math.floor(n / 100) + 1;
  const requests = sandbox.counts.listReportSchedules;
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  expect(report.summary.errors === 0, `schedules: ${report.summary.errors} evaluation error(s)`);
  const timezone = report.policies.find((p) => p.id === 'schedule-timezone-valid');
  expect(timezone?.evaluated === n, `schedules: ${timezone?.evaluated} of ${n} schedules evaluated`);
  expect(requests >= minimum && requests <= minimum + 7, `schedules: ${requests} list requests, minimum ${minimum} (+ at most 7 read ahead)`);
  const floorMs = (minimum * 20) / 8;
  print('\n### 7. 100,000 report schedules (two schedule policies, concurrency 8)\n');
  print(
    table(
      ['schedules', 'list requests', 'minimum', 'wall s', 'minimum × 20 ms ÷ 8', 'wall ÷ that', 'peak RSS MB', 'peak heap MB'],
      [[n, requests, minimum, sec(wallMs), sec(floorMs), `${(wallMs / floorMs).toFixed(2)}×`, mb(mem.peak.rss), mb(mem.peak.heap)]],
    ),
  );
}
