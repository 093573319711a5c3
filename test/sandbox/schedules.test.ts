// Query parameters of the two list endpoints: filter, title, limit/skip, orderBy, isAscending,
// the broken-server ignoreSkip switch and the misconfigured 403/409 switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MisconfiguredReport, ReportSchedule } from '../../src/api/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

const LIST = '/api/content/v1/reportschedules';
const MISCONFIGURED = '/api/content/v1/reportschedules/misconfigured';
let s: Sandbox;

beforeAll(async () => {
  s = await startSandbox({ seed: 7 });
});
afterAll(() => s.close());

async function list(query: string): Promise<ReportSchedule[]> {
  const res = await call(s, 'GET', `${LIST}?${query}`);
  expect(res.status).toBe(200);
  return res.json<ReportSchedule[]>();
}

/** Titles compare as text; startDate (epoch ms inside `schedule`) as a number. */
function byKey(key: 'title' | 'startDate', ascending = true) {
  const value = (r: ReportSchedule) => (key === 'title' ? String(r.title) : Number(r.schedule.startDate));
  return (a: ReportSchedule, b: ReportSchedule): number => {
    const ka = value(a);
    const kb = value(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return ascending ? c : -c;
  };
}

describe('list report schedules', () => {
  it('pages by limit/skip in orderBy order, ties by id, without repeats or gaps', async () => {
    const expected = [...s.state.schedules].sort(byKey('title')).map((r) => r.id);
    const seen: number[] = [];
    for (let skip = 0; ; skip += 10) {
      const page = await list(`filter=ALL&orderBy=title&isAscending=true&limit=10&skip=${skip}`);
      seen.push(...page.map((r) => r.id));
      if (page.length < 10) break;
    }
    expect(seen).toEqual(expected);
  });

  it('sorts descending and by startDate (epoch ms inside schedule)', async () => {
    const desc = await list('filter=ALL&orderBy=startDate&isAscending=false');
    expect(desc.map((r) => r.id)).toEqual([...s.state.schedules].sort(byKey('startDate', false)).map((r) => r.id));
  });

  it('without limit answers every row', async () => {
    expect(await list('filter=ALL&orderBy=title')).toHaveLength(s.state.schedules.length);
  });

  it('filters by owner, recipient (every third id) and title substring', async () => {
    const owned = await list('filter=OWNER');
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.map((r) => r.id)).toEqual(s.state.schedules.filter((r) => r.owner).map((r) => r.id));
    const received = await list('filter=RECIPIENT');
    expect(received.every((r) => r.id % 3 === 0)).toBe(true);
    const user = await list('filter=USER');
    expect(user).toHaveLength(s.state.schedules.filter((r) => r.owner || r.id % 3 === 0).length);
    expect((await list('title=BOARD kpi')).map((r) => r.id)).toEqual([9001]);
  });

  it.each([
    ['orderBy=createdAt', 'Invalid orderBy "createdAt": one of startDate, nextRunDate, title'],
    ['filter=EVERYONE', 'Invalid filter "EVERYONE": one of USER, RECIPIENT, OWNER, ALL'],
    ['limit=-1', 'Query parameter limit must be a non-negative integer, got "-1"'],
    ['skip=x', 'Query parameter skip must be a non-negative integer, got "x"'],
    ['isAscending=yes', 'Invalid isAscending "yes": true or false'],
  ])('400 on %s', async (query, message) => {
    const res = await call(s, 'GET', `${LIST}?${query}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message });
  });
});

describe('misconfigured reports', () => {
  it('defaults to limit 100, skip 0', async () => {
    const extra: MisconfiguredReport[] = Array.from({ length: 147 }, (_, i) => ({
      id: 20_000 + i,
      title: `Extra ${i}`,
      schedule: { frequency: 'MONTHLY', enabled: true },
      active: true,
    }));
    s.state.misconfigured.push(...extra); // 150 in all
    try {
      const first = (await call(s, 'GET', MISCONFIGURED)).json<MisconfiguredReport[]>();
      expect(first.map((r) => r.id)).toEqual(s.state.misconfigured.slice(0, 100).map((r) => r.id));
      const rest = (await call(s, 'GET', `${MISCONFIGURED}?skip=100`)).json<MisconfiguredReport[]>();
      expect(rest).toHaveLength(50);
      const small = (await call(s, 'GET', `${MISCONFIGURED}?limit=2&skip=1`)).json<MisconfiguredReport[]>();
      expect(small.map((r) => r.id)).toEqual([9002, 9003]);
    } finally {
      s.state.misconfigured.splice(3);
    }
  });

  it.each([403, 409] as const)('answers %i when switched, with the platform error fields', async (status) => {
    s.configure({ misconfiguredStatus: status });
    const res = await call(s, 'GET', MISCONFIGURED);
    s.configure({ misconfiguredStatus: 200 });
    expect(res.status).toBe(status);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status, statusReason: status === 403 ? 'Forbidden' : 'Conflict' });
    // The instance host's error body carries no message.
    expect(body).not.toHaveProperty('message');
    expect((await call(s, 'GET', MISCONFIGURED)).status).toBe(200);
  });
});

describe('ignoreSkip (a broken server)', () => {
  it('both list endpoints answer the first page whatever skip says', async () => {
    s.configure({ ignoreSkip: true });
    try {
      const first = await list('orderBy=title&limit=5&skip=0');
      expect(await list('orderBy=title&limit=5&skip=5')).toEqual(first);
      const m0 = (await call(s, 'GET', `${MISCONFIGURED}?limit=1&skip=0`)).json();
      expect((await call(s, 'GET', `${MISCONFIGURED}?limit=1&skip=2`)).json()).toEqual(m0);
    } finally {
      s.configure({ ignoreSkip: false });
    }
  });
});

describe('a large instance', () => {
  it('1,050 filler schedules page as 11 pages of 100 (plus the 6 planted)', async () => {
    const big = await startSandbox({ size: { schedules: 1050 } });
    try {
      const ids = new Set<number>();
      let pages = 0;
      for (let skip = 0; ; skip += 100) {
        const res = await call(big, 'GET', `${LIST}?filter=ALL&orderBy=nextRunDate&limit=100&skip=${skip}`);
        const page = res.json<ReportSchedule[]>();
        pages += 1;
        for (const r of page) ids.add(r.id);
        if (page.length < 100) break;
      }
      expect([pages, ids.size, big.counts.listReportSchedules]).toEqual([11, 1056, 11]);
    } finally {
      await big.close();
    }
  });
});
