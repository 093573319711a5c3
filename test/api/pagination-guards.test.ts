// The fail-closed rules of offset listings with a total, each against a server scripted for the
// test (real HTTP on 127.0.0.1): a short page in the middle, and a total that changes while
// paging (larger or smaller), are an incomplete listing, never a shorter list.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { allPages, rejection } from './helpers.js';

/** The page the server answers at each offset: its items (ids) and the total it announces. */
type Script = Record<number, { ids: string[]; total: number }>;

let server: Server;
let base: string;
let script: Script = {};
let offsetsAsked: number[] = [];

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

beforeAll(async () => {
  server = createServer((req, res) => {
    const offset = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('offset') ?? 0);
    offsetsAsked.push(offset);
    const page = script[offset] ?? { ids: [], total: 0 };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ dataSources: page.ids.map((id) => ({ id, name: id })), _metaData: { totalCount: page.total } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function listAll(s: Script) {
  script = s;
  offsetsAsked = [];
  const client = createClient({ baseUrl: base, token: 'tok-123456', retryBaseDelayMs: 1 });
  return allPages(client.listDatasets());
}

describe('offset listings with a total', () => {
  it('a whole listing of 105 items in pages of 50 is three pages, read once each', async () => {
    const pages = await listAll({ 0: { ids: ids('a', 50), total: 105 }, 50: { ids: ids('b', 50), total: 105 }, 100: { ids: ids('c', 5), total: 105 } });
    expect(pages.map((p) => p.length)).toEqual([50, 50, 5]);
    expect(offsetsAsked.sort((a, b) => a - b)).toEqual([0, 50, 100]);
  });

  it('a short page in the middle (50, 49, 5 of 105) is incomplete, not 104 items', async () => {
    const error = await rejection(listAll({ 0: { ids: ids('a', 50), total: 105 }, 50: { ids: ids('b', 49), total: 105 }, 100: { ids: ids('c', 5), total: 105 } }));
    expect(error.message).toMatch(/the listing is incomplete: 104 of 105 items were listed$/);
    expect(error).toMatchObject({ kind: 'pagination' });
  });

  it('a total that grows while paging is incomplete, naming both totals', async () => {
    const error = await rejection(listAll({ 0: { ids: ids('a', 50), total: 105 }, 50: { ids: ids('b', 50), total: 106 }, 100: { ids: ids('c', 5), total: 105 } }));
    expect(error.message).toMatch(/the listing is incomplete: the total changed from 105 to 106 while paging$/);
  });

  it('a total that shrinks while paging is incomplete, even when every page is full', async () => {
    const error = await rejection(listAll({ 0: { ids: ids('a', 50), total: 105 }, 50: { ids: ids('b', 50), total: 100 }, 100: { ids: ids('c', 5), total: 105 } }));
    expect(error.message).toMatch(/the listing is incomplete: the total changed from 105 to 100 while paging$/);
  });
});
