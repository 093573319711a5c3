// Retries, timeouts and the limiter over real HTTP: what is retried, how often, how long the
// client waits (from onRetry, never wall-clock), and what a write never repeats.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allTextOf, clientFor, closedPort, rejection, TOKEN, WORKFLOW_TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ seed: 3, token: TOKEN, workflowToken: WORKFLOW_TOKEN });
});
afterAll(() => s.close());
beforeEach(() => s.resetCounts());

describe('reads are retried', () => {
  it('429 with Retry-After: waits what the server asked (capped), then succeeds', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 429, retryAfter: 1 });
    // base 1 ms: backoff alone would wait ≤ 1 ms, so a 20 ms wait is Retry-After (1 s) at the cap.
    const { client, retries, log } = clientFor(s, { retryBaseDelayMs: 1, retryMaxDelayMs: 20 });
    expect(await client.getCalculatedFieldStatistics()).toEqual(s.state.calculatedFields);
    expect(s.counts.getCalculatedFieldStatistics).toBe(2);
    // The 429 also halved the requests in flight (8 → 4).
    expect(client.stats()).toEqual({ requests: 2, retries: 1, failed: 0, throttled: 1, lowestConcurrency: 4 });
    expect(retries).toEqual([
      expect.objectContaining({ operation: 'getCalculatedFieldStatistics', attempt: 1, status: 429, delayMs: 20 }),
    ]);
    expect(log.map((e) => [e.attempt, e.status])).toEqual([
      [1, 429],
      [2, 200],
    ]);
    expect(JSON.stringify([log, retries])).not.toContain('SECRET');
  });

  it('a 503 storm exhausts maxAttempts with a clear error', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 503 }, 4);
    const { client, retries } = clientFor(s, { maxAttempts: 4 });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(s.counts.getCalculatedFieldStatistics).toBe(4);
    expect(error).toMatchObject({ code: 'E_API', kind: 'http', status: 503, attempts: 4 });
    expect(error.message).toMatch(
      /^getCalculatedFieldStatistics: \[GET\] "\/api\/query\/v1\/functions\/statistics": 503 Service Unavailable — .+ \(gave up after 4 attempts\)$/,
    );
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(retries.every((r) => r.delayMs >= 0 && r.delayMs <= 20)).toBe(true);
    expect(client.stats()).toEqual({ requests: 4, retries: 3, failed: 1 });
  });

  it('408 Request Timeout is retried, then succeeds', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 408 });
    const { client, retries } = clientFor(s);
    expect(await client.getCalculatedFieldStatistics()).toEqual(s.state.calculatedFields);
    expect(s.counts.getCalculatedFieldStatistics).toBe(2);
    expect(client.stats()).toEqual({ requests: 2, retries: 1, failed: 0 });
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, status: 408 })]);
  });

  it('501 is never retried', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 501 });
    const { client } = clientFor(s);
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ status: 501, attempts: 1 });
    expect(s.counts.getCalculatedFieldStatistics).toBe(1);
  });

  it('a dropped connection is retried', async () => {
    s.scriptFault('listWorkflows', { drop: true });
    const { client } = clientFor(s);
    expect(await client.listWorkflows()).toEqual(s.state.workflows);
    expect(s.counts.listWorkflows).toBe(2);
    expect(client.stats()).toEqual({ requests: 2, retries: 1, failed: 0 });
  });

  it('a request slower than timeoutMs times out on every attempt', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { delayMs: 300 }, 2);
    const { client, log } = clientFor(s, { timeoutMs: 100, maxAttempts: 2 });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ kind: 'timeout', status: undefined, attempts: 2 });
    expect(error.message).toBe(
      'getCalculatedFieldStatistics: [GET] "/api/query/v1/functions/statistics": timed out after 100 ms (gave up after 2 attempts)',
    );
    expect(log.map((e) => e.error)).toEqual(['timed out after 100 ms', 'timed out after 100 ms']);
    expect(s.counts.getCalculatedFieldStatistics).toBe(2);
  });
});

describe('writes are retried only when the server provably never got them', () => {
  it('a POST answered 503 is sent once', async () => {
    const id = [...s.state.queuePermissions.keys()][0];
    const before = structuredClone(s.state.queuePermissions.get(id));
    s.scriptFault('updateQueuePermissions', { status: 503 });
    const { client, retries } = clientFor(s);
    const error = await rejection(client.updateQueuePermissions(id, []));
    expect(s.counts.updateQueuePermissions).toBe(1);
    expect(retries).toEqual([]);
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 1 });
    expect(error.message).toMatch(/\(not retried: the POST may have reached the server\)$/);
    expect(s.state.queuePermissions.get(id)).toEqual(before);
  });

  it('a POST that times out is sent once', async () => {
    s.scriptFault('indexDataset', { delayMs: 300 });
    const { client } = clientFor(s, { timeoutMs: 100 });
    const error = await rejection(client.indexDataset('ds-1'));
    expect(s.counts.indexDataset).toBe(1);
    expect(error.message).toBe(
      'indexDataset: [POST] "/api/query/v1/datasources/ds-1": timed out after 100 ms (not retried: the POST may have reached the server)',
    );
  });

  it('a PUT whose connection drops mid-request is sent once', async () => {
    s.scriptFault('updateFilePermissions', { drop: true });
    const { client } = clientFor(s);
    const error = await rejection(client.updateFilePermissions('42', { publicAccess: false, entries: [] }));
    expect(error).toMatchObject({ kind: 'network', attempts: 1 });
    expect(s.counts.updateFilePermissions).toBe(1);
  });

  it('a POST to a closed port (connection refused) is not retried, and no later request is sent: no request of the run can reach the host', async () => {
    const port = await closedPort();
    const { client, log, retries } = clientFor(s, { baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 3 });
    const error = await rejection(client.updateQueuePermissions('q-1', []));
    expect(log.map((e) => e.attempt)).toEqual([1]);
    expect(log.every((e) => e.status === undefined && /ECONNREFUSED/.test(e.error ?? ''))).toBe(true);
    expect(retries).toHaveLength(0);
    expect(error).toMatchObject({ kind: 'network', status: undefined, attempts: 1, networkCode: 'ECONNREFUSED' });
    expect(error.message).toBe(
      `updateQueuePermissions: [POST] "/api/queues/v1/q-1/permissions": network error: connect ECONNREFUSED 127.0.0.1:${port} (not retried: the host cannot be reached)`,
    );
    const later = await rejection(client.getQueuePermissions('q-2'));
    expect(later.message).toMatch(/^getQueuePermissions: \[GET\] "\/api\/queues\/v1\/q-2\/permissions": not sent: an earlier request found the host unreachable \(connect ECONNREFUSED/);
    expect(client.stats()).toEqual({ requests: 1, retries: 0, failed: 2 });
    expect(allTextOf(error)).not.toContain('SECRET');
  });
});

describe('one shared limiter', () => {
  let server: Server;
  let inFlight = 0;
  let maxInFlight = 0;
  let baseUrl = '';
  beforeAll(async () => {
    // A bare server that holds each answer 20 ms, to observe how many requests overlap.
    server = createServer((_req, res) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ list: [], totalUserCount: 0, totalGroupCount: 0 }));
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('never has more than `concurrency` requests in flight', async () => {
    const client = createClient({ baseUrl, token: TOKEN, concurrency: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => client.getDatasetPermissions(id)));
    expect(maxInFlight).toBe(2);
    expect(client.stats()).toEqual({ requests: 6, retries: 0, failed: 0 });
  });
});
