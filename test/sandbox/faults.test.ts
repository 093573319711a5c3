// Fault injection (scripted and seeded random) and exact per-operation counters.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/api/operations.js';
import { MALFORMED_JSON_BODY, NO_FAULTS, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, workflows } from './helpers.js';

const STATS = '/api/query/v1/functions/statistics';
let s: Sandbox;

beforeAll(async () => {
  s = await startSandbox({ seed: 3 });
});
afterAll(() => s.close());
beforeEach(() => {
  s.setFaults(NO_FAULTS);
  s.resetCounts();
});

describe('scripted faults', () => {
  it('429 with Retry-After, for exactly `times` requests, then normal answers', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 429, retryAfter: 2 }, 2);
    const first = await call(s, 'GET', STATS);
    const second = await call(s, 'GET', STATS);
    const third = await call(s, 'GET', STATS);
    expect([first.status, first.headers.get('retry-after'), second.status, third.status]).toEqual([429, '2', 429, 200]);
    expect(first.json()).toEqual({ message: 'Too Many Requests (injected fault)' });
    expect(s.counts.getCalculatedFieldStatistics).toBe(3);
  });

  it('a dropped connection rejects the fetch', async () => {
    s.scriptFault('getDatasetPermissions', { drop: true });
    await expect(call(s, 'GET', '/api/data/v3/datasources/ds-0001/permissions')).rejects.toThrow(TypeError);
    expect((await call(s, 'GET', '/api/data/v3/datasources/ds-0001/permissions')).status).toBe(200);
    expect(s.counts.getDatasetPermissions).toBe(2);
  });

  it('malformed JSON is a 200 whose body does not parse', async () => {
    s.scriptFault('listReportSchedules', { malformedJson: true });
    const res = await call(s, 'GET', '/api/content/v1/reportschedules?filter=ALL&orderBy=title');
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([
      200,
      MALFORMED_JSON_BODY,
      'application/json;charset=UTF-8',
    ]);
    expect(() => res.json()).toThrow(SyntaxError);
  });

  it('a custom body is sent as is; faults only hit their own operation', async () => {
    s.scriptFault('getCertificationStatus', { status: 502, body: '<html>Bad Gateway</html>' });
    expect((await call(s, 'GET', STATS)).status).toBe(200);
    const res = await call(s, 'GET', '/api/tags/v3/CARD/7001/system/CERTIFIED/state');
    expect([res.status, res.text]).toEqual([502, '<html>Bad Gateway</html>']);
  });

  it('a script with a path hits only the read of that item, whichever comes first', async () => {
    s.scriptFault('getCertificationStatus', { status: 502, path: '/api/tags/v3/CARD/7002/system/CERTIFIED/state' });
    s.scriptFault('getCertificationStatus', { status: 503 });
    const other = await call(s, 'GET', '/api/tags/v3/CARD/7001/system/CERTIFIED/state');
    const item = await call(s, 'GET', '/api/tags/v3/CARD/7002/system/CERTIFIED/state');
    const after = await call(s, 'GET', '/api/tags/v3/CARD/7002/system/CERTIFIED/state');
    expect([other.status, item.status, after.status]).toEqual([503, 502, 200]);
  });

  it('faults come before auth: a faulted request without a token is still the fault', async () => {
    s.scriptFault('listWorkflows', { status: 503 });
    expect((await workflows(s)).status).toBe(503);
    expect((await workflows(s)).status).toBe(401);
    expect(s.counts.listWorkflows).toBe(2);
  });

  it('a delay-only script answers normally, and scripts take priority over random faults', async () => {
    s.setFaults({ errorRates: { 503: 1 } });
    s.scriptFault('getCalculatedFieldStatistics', { delayMs: 5 });
    expect((await call(s, 'GET', STATS)).status).toBe(200);
    expect((await call(s, 'GET', STATS)).status).toBe(503);
  });
});

describe('random faults', () => {
  async function statuses(seed: number): Promise<number[]> {
    const sb = await startSandbox({ seed, faults: { errorRates: { 503: 0.3, 500: 0.2 } } });
    try {
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await call(sb, 'GET', STATS)).status);
      return out;
    } finally {
      await sb.close();
    }
  }

  it('replay with the same seed and mix the configured statuses', async () => {
    const a = await statuses(11);
    expect(await statuses(11)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 500, 503]));
  });

  it('rate limit carries retryAfterSeconds; drop rate 1 drops everything', async () => {
    s.setFaults({ rateLimitRate: 1, retryAfterSeconds: 7 });
    const limited = await call(s, 'GET', STATS);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    s.setFaults({ rateLimitRate: 0, dropRate: 1 });
    await expect(call(s, 'GET', STATS)).rejects.toThrow(TypeError);
  });

  it('slow bodies and latency still deliver the whole body', async () => {
    s.setFaults({ slowBodyMs: 20, latencyMs: 5, jitterMs: 5 });
    const res = await call(s, 'GET', '/api/content/v1/reportschedules?filter=ALL&orderBy=title');
    expect(res.json<unknown[]>()).toHaveLength(s.state.schedules.length);
  });

  it('malformed JSON rate', async () => {
    s.setFaults({ malformedJsonRate: 1 });
    expect((await call(s, 'GET', STATS)).text).toBe(MALFORMED_JSON_BODY);
  });
});

describe('counters', () => {
  it('count every request of each operation, rejected ones included, and nothing else', async () => {
    const counts = s.counts;
    await call(s, 'GET', STATS); // 200
    await call(s, 'GET', STATS, { token: 'wrong' }); // 401
    await call(s, 'GET', '/api/data/v3/datasources/ds-nope/permissions'); // 404
    await call(s, 'POST', '/api/queues/v1/q-marketing/permissions', { raw: 'nope' }); // 400
    await call(s, 'GET', '/api/unknown'); // no operation
    await workflows(s, `Bearer ${s.workflowToken}`);
    await workflows(s);
    expect(counts).toEqual({
      ...Object.fromEntries(OPERATION_IDS.map((op) => [op, 0])),
      getCalculatedFieldStatistics: 2,
      getDatasetPermissions: 1,
      updateQueuePermissions: 1,
      listWorkflows: 2,
    });
    expect(s.totalRequests()).toBe(6);
    s.resetCounts();
    expect([s.totalRequests(), counts === s.counts, counts.listWorkflows]).toEqual([0, true, 0]);
  });
});
