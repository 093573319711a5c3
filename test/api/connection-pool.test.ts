// The wire under the client: one keep-alive pool per origin (connections ≤ concurrency however
// many reads), compressed answers inflated, and a listing that fails still waits for the pages in
// flight, so no request outlives it. Over real HTTP on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionPool } from '../../src/api/connection-pool.js';
import { createClient } from '../../src/api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ size: { datasets: 240, cards: 0, schedules: 0 } });
});
afterAll(() => s.close());

/** A server that counts its connections and answers with `respond`. */
async function countingServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  let connections = 0;
  const server = http.createServer(respond);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((x) => x.close()));
});

describe('connection pool', () => {
  it('reuses keep-alive connections: 240 reads at concurrency 4 open at most 4', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await countingServer((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }, 2);
    });
    servers.push(server);
    const pool = createConnectionPool(4);
    const send = () => pool.send(`${server.url}/x`, { method: 'GET', headers: {} }, 1024).answer;
    for (let i = 0; i < 60; i++) {
      const answers = await Promise.all([send(), send(), send(), send()]);
      expect(answers.map((a) => a.text)).toEqual(Array(4).fill('{"ok":true}'));
    }
    expect(most).toBe(4);
    expect(server.connections()).toBeLessThanOrEqual(4);
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('inflates a %s answer, and asks for compression', async (encoding, compress) => {
    let asked = '';
    const body = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `ü-${i}` })) });
    const server = await countingServer((req, res) => {
      asked = String(req.headers['accept-encoding']);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(compress(Buffer.from(body)));
    });
    servers.push(server);
    const answer = await createConnectionPool(1).send(`${server.url}/`, { method: 'GET', headers: {} }, 1 << 20).answer;
    expect(answer.text).toBe(body);
    expect(asked).toBe('gzip, deflate, br');
  });

  it('drops a UTF-8 byte order mark as fetch did, and gives headers as sent', async () => {
    const server = await countingServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '3', 'x-two': 'a' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
    });
    servers.push(server);
    const answer = await createConnectionPool(1).send(`${server.url}/`, { method: 'GET', headers: {} }, 1024).answer;
    expect(answer).toMatchObject({ status: 429, statusText: 'Too Many Requests', text: '{"a":1}' });
    expect(new Headers(answer.headers).get('retry-after')).toBe('3');
    expect(answer.headers).toContainEqual(['x-two', 'a']);
  });

  it('cancel ends an attempt with its reason and drops the connection', async () => {
    let closed = false;
    const server = await countingServer((req) => {
      req.socket.on('close', () => {
        closed = true;
      });
    });
    servers.push(server);
    const attempt = createConnectionPool(1).send(`${server.url}/`, { method: 'GET', headers: {} }, 1024);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reason = new Error('timed out after 50 ms');
    attempt.cancel(reason);
    await expect(attempt.answer).rejects.toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });
});

describe('a listing that fails', () => {
  it('waits for the pages in flight before it rejects: no request outlives it', async () => {
    // Every offset answers the first page, so the page at offset=50 repeats ids; the pages at
    // 100-200 are in flight then, each held 300 ms by the server.
    s.configure({ ignoreSkip: true });
    s.resetCounts();
    s.scriptFault('listDatasets', {}, 2);
    s.scriptFault('listDatasets', { delayMs: 300 }, 3);
    const client = createClient({ baseUrl: s.baseUrl, token: s.token, concurrency: 8 });
    const started = performance.now();
    const listing = (async () => {
      for await (const _ of client.listDatasets()) {
        // read every page
      }
    })();
    await expect(listing).rejects.toThrow(/offset=50": the listing is incomplete: id "[^"]+" appears twice/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(s.totalRequests()).toBe(5);
    s.configure({ ignoreSkip: false });
  });
});
