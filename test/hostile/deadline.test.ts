// A whole run has a deadline (--timeout, config `timeout`, default RUN_TIMEOUT_DEFAULT): reads
// that hang, a 429 storm with `Retry-After: 999999` and requests queued behind a slow rate all
// end at it as `deadline` errors (exit 3), never minutes later. Real HTTP on 127.0.0.1.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import { RUN_TIMEOUT_DEFAULT } from '../../src/config/load.js';
import { runCli, tempDir } from '../cli/helpers.js';

let server: Server;
let base: string;
let sent = 0;
let mode: 'hang' | 'storm' | 'ok' = 'hang';
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((_req, res) => {
    sent += 1;
    if (mode === 'hang') {
      hanging.push(res); // never answered
      return;
    }
    if (mode === 'storm') {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '999999' });
      res.end('{"message":"slow down"}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ list: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
beforeEach(() => {
  sent = 0;
});

const ids = Array.from({ length: 25 }, (_, i) => `ds-${i}`);

async function readAll(options: { deadlineMs: number; requestsPerSecond?: number; concurrency?: number }) {
  const client = createClient({
    baseUrl: base,
    token: 'tok-deadline-1234',
    concurrency: options.concurrency ?? 8,
    requestsPerSecond: options.requestsPerSecond,
    breakerThreshold: 1_000_000, // the deadline alone, not the breaker, ends these runs
    deadline: { at: Date.now() + options.deadlineMs, label: '--timeout test' },
  });
  const t0 = performance.now();
  const settled = await Promise.allSettled(ids.map((id) => client.getDatasetPermissions(id)));
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, errors: settled.map((s) => (s.status === 'rejected' ? (s.reason as ApiError) : null)) };
}

describe('the run deadline', () => {
  it('hanging reads: every read ends at the deadline as a deadline error', async () => {
    mode = 'hang';
    const { seconds, errors } = await readAll({ deadlineMs: 1000 });
    expect(errors.map((e) => e?.kind)).toEqual(Array(25).fill('deadline'));
    expect(sent).toBe(8); // the 8 in flight were sent; the 17 queued behind them were not
    expect(errors[0]?.message).toBe(`getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-0/permissions": stopped after 1 attempt: the run's deadline (--timeout test) passed`);
    expect(errors[24]?.message).toBe(`getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-24/permissions": not sent: the run's deadline (--timeout test) passed`);
    expect(seconds).toBeLessThan(5);
    console.log(`hostile: 25 hanging reads, deadline 1 s: all 25 deadline errors after ${seconds.toFixed(2)} s`);
  });

  it('a 429 storm with Retry-After: 999999 ends at the deadline, not after the retry waits', async () => {
    mode = 'storm';
    // 2.5 s: time enough for the 25 first requests, one at a time, on a busy machine.
    const { seconds, errors } = await readAll({ deadlineMs: 2500, concurrency: 1 });
    expect(new Set(errors.map((e) => e?.kind))).toEqual(new Set(['deadline']));
    // Each read's first request is answered 429; every retry wait (30 s cap) ends at the deadline.
    expect(sent).toBe(25);
    expect(seconds).toBeGreaterThanOrEqual(2.4);
    expect(seconds).toBeLessThan(6.5);
    console.log(`hostile: 429 storm (Retry-After: 999999), deadline 2.5 s: ${sent} requests, all 25 deadline errors after ${seconds.toFixed(2)} s`);
  });

  it('requests queued behind a slow rate settle at the deadline instead of waiting their turn', async () => {
    mode = 'ok';
    const { seconds, errors } = await readAll({ deadlineMs: 1500, requestsPerSecond: 2 });
    const answered = errors.filter((e) => e === null).length;
    expect(answered).toBeGreaterThanOrEqual(2);
    expect(answered).toBeLessThanOrEqual(5);
    expect(errors.filter((e) => e !== null).every((e) => e?.kind === 'deadline' && e.attempts === 0)).toBe(true);
    expect(seconds).toBeLessThan(5); // 12.5 s at 2 requests a second without the deadline
  });
});

describe('--timeout and `timeout`', () => {
  function project(config: string): string {
    const dir = tempDir('steward-deadline-');
    writeFileSync(path.join(dir, 'steward.yaml'), config);
    return dir;
  }

  it('a check against a server that never answers: exit 3 at --timeout 2s, naming it', async () => {
    mode = 'hang';
    expect(RUN_TIMEOUT_DEFAULT).toBe('30m');
    const dir = project('policies: [builtin]\nscope: { datasets: [ds-1, ds-2] }\n');
    const t0 = performance.now();
    const r = await runCli(['check', '--only', 'datasets-have-an-owner', '--timeout', '2s', '--format', 'json'], {
      cwd: dir,
      env: { STEWARD_BASE_URL: base, STEWARD_TOKEN: 'tok-deadline-1234' },
    });
    const seconds = (performance.now() - t0) / 1000;
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as { summary: { gate: string }; findings: { status: string; message: string }[] };
    expect(report.summary.gate).toBe('error');
    expect(report.findings.every((f) => f.status === 'error' && f.message.includes("the run's deadline (--timeout 2s) passed"))).toBe(true);
    expect(seconds).toBeLessThan(10);
    console.log(`hostile: check against hanging reads with --timeout 2s: exit 3 after ${seconds.toFixed(2)} s`);
  });

  it('a bad duration is exit 2 before any request: the flag, or the config value at its position', async () => {
    const dir = project('policies: [builtin]\ntimeout: 2d\n');
    const env = { STEWARD_BASE_URL: base, STEWARD_TOKEN: 'tok-deadline-1234' };
    const flag = await runCli(['check', '--timeout', '25h'], { cwd: project('policies: [builtin]\n'), env });
    expect(flag.code).toBe(2);
    expect(flag.stderr.split('\n')[0]).toBe('--timeout: timeout "25h": a whole number of s, m or h (e.g. 90s, 30m, 2h), at most 24h');
    const file = await runCli(['check'], { cwd: dir, env });
    expect(file.code).toBe(2);
    expect(file.stderr.split('\n')[0]).toMatch(/^steward\.yaml:2:10: /);
    expect(sent).toBe(0);
  });
});
