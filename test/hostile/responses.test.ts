// A hostile server: a small gzip body that inflates far past the body cap is an error of that
// read (not retried, memory bounded), and a listing that never ends is incomplete. Real HTTP on
// 127.0.0.1 from a server made for the test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { MAX_RESPONSE_BYTES } from '../../src/api/assumptions.js';

const INFLATED = 256 * 1024 * 1024; // 256 MiB of zeros…
let bomb: Buffer; // …in about 250 KiB of gzip
let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  bomb = gzipSync(Buffer.alloc(INFLATED), { level: 9 });
  server = createServer((req, res) => {
    hits += 1;
    if (req.url?.startsWith('/api/query/v1/functions/statistics')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': bomb.length });
      res.end(bomb);
      return;
    }
    // A listing that always answers a full page (it ignores skip and never ends).
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const skip = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('skip') ?? 0);
    res.end(JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ id: `w-${skip + i}`, name: 'w' }))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('response size', () => {
  it('a gzip bomb is an error of its read, named, not retried, with memory bounded by the cap', async () => {
    hits = 0;
    const before = process.memoryUsage().rss;
    const client = createClient({ baseUrl: base, token: 'tok-123456', maxBodyBytes: 8 * 1024 * 1024 });
    const t0 = performance.now();
    const error = await client.getCalculatedFieldStatistics().catch((e: unknown) => e as Error & { kind?: string });
    const seconds = (performance.now() - t0) / 1000;
    const grewMb = (process.memoryUsage().rss - before) / 2 ** 20;
    expect(error).toMatchObject({ kind: 'too-large' });
    expect(error.message).toBe(
      'getCalculatedFieldStatistics: [GET] "/api/query/v1/functions/statistics": the answer is larger than 8388608 bytes (decompressed): not read further, not retried',
    );
    expect(hits).toBe(1);
    // 256 MiB inflated would show; the cap keeps the growth near 8 MiB (and the gzip itself).
    expect(grewMb).toBeLessThan(128);
    console.log(`hostile: gzip bomb of ${(bomb.length / 1024).toFixed(0)} KiB → ${INFLATED / 2 ** 20} MiB refused after ${seconds.toFixed(2)} s, RSS grew ${grewMb.toFixed(0)} MB`);
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe('listings that never end', () => {
  it('a server answering full pages forever ends as incomplete at the page cap, not after reading forever', async () => {
    hits = 0;
    const client = createClient({ baseUrl: base, token: 'tok-123456', pageSize: 10 });
    const t0 = performance.now();
    const pages: unknown[] = [];
    const error = await (async () => {
      for await (const page of client.listWorkflowModels()) pages.push(page);
    })().catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/the listing is incomplete: more than 10000 pages$/);
    expect(hits).toBe(10_000);
    console.log(`hostile: endless listing stopped after ${hits} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, 120_000);
});
