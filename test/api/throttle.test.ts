// Throttling fit for a shared SaaS: 429s halve the requests in flight and calm answers bring
// them back one at a time; the run reports the 429s and its rate; hosts that are not loopback
// get a conservative default rate. Over real HTTP on the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_REQUESTS_PER_SECOND } from '../../src/api/assumptions.js';
import { RECOVERY_ANSWERS } from '../../src/api/throttle.js';
import { defaultRate } from '../../src/library/connect.js';
import { check } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { REPO } from '../cli/helpers.js';
import { clientFor, TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ token: TOKEN });
});
afterAll(() => s.close());

describe('adaptive concurrency', () => {
  it('429s cut concurrency (8 → 4 → 2), calm answers restore it one by one, and the stats say so', async () => {
    s.resetCounts();
    s.scriptFault('getDatasetPermissions', { status: 429, retryAfter: 0 }, 2);
    const { client } = clientFor(s, { concurrency: 8 });
    const ids = [...s.state.datasetAccess.keys()];
    await Promise.all(ids.map((id) => client.getDatasetPermissions(id)));
    const stats = client.stats();
    expect(stats).toMatchObject({ throttled: 2, lowestConcurrency: 2, retries: 2 });
    expect(stats.requests).toBe(ids.length + 2);
    // Without a 429 the stats are the three counters only.
    const calm = clientFor(s).client;
    await calm.getCalculatedFieldStatistics();
    expect(calm.stats()).toEqual({ requests: 1, retries: 0, failed: 0 });
    expect(RECOVERY_ANSWERS).toBe(20);
  });

  it('the report carries the 429s, the lowest concurrency and the achieved rate; the text footer names them', async () => {
    s.scriptFault('getDatasetPermissions', { status: 429, retryAfter: 0 }, 1);
    const report = await check({
      config: 'demo/steward.yaml',
      cwd: REPO,
      env: {},
      baseUrl: s.baseUrl,
      token: s.token,
      only: ['datasets-have-an-owner'],
      client: { retryBaseDelayMs: 1 },
    });
    expect(report.http).toMatchObject({ throttled: 1, lowestConcurrency: 4 });
    expect(report.http.ratePerSecond).toBeGreaterThan(0);
    const { formatReport } = await import('../../src/report/index.js');
    const text = formatReport('text', report, { color: false, width: 200 });
    expect(text).toMatch(/29 requests, 1 retried, 0 failed, 1 throttled \(429, concurrency down to 4; [\d.]+ req\/s\)/);
  });
});

describe('default rate', () => {
  it('is REMOTE_REQUESTS_PER_SECOND for a remote host and none for loopback', () => {
    expect(REMOTE_REQUESTS_PER_SECOND).toBe(2);
    expect(defaultRate('https://acme.example.com')).toBe(2);
    expect([defaultRate('http://127.0.0.1:8080'), defaultRate('http://localhost:3000'), defaultRate('http://[::1]:9')]).toEqual([undefined, undefined, undefined]);
  });
});
