// Every fail-closed rule of the three page shapes the table declares, each against a server
// scripted for the test (real HTTP on 127.0.0.1): offset listings with a total (datasets, the
// card search and its cap), offset listings without one (groups, file sets), cursor listings
// (a file set's files), and the limit/skip schedule list. Each rule's test fails without it: an
// incomplete or malformed listing is an error naming why, never a shorter list.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { MAX_PAGES } from '../../src/api/pagination.js';
import { allPages, rejection } from './helpers.js';

interface Asked {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

let server: Server;
let base: string;
/** The body of the answer to a request; a promise is awaited (the answer is held until it settles). */
let answer: (req: Asked) => unknown = () => [];
let asked: Asked[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => {
      text += d;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const request = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : {} };
      asked.push(request);
      void Promise.resolve(answer(request)).then((body) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  asked = [];
});

const client = () => createClient({ baseUrl: base, token: 'tok-123456', retryBaseDelayMs: 1, maxAttempts: 1 });
const range = (prefix: string, from: number, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${from + i}`);
const offsetOf = (r: Asked) => Number(r.query.get('offset') ?? r.body.offset ?? 0);
/** A promise that settles when `release` is called: an answer held until then. */
const gate = () => {
  let release = () => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { until, release };
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `done` holds (3 s at most), then `settle` ms more for what would come after it. */
const waitUntil = async (done: () => boolean, settle: number) => {
  for (let waited = 0; !done() && waited < 3000; waited += 20) await pause(20);
  await pause(settle);
};

describe('offset listings with a total (datasets, pages of 50)', () => {
  const datasets = (pages: Record<number, { ids: string[]; total?: number } | Record<string, unknown>>) => {
    answer = (r) => {
      const page = pages[offsetOf(r)] ?? { ids: [], total: 0 };
      return 'ids' in page ? { dataSources: (page.ids as string[]).map((id) => ({ id, name: id })), _metaData: { totalCount: page.total } } : page;
    };
    return allPages(client().listDatasets());
  };

  it('an empty page before the total is incomplete, naming its offset', async () => {
    const error = await rejection(datasets({ 0: { ids: range('a', 0, 50), total: 105 }, 50: { ids: [], total: 105 }, 100: { ids: range('c', 0, 5), total: 105 } }));
    expect(error.message).toMatch(/the listing is incomplete: an empty page at offset=50 of 105$/);
  });

  it('an answer without the items is API drift naming their key; without the total, naming the total keys', async () => {
    const noItems = await rejection(datasets({ 0: { _metaData: { totalCount: 3 } } }));
    expect(noItems).toMatchObject({ kind: 'drift', field: 'dataSources' });
    expect(noItems.message).toMatch(/API drift at dataSources: missing \(\[GET\] "\/api\/data\/v3\/datasources/);
    const noTotal = await rejection(datasets({ 0: { dataSources: [{ id: 'a' }] } }));
    expect(noTotal).toMatchObject({ kind: 'drift', field: '_metadata.totalCount or _metaData.totalCount' });
  });

  it('an id on two pages, or twice on one, is incomplete naming the pages', async () => {
    const across = await rejection(datasets({ 0: { ids: range('a', 0, 50), total: 60 }, 50: { ids: ['b0', 'a7', ...range('b', 1, 8)], total: 60 } }));
    expect(across.message).toMatch(/id "a7" appears twice \(on the pages at offset=0 and offset=50\)/);
    const within = await rejection(datasets({ 0: { ids: ['a', 'b', 'a'], total: 3 } }));
    expect(within.message).toMatch(/id "a" appears twice \(on the page at offset=0\)/);
  });

  it('a total of 0 with an empty page is an empty listing in one request', async () => {
    expect(await datasets({ 0: { ids: [], total: 0 } })).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('a total needing more than MAX_PAGES pages is incomplete after the first page, before any other request', async () => {
    const total = MAX_PAGES * 50 + 1;
    const error = await rejection(datasets({ 0: { ids: range('a', 0, 50), total } }));
    expect(error.message).toMatch(new RegExp(`the listing is incomplete: ${total} items need more than ${MAX_PAGES} pages$`));
    expect(asked).toHaveLength(1);
  });
});

describe("the card search's cap (10,000 records, pages of 100 in the body)", () => {
  const cards = (total: number) => {
    answer = (r) => {
      const offset = offsetOf(r);
      const ids = Array.from({ length: Math.max(0, Math.min(100, total - offset)) }, (_, i) => offset + i);
      return { searchObjects: ids.map((id) => ({ databaseId: id, name: `c${id}`, entityType: 'CARD' })), totalResultCount: total };
    };
    return allPages(client().searchCards());
  };

  it('a total over the cap is incomplete after one request; a total at the cap is read whole', async () => {
    const error = await rejection(cards(10_001));
    expect(error.message).toMatch(/the listing is incomplete: 10001 items, more than the 10000 this listing can return$/);
    expect(asked).toHaveLength(1);
    asked = [];
    const pages = await cards(10_000);
    expect(pages.flat()).toHaveLength(10_000);
    expect(asked).toHaveLength(100);
    expect(asked.map((r) => r.body.offset).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 100 }, (_, i) => i * 100));
  }, 30_000);
});

describe('offset listings without a total (groups: a bare array, pages of 100)', () => {
  const groups = (pages: Record<number, number[]>) => {
    answer = (r) => (pages[offsetOf(r)] ?? []).map((id) => ({ groupId: id, name: `g${id}`, owners: [], memberCount: 0 }));
    return allPages(client().listGroups());
  };
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

  it('pages one after another at the offsets read so far, until a short page', async () => {
    const pages = await groups({ 0: ids(0, 100), 100: ids(100, 100), 200: ids(200, 30) });
    expect(pages.map((p) => p.length)).toEqual([100, 100, 30]);
    expect(asked.map(offsetOf)).toEqual([0, 100, 200]);
  });

  it('an empty page after full ones ends the listing; it yields no page', async () => {
    const pages = await groups({ 0: ids(0, 100) });
    expect(pages.map((p) => p.length)).toEqual([100]);
    expect(asked.map(offsetOf)).toEqual([0, 100]);
  });

  it('a group id on two pages is incomplete naming both', async () => {
    const error = await rejection(groups({ 0: ids(0, 100), 100: [5, ...ids(101, 10)] }));
    expect(error.message).toMatch(/id 5 appears twice \(on the pages at offset=0 and offset=100\)/);
  });
});

describe('file sets: a total is optional, but one that appears later is incomplete', () => {
  it('a first page without a total, a later one with it', async () => {
    answer = (r) => {
      const offset = offsetOf(r);
      const fileSets = range('s', offset, 100).map((id) => ({ id, name: id }));
      return offset === 0 ? { fileSets } : { fileSets, pageContext: { total: 150 } };
    };
    const error = await rejection(allPages(client().searchFilesets()));
    expect(error.message).toMatch(/the listing is incomplete: a total \(150\) appeared on a later page than the first$/);
  });
});

describe("cursor listings (a file set's files)", () => {
  const files = (pages: Record<string, unknown>) => {
    answer = (r) => pages[r.query.get('next') ?? ''] ?? { files: [], pageContext: { next: null } };
    return allPages(client().searchFilesetFiles('fs-1'));
  };
  const file = (id: string) => ({ id, path: `/${id}` });

  it('follows the cursor in the query until there is none (null or empty)', async () => {
    const pages = await files({ '': { files: [file('a'), file('b')], pageContext: { next: 'c1' } }, c1: { files: [file('c')], pageContext: { next: '' } } });
    expect(pages.map((p) => p.map((f) => f.id))).toEqual([['a', 'b'], ['c']]);
    expect(asked.map((r) => r.query.get('next'))).toEqual([null, 'c1']);
    asked = [];
    await files({ '': { files: [file('a')], pageContext: { next: null } } });
    expect(asked).toHaveLength(1);
  });

  it('an empty page ends the listing even when it hands out a cursor', async () => {
    const pages = await files({ '': { files: [file('a')], pageContext: { next: 'c1' } }, c1: { files: [], pageContext: { next: 'c2' } } });
    expect(pages.map((p) => p.length)).toEqual([1]);
    expect(asked).toHaveLength(2);
  });

  it('files: null (an empty set, as the reference types it) is an empty listing; no files key is drift', async () => {
    expect(await files({ '': { files: null, pageContext: null } })).toEqual([]);
    const error = await rejection(files({ '': { pageContext: { next: null } } }));
    expect(error).toMatchObject({ kind: 'drift', field: 'files' });
  });

  it('a cursor that repeats, or is not text, is incomplete', async () => {
    const repeat = await rejection(files({ '': { files: [file('a')], pageContext: { next: 'c1' } }, c1: { files: [file('b')], pageContext: { next: 'c1' } } }));
    expect(repeat.message).toMatch(/the listing is incomplete: the cursor "c1" repeats$/);
    const number = await rejection(files({ '': { files: [file('a')], pageContext: { next: 5 } } }));
    expect(number.message).toMatch(/the listing is incomplete: the cursor 5 repeats$/);
  });

  it('an id on two pages is incomplete naming the pages by number', async () => {
    const error = await rejection(files({ '': { files: [file('a')], pageContext: { next: 'c1' } }, c1: { files: [file('a')], pageContext: { next: null } } }));
    expect(error.message).toMatch(/id "a" appears twice \(on the pages at page 1 and page 2\)/);
  });
});

describe('limit/skip listings (report schedules)', () => {
  it('a page that starts with an id already seen, but differs, is a repeated id, not "the server ignores skip"', async () => {
    const schedule = (id: number) => ({ id, title: `s${id}`, schedule: { frequency: 'DAILY', enabled: true } });
    answer = (r) => {
      const skip = Number(r.query.get('skip') ?? 0);
      if (skip === 0) return Array.from({ length: 100 }, (_, i) => schedule(i));
      if (skip === 100) return [schedule(0), ...Array.from({ length: 9 }, (_, i) => schedule(100 + i))];
      return [];
    };
    const error = await rejection(allPages(client().listReportSchedules()));
    expect(error.message).toMatch(/id 0 appears twice \(on the pages at skip=0 and skip=100\)/);
  });
});

describe('limit/skip read-ahead: the requests it makes, exactly', () => {
  const schedule = (id: number) => ({ id, title: `s${id}`, schedule: { frequency: 'DAILY', enabled: true } });
  /** A schedule list of `n` items, served `limit` at a time. */
  const serve = (n: number) => {
    answer = (r) => {
      const skip = Number(r.query.get('skip') ?? 0);
      const limit = Number(r.query.get('limit') ?? 100);
      return Array.from({ length: Math.max(0, Math.min(limit, n - skip)) }, (_, i) => schedule(skip + i));
    };
  };
  const reader = () => createClient({ baseUrl: base, token: 'tok-123456', maxAttempts: 1, pageSize: 2, concurrency: 8 });
  const skips = () => asked.map((r) => Number(r.query.get('skip'))).sort((a, b) => a - b);

  it('a reader that stops after the first page of a long list made one request', async () => {
    serve(200);
    for await (const _ of reader().listReportSchedules()) break;
    expect(skips()).toEqual([0]);
  });

  it('three full pages and a short one: the third full page reads two ahead, one past the end', async () => {
    serve(7);
    const pages = await allPages(reader().listReportSchedules());
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(skips()).toEqual([0, 2, 4, 6, 8]);
  });

  it('a slow page holds the read-ahead at one window past it: the pages after it are asked for, none further', async () => {
    serve(400);
    const whole = answer;
    const { until, release } = gate();
    // Page 10 (skip 20, the 11th) answers only when released; every other page at once.
    answer = async (r) => {
      if (r.query.get('skip') === '20') await until;
      return whole(r);
    };
    const furthest = () => Math.max(...skips()) / 2;
    const read = allPages(reader().listReportSchedules());
    // The window is 8 by then: pages 11-18 come while page 10 is held, each asking for more;
    // none may go past 10 + 8 (two windows asked for up to 26).
    await waitUntil(() => furthest() >= 18, 150);
    expect(furthest()).toBe(18);
    release();
    expect((await read).flat()).toHaveLength(400);
  });

  it('a reader that stops: the read-ahead stops with it, no request outlives the listing', async () => {
    serve(200);
    let read = 0;
    for await (const _ of reader().listReportSchedules()) if (++read === 4) break;
    const made = asked.length;
    // The pages ahead in flight when it stopped, at most the window; never the rest of the list.
    expect(made).toBeGreaterThanOrEqual(4);
    expect(made).toBeLessThan(20);
    await pause(50);
    expect(asked).toHaveLength(made);
  });

  it('pages past a short one that come back full after the listing ended ask for nothing more', async () => {
    // 21 schedules: pages 0-9 full, page 10 (skip 20) short; pages 11-17, asked for ahead, are held
    // and then answered full, as a server that changed underneath would.
    serve(21);
    const whole = answer;
    const { until, release } = gate();
    answer = async (r) => {
      const skip = Number(r.query.get('skip'));
      if (skip <= 20) return whole(r);
      await until;
      return [schedule(skip), schedule(skip + 1)];
    };
    const read = allPages(reader().listReportSchedules());
    // Then the short page is judged and the listing has ended (it waits only for the held pages).
    await waitUntil(() => skips().includes(20), 150);
    release();
    expect((await read).flat()).toHaveLength(21);
    await pause(100);
    // Page 9 asked up to 9 + 8; nothing past it, before the end or after.
    expect(skips()).toEqual(Array.from({ length: 18 }, (_, i) => i * 2));
  });
});

describe('offset read-ahead: one window (the concurrency) past the page the reader waits for', () => {
  /** 500 datasets, 50 a page (10 pages), each answered at once unless `held` names its offset. */
  const serve = (held?: { offset: number; until: Promise<void> }) => {
    answer = async (r) => {
      const offset = offsetOf(r);
      if (held && offset === held.offset) await held.until;
      return { dataSources: range('d', offset, 50).map((id) => ({ id, name: id })), _metaData: { totalCount: 500 } };
    };
  };
  const reader = () => createClient({ baseUrl: base, token: 'tok-123456', maxAttempts: 1, concurrency: 3 });
  const offsets = () => asked.map(offsetOf).sort((a, b) => a - b);

  it('a reader that stops after the first page made one request: the window opens when it asks for the second', async () => {
    serve();
    for await (const _ of reader().listDatasets()) break;
    expect(offsets()).toEqual([0]);
    // Asked for the second: it, and the window (3) past it, as any page the reader waits for.
    asked.length = 0;
    let pages = 0;
    for await (const _ of reader().listDatasets()) if (++pages === 2) break;
    expect(offsets()).toEqual([0, 50, 100, 150, 200]);
  });

  it('a slow page holds the requests at one window past it; released, the list is read whole, each page once', async () => {
    const { until, release } = gate();
    serve({ offset: 100, until });
    const read = allPages(reader().listDatasets());
    // Page 2 (offset 100) is held: the reader took pages 0 and 1, so pages up to 2 + 3 are asked for.
    await waitUntil(() => offsets().length >= 6, 150);
    expect(offsets()).toEqual([0, 50, 100, 150, 200, 250]);
    release();
    expect((await read).flat()).toHaveLength(500);
    expect(offsets()).toEqual(Array.from({ length: 10 }, (_, i) => i * 50));
  });
});

describe('offset and cursor listings: the first page, and cursors that end', () => {
  it('an empty first page with a total is incomplete after that one request', async () => {
    answer = () => ({ dataSources: [], _metaData: { totalCount: 105 } });
    const error = await rejection(allPages(client().listDatasets()));
    expect(error.message).toMatch(/the listing is incomplete: an empty page at offset=0 of 105$/);
    expect(asked).toHaveLength(1);
  });

  it('an empty first page is that, whatever total it names: no pages planned from it', async () => {
    const total = MAX_PAGES * 50 + 1;
    answer = () => ({ dataSources: [], _metaData: { totalCount: total } });
    const error = await rejection(allPages(client().listDatasets()));
    expect(error.message).toMatch(new RegExp(`the listing is incomplete: an empty page at offset=0 of ${total}$`));
    expect(asked).toHaveLength(1);
  });

  it('a file set page without its items names every key it looked for', async () => {
    answer = () => ({ pageContext: { total: 1 } });
    const error = await rejection(allPages(client().searchFilesets()));
    expect(error).toMatchObject({ kind: 'drift', field: 'fileSets or filesets' });
  });

  it('a cursor page whose pageContext is null, or holds no next, ends the listing', async () => {
    const file = (id: string) => ({ id, path: `/${id}` });
    for (const pageContext of [null, {}]) {
      asked = [];
      answer = () => ({ files: [file('a')], pageContext });
      expect((await allPages(client().searchFilesetFiles('fs-1'))).map((p) => p.length)).toEqual([1]);
      expect(asked).toHaveLength(1);
    }
  });
});

describe('the page cap (MAX_PAGES), at its edge', () => {
  it('a total needing exactly MAX_PAGES pages is read whole', async () => {
    answer = (r) => {
      const offset = offsetOf(r);
      return { dataSources: [{ id: `d${offset}`, name: 'd' }, ...range(`e${offset}-`, 0, 49).map((id) => ({ id, name: 'd' }))], _metaData: { totalCount: MAX_PAGES * 50 } };
    };
    let items = 0;
    for await (const page of client().listDatasets()) items += page.length;
    expect(items).toBe(MAX_PAGES * 50);
    expect(asked).toHaveLength(MAX_PAGES);
  }, 60_000);

  it('an offset listing without a total that never ends is incomplete after exactly MAX_PAGES requests', async () => {
    answer = (r) => Array.from({ length: 100 }, (_, i) => ({ groupId: offsetOf(r) + i, name: 'g', owners: [], memberCount: 0 }));
    const error = await rejection(allPages(client().listGroups()));
    expect(error.message).toMatch(new RegExp(`the listing is incomplete: more than ${MAX_PAGES} pages$`));
    expect(asked).toHaveLength(MAX_PAGES);
  }, 60_000);

  it('a cursor listing handing out a new cursor forever is incomplete after exactly MAX_PAGES requests', async () => {
    answer = (r) => {
      const n = Number(r.query.get('next') ?? 0);
      return { files: [{ id: `f${n}`, path: `/f${n}` }], pageContext: { next: String(n + 1) } };
    };
    const error = await rejection(allPages(client().searchFilesetFiles('fs-1')));
    expect(error.message).toMatch(new RegExp(`the listing is incomplete: more than ${MAX_PAGES} pages$`));
    expect(asked).toHaveLength(MAX_PAGES);
  }, 60_000);
});
