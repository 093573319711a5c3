// limit/skip endpoints read as pages: page counts from sandbox.counts, the query each page
// sends, the stop on a short page, and a server that ignores skip.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allPages, clientFor, rejection } from './helpers.js';

let s: Sandbox;
let full: Sandbox['state']['schedules'] = [];
beforeAll(async () => {
  s = await startSandbox({ seed: 9, size: { schedules: 1050 } });
  s.state.schedules.splice(1050);
  full = [...s.state.schedules];
});
afterAll(() => s.close());
beforeEach(() => {
  s.resetCounts();
  s.configure({ ignoreSkip: false });
});

describe('report schedules', () => {
  it('1,050 schedules at pageSize 100 are exactly 11 pages, read one after another at concurrency 1', async () => {
    expect(s.state.schedules).toHaveLength(1050);
    const { client, log } = clientFor(s, { pageSize: 100, concurrency: 1 });
    const pages = await allPages(client.listReportSchedules());
    expect(pages.map((p) => p.length)).toEqual([...Array(10).fill(100), 50]);
    expect(new Set(pages.flat().map((r) => r.id)).size).toBe(1050);
    expect(s.counts.listReportSchedules).toBe(11);
    expect(log.map((e) => new URL(e.url).searchParams.get('skip'))).toEqual(
      Array.from({ length: 11 }, (_, i) => String(i * 100)),
    );
  });

  it('at concurrency 8 a long list is read ahead (from the third full page: 2, 4, then 8 pages): 7 requests past the short page, never more', async () => {
    const { client, log } = clientFor(s, { pageSize: 100, concurrency: 8 });
    const pages = await allPages(client.listReportSchedules());
    expect(pages.map((p) => p.length)).toEqual([...Array(10).fill(100), 50]);
    expect(new Set(pages.flat().map((r) => r.id)).size).toBe(1050);
    // 11 pages are the minimum; the window reaches 8 at the fifth page, so the short page 10 was
    // requested along with pages 11–17 (the concurrency less one), whose empty answers are ignored;
    // the listing ends once they have settled, so each is in the log.
    expect(s.counts.listReportSchedules).toBe(11 + 7);
    expect(log.map((e) => Number(new URL(e.url).searchParams.get('skip'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 18 }, (_, i) => i * 100));
  });

  it('a list of one short page costs one request whatever the concurrency', async () => {
    s.state.schedules.splice(40);
    try {
      const { client } = clientFor(s, { pageSize: 100, concurrency: 8 });
      expect((await allPages(client.listReportSchedules())).map((p) => p.length)).toEqual([40]);
      expect(s.counts.listReportSchedules).toBe(1);
    } finally {
      s.state.schedules.splice(0, Infinity, ...full);
    }
  });

  it('a full last page costs one more request, which yields no page', async () => {
    const { client } = clientFor(s, { pageSize: 350, concurrency: 1 });
    const pages = await allPages(client.listReportSchedules());
    expect(pages.map((p) => p.length)).toEqual([350, 350, 350]);
    expect(s.counts.listReportSchedules).toBe(4);
  });

  it('sends the caller’s filter, title, orderBy, direction and page size', async () => {
    const { client, log } = clientFor(s);
    await allPages(
      client.listReportSchedules({ filter: 'OWNER', title: 'Q1 & Q2', orderBy: 'nextRunDate', isAscending: false, pageSize: 2000 }),
    );
    expect(Object.fromEntries(new URL(log[0].url).searchParams)).toEqual({
      filter: 'OWNER',
      title: 'Q1 & Q2',
      orderBy: 'nextRunDate',
      isAscending: 'false',
      limit: '2000',
      skip: '0',
    });
    expect(s.counts.listReportSchedules).toBe(1);
  });

  it('refuses a page identical to the previous one (the server ignores skip)', async () => {
    s.configure({ ignoreSkip: true });
    const { client } = clientFor(s, { pageSize: 100 });
    const seen: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of client.listReportSchedules()) seen.push(page.length);
      })(),
    );
    expect(seen).toEqual([100]);
    expect(s.counts.listReportSchedules).toBe(2);
    expect(error).toMatchObject({ code: 'E_API', kind: 'pagination', operation: 'listReportSchedules' });
    expect(error.message).toBe(
      'listReportSchedules: [GET] "/api/content/v1/reportschedules?filter=ALL&orderBy=title&isAscending=true&limit=100&skip=100": the page at skip=100 is identical to the page at skip=0: the server ignores skip; refusing to read further',
    );
    expect(client.stats()).toEqual({ requests: 2, retries: 0, failed: 1 });
  });
});

describe('misconfigured reports', () => {
  it('pages with limit/skip and stops on the short page', async () => {
    const total = s.state.misconfigured.length;
    expect(total).toBeGreaterThan(2);
    const { client, log } = clientFor(s, { pageSize: 2 });
    const pages = await allPages(client.getMisconfiguredReports());
    expect(pages.flat()).toEqual(s.state.misconfigured);
    expect(s.counts.getMisconfiguredReports).toBe(Math.floor(total / 2) + 1);
    expect(new URL(log[1].url).search).toBe('?limit=2&skip=2');
  });

  it('a 403 is an ApiError, not an empty list', async () => {
    s.configure({ misconfiguredStatus: 403 });
    const { client } = clientFor(s);
    const error = await rejection(allPages(client.getMisconfiguredReports()));
    s.configure({ misconfiguredStatus: 200 });
    expect(error).toMatchObject({ kind: 'http', status: 403, attempts: 1 });
    expect(error.message).toMatch(/^getMisconfiguredReports: \[GET\] "\/api\/content\/v1\/reportschedules\/misconfigured\?limit=100&skip=0": 403 Forbidden/);
  });
});

describe('an offset listing read once a run (the user search)', () => {
  let people: Sandbox;
  beforeAll(async () => {
    people = await startSandbox({ seed: 9, size: { users: 1000 } });
  });
  afterAll(() => people.close());

  it('lets go of each page it handed on: a page the reader dropped is collected while the listing goes on', async () => {
    // A full collection on demand (the flag holds for contexts made after it is set).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { client } = clientFor(people, { concurrency: 8 });
    const handedOn: WeakRef<unknown[]>[] = [];
    const stillHeld: number[] = [];
    for await (const page of client.searchUsers()) {
      handedOn.push(new WeakRef(page));
      if (handedOn.length === 4) {
        gc();
        // Pages 2 and 3 were handed on and dropped (the first is the listing's total, kept).
        for (const i of [1, 2]) if (handedOn[i].deref() !== undefined) stillHeld.push(i + 1);
      }
    }
    expect(handedOn.length).toBeGreaterThanOrEqual(5);
    expect(stillHeld).toEqual([]);
    expect(people.counts.searchUsers).toBe(handedOn.length);
  });
});
