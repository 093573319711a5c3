// A server that keeps failing: a 429 storm with `Retry-After: 999999`, or one that never answers
// but with 503. After BREAKER_THRESHOLD requests of one operation fail in a row, the rest of that
// operation's requests fail at once, not sent, naming the cause; an answer that is not transient
// (404, 200) starts the count again. Real HTTP on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BREAKER_THRESHOLD } from '../../src/api/breaker.js';
import { createClient } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';

let server: Server;
let base: string;
let sent: string[] = [];
/** What the server answers to a dataset's permissions. */
let answer: { status: number; headers?: Record<string, string> } = { status: 429 };

beforeAll(async () => {
  server = createServer((req, res) => {
    sent.push(req.url ?? '');
    if (req.url?.includes('/ds-ok/')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ list: [] }));
      return;
    }
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(JSON.stringify({ status: answer.status, message: 'storm' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  sent = [];
});

const ids = Array.from({ length: 25 }, (_, i) => `ds-${i}`);

/** A client whose retry waits are short, so the test counts requests, not the 30 s wait cap. */
function client(concurrency: number) {
  return createClient({ baseUrl: base, token: 'tok-123456', retryBaseDelayMs: 1, retryMaxDelayMs: 5, concurrency });
}

async function readAll(concurrency: number): Promise<ApiError[]> {
  const c = client(concurrency);
  const settled = await Promise.allSettled(ids.map((id) => c.getDatasetPermissions(id)));
  return settled.map((s) => (s.status === 'rejected' ? (s.reason as ApiError) : (null as unknown as ApiError)));
}

describe('a server that keeps failing stops being asked', () => {
  it('a 429 storm with Retry-After: 999999: 20 requests are sent, then all 25 reads fail at once, naming why', async () => {
    answer = { status: 429, headers: { 'Retry-After': '999999' } };
    const t0 = performance.now();
    const errors = await readAll(1);
    const seconds = (performance.now() - t0) / 1000;
    expect(BREAKER_THRESHOLD).toBe(20);
    expect(sent).toHaveLength(20);
    // The first 20 reads each had their first request answered 429; their retries and the last 5 reads were not sent.
    expect(errors.map((e) => [e.kind, e.attempts])).toEqual([...Array(20).fill(['circuit-open', 1]), ...Array(5).fill(['circuit-open', 0])]);
    const why = '20 requests of getDatasetPermissions in a row failed (the last: 429 Too Many Requests)';
    expect(errors[0].message).toBe(`getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-0/permissions": stopped after 1 attempt: ${why}`);
    expect(errors[24].message).toBe(`getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-24/permissions": not sent: ${why}`);
    console.log(`hostile: 429 storm (Retry-After: 999999) over 25 datasets: ${sent.length} requests (100 without the breaker), all 25 errors in ${seconds.toFixed(2)} s`);
  });

  it('with 8 calls in flight, the ones already retrying stop too', async () => {
    answer = { status: 503 };
    const errors = await readAll(8);
    expect(errors.every((e) => e !== null)).toBe(true);
    // 100 requests without the breaker; the ones in flight when it opens finish.
    expect(sent.length).toBeGreaterThanOrEqual(20);
    expect(sent.length).toBeLessThanOrEqual(20 + 8);
  });

  it('errors that are not transient (404) never open it, and an answer starts the count again', async () => {
    answer = { status: 404 };
    const notFound = await readAll(1);
    expect(sent).toHaveLength(25);
    expect(new Set(notFound.map((e) => e.kind))).toEqual(new Set(['http']));

    sent = [];
    answer = { status: 503 };
    const one = client(1);
    const order = ['ds-a', 'ds-b', 'ds-c', 'ds-d', 'ds-ok', 'ds-e', 'ds-f', 'ds-g', 'ds-h', 'ds-i', 'ds-j'];
    const kinds: string[] = [];
    for (const id of order) {
      kinds.push(await one.getDatasetPermissions(id).then(() => 'ok', (e: ApiError) => e.kind));
    }
    expect(kinds).toEqual(['http', 'http', 'http', 'http', 'ok', 'http', 'http', 'http', 'http', 'http', 'circuit-open']);
    expect(sent).toHaveLength(9 * 4 + 1);
  });
});
