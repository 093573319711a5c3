// The reportSchedule kind over the sandbox: the join with the misconfigured list, and the
// cross-check that catches a schedule list cut short (a server capping pages below our limit).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import { parseSnapshot, replayApi } from '../../../src/api/snapshot.js';
import { allSchedules, orphanMessage, reportSchedule } from '../../../src/resources/kinds/reportSchedule.js';
import { collectAll } from '../../../src/resources/common.js';
import { emptyScope } from '../../../src/resources/index.js';
import type { CollectedResource, CollectContext } from '../../../src/resources/types.js';
import { createRunMemo } from '../../../src/engine/memo.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(() => s.close());
beforeEach(() => s.resetCounts());

function context(pageSize: number): CollectContext {
  const api = createClient({ baseUrl: s.baseUrl, token: s.token, pageSize, retryBaseDelayMs: 1 });
  // The run memo the engine passes: the schedule list is read once a run through it (the client
  // keeps no limit/skip page).
  return { api, scope: emptyScope(), manifestFiles: { queues: [], dataFiles: [] }, displayRoot: '.', once: createRunMemo().once };
}

async function collected(ctx: CollectContext): Promise<CollectedResource[]> {
  return collectAll(reportSchedule, ctx);
}

describe('reportSchedule', () => {
  it('joins every schedule with the misconfigured list', async () => {
    const ctx = context(100);
    const all = await collected(ctx);
    expect(all).toHaveLength(s.state.schedules.length);
    const flags = await Promise.all(all.map((r) => reportSchedule.parts.misconfigured.load(ctx.api, r, ctx.once)));
    expect(all.filter((_, i) => flags[i]).map((r) => r.id).sort()).toEqual(['9001', '9002', '9003']);
    // Through the run memo both lists are read once for every schedule.
    expect(s.counts.listReportSchedules).toBe(1);
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });

  it('a server that caps pages below the page size truncates the list: the misconfigured parts\' check refuses the join', async () => {
    // The server answers limit=20 with 10 schedules: a short page, so the client stops there.
    const capped = s.state.schedules.filter((x) => x.id > 9006).slice(0, 10);
    s.scriptFault('listReportSchedules', { status: 200, body: JSON.stringify(capped) });
    const ctx = context(20);
    const all = await collected(ctx);
    expect(all.map((r) => r.id)).toEqual(capped.map((x) => String(x.id)));
    expect(s.counts.listReportSchedules).toBe(1);
    // A part's value comes from the misconfigured list alone; its check, once the list is read, refuses the join.
    expect(await reportSchedule.parts.misconfigured.load(ctx.api, all[0], ctx.once)).toBe(false);
    await expect(reportSchedule.parts.misconfigured.verify!(ctx.api, ctx.once)).rejects.toThrow(
      'misconfigured reports 9001, 9002, 9003 are not in the schedule list: the list is incomplete (listing with filter=ALL needs an admin token)',
    );
    await expect(reportSchedule.parts.misconfiguration.verify!(ctx.api, ctx.once)).rejects.toThrow(/^misconfigured reports 9001/);
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });

  it('a run without cards judges the list page by page, the misconfigured join on ids alone: asked for whole after that, it fails closed', async () => {
    for (const parts of [new Set<string>(), new Set(['misconfigured'])]) {
      const streamed: CollectContext = { ...context(100), reads: { parts, kinds: new Set(['reportSchedule']) } };
      const all = await collected(streamed);
      expect(all).toHaveLength(s.state.schedules.length);
      // The join needs only every schedule's id, kept as the pages went when a join part is read;
      // otherwise not even those, and a check asking for them fails closed.
      expect(await reportSchedule.parts.misconfigured.load(streamed.api, all.find((r) => r.id === '9001')!, streamed.once)).toBe(true);
      if (parts.size > 0) await expect(reportSchedule.parts.misconfigured.verify!(streamed.api, streamed.once)).resolves.toBeUndefined();
      else await expect(reportSchedule.parts.misconfigured.verify!(streamed.api, streamed.once)).rejects.toThrow('internal: the schedule ids were not kept, yet the misconfigured join asked for them');
      await expect(allSchedules(streamed)).rejects.toThrow('internal: the schedule list was judged page by page and not kept, yet a join asked for it whole');
      await expect(collected(streamed)).rejects.toThrow('internal: the schedule list was judged page by page once this run and not kept');
    }
    // Cards collected beside: the list is kept whole for their join.
    const kept: CollectContext = { ...context(100), reads: { parts: new Set<string>(), kinds: new Set(['reportSchedule', 'card']) } };
    const all = await collected(kept);
    expect(await allSchedules(kept)).toHaveLength(all.length);
  });

  it('read page by page from a replay (every answer at once), the listing stays one page ahead of the kind', async () => {
    // A snapshot of 20 pages of 5 schedules, replayed: the listing would otherwise read every
    // page (and hold its objects) before the kind judged the first.
    const pages = Array.from({ length: 20 }, (_, p) => s.state.schedules.slice(0, 5).map((x, i) => ({ ...x, id: 100_000 + p * 5 + i })));
    const lines = [
      JSON.stringify({ version: 2, instance: 'https://x.example', recordedAt: '2026-11-26T00:00:00.000Z' }),
      ...pages.map((page) => JSON.stringify({ operation: 'listReportSchedules', args: [{ filter: 'ALL' }], page })),
      JSON.stringify({ operation: 'listReportSchedules', args: [{ filter: 'ALL' }], pages: 20 }),
    ];
    const replay = replayApi(parseSnapshot(`${lines.join('\n')}\n`, 'snap.jsonl'));
    let pulled = 0;
    const api = {
      ...replay,
      listReportSchedules: (...args: Parameters<typeof replay.listReportSchedules>) => ({
        async *[Symbol.asyncIterator]() {
          for await (const page of replay.listReportSchedules(...args)) {
            pulled++;
            yield page;
          }
        },
      }),
    };
    const ctx: CollectContext = { ...context(5), api, reads: { parts: new Set(['misconfigured']), kinds: new Set(['reportSchedule']) } };
    const ahead: number[] = [];
    let n = 0;
    for await (const got of reportSchedule.collect(ctx)) {
      ahead.push(pulled - ahead.length);
      n += (got as readonly CollectedResource[]).length;
    }
    expect(n).toBe(100);
    expect(ahead).toHaveLength(20);
    // Pages read but not yet handed to the kind, as each page is handed over: the page in hand and one more.
    expect(Math.max(...ahead)).toBe(2);
  });

  it('names at most five orphan ids', () => {
    expect(orphanMessage([1])).toBe(
      'misconfigured report 1 is not in the schedule list: the list is incomplete (listing with filter=ALL needs an admin token)',
    );
    expect(orphanMessage([1, 2, 3, 4, 5, 6, 7])).toMatch(/^misconfigured reports 1, 2, 3, 4, 5 and 2 more are not in the schedule list: /);
  });

  it('yields the first page before the listing has read its last, and shares the one listing with the join', async () => {
    const big = await startSandbox({ size: { schedules: 1000, datasets: 0, cards: 0 }, faults: { latencyMs: 5 } });
    try {
      const api = createClient({ baseUrl: big.baseUrl, token: big.token, pageSize: 100 });
      const ctx: CollectContext = { api, scope: emptyScope(), manifestFiles: { queues: [], dataFiles: [] }, displayRoot: '.', once: createRunMemo().once };
      let pagesAtFirst = -1;
      let n = 0;
      let yields = 0;
      for await (const got of reportSchedule.collect(ctx)) {
        if (yields++ === 0) pagesAtFirst = big.counts.listReportSchedules;
        // A page at a time: no promise per schedule.
        expect(Array.isArray(got)).toBe(true);
        for (const r of got as readonly CollectedResource[]) {
          expect(r.kind).toBe('reportSchedule');
          n++;
        }
      }
      expect(n).toBe(big.state.schedules.length);
      expect(yields).toBe(Math.ceil(n / 100));
      expect(pagesAtFirst).toBeGreaterThanOrEqual(1);
      expect(pagesAtFirst).toBeLessThan(11);
      const listed = big.counts.listReportSchedules;
      // The join reads the same listing through the run memo: no second listing.
      const first = [...big.state.misconfigured][0];
      const flag = await reportSchedule.parts.misconfigured.load(api, { kind: 'reportSchedule', id: String(first.id), name: null, doc: { id: first.id }, source: null }, ctx.once);
      expect(flag).toBe(true);
      expect(big.counts.listReportSchedules).toBe(listed);
    } finally {
      await big.close();
    }
  });
});
