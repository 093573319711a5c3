// replayApi on snapshots written by hand: a recorded error replays as that error (its kind,
// status, the platform's message, method and path), after the pages recorded before it; a single
// answer is checked against its schema once and is the same object at every read; a paged answer
// is checked page by page; every write, and a raw request, is refused as read-only.
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/api/errors.js';
import { replayApi } from '../../src/api/snapshot-replay.js';
import type { RecordedAnswer, SnapshotFile } from '../../src/api/snapshot-format.js';

const STATS = { total: 3, onDatasets: 1, onCards: 1, inVisualizations: 1, locked: 0, invalid: 0, invalidLink: 0, archived: 0 };
const snapshot = (answers: RecordedAnswer[]): SnapshotFile => ({ version: 2, instance: 'https://acme.example.com', recordedAt: '2026-03-02T09:15:00.000Z', answers });
const caught = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ApiError);
const fields = (e: ApiError | null) => e && { kind: e.kind, message: e.message, method: e.method, path: e.path, status: e.status, apiMessage: e.apiMessage, operation: e.operation };

describe('replayApi', () => {
  it("a single read's recorded error is that error, with every field it recorded and GET and no path where it did not", async () => {
    const api = replayApi(
      snapshot([
        {
          operation: 'getDatasetPermissions',
          args: ['ds-1'],
          error: { message: 'getDatasetPermissions: 403 Forbidden', kind: 'http', method: 'GET', path: '/api/data/v3/datasources/ds-1/permissions', status: 403, apiMessage: 'Not allowed' },
        },
        { operation: 'getDatasetPermissions', args: ['ds-2'], error: { message: 'timed out after 30 s' } },
      ]),
    );
    expect(fields(await caught(api.getDatasetPermissions('ds-1')))).toEqual({
      kind: 'http',
      message: 'getDatasetPermissions: 403 Forbidden',
      method: 'GET',
      path: '/api/data/v3/datasources/ds-1/permissions',
      status: 403,
      apiMessage: 'Not allowed',
      operation: 'getDatasetPermissions',
    });
    expect(fields(await caught(api.getDatasetPermissions('ds-2')))).toEqual({
      kind: 'http',
      message: 'getDatasetPermissions: timed out after 30 s',
      method: 'GET',
      path: '',
      status: undefined,
      apiMessage: undefined,
      operation: 'getDatasetPermissions',
    });
    expect(fields(await caught(api.getDatasetPermissions('ds-3')))).toMatchObject({ kind: 'config', message: 'getDatasetPermissions: not in snapshot (arguments ["ds-3"])', method: 'GET', path: '' });
  });

  it('a listing yields the pages recorded before its error, then throws it: never a shorter listing that passes', async () => {
    const api = replayApi(snapshot([{ operation: 'getMisconfiguredReports', args: [], pages: [[{ id: 1 }], [{ id: 2 }]], error: { message: 'getMisconfiguredReports: 503 Service Unavailable', kind: 'http', status: 503 } }]));
    const pages: unknown[] = [];
    const error = await caught(
      (async () => {
        for await (const page of api.getMisconfiguredReports()) pages.push(page);
      })(),
    );
    expect(pages).toEqual([[{ id: 1 }], [{ id: 2 }]]);
    expect(fields(error)).toMatchObject({ kind: 'http', status: 503, message: 'getMisconfiguredReports: 503 Service Unavailable' });
  });

  it('a single answer is checked once and is the same object at every read; one of the wrong shape is drift of that read', async () => {
    const api = replayApi(snapshot([{ operation: 'getCalculatedFieldStatistics', args: [], value: STATS }]));
    const first = await api.getCalculatedFieldStatistics();
    expect(first).toEqual(STATS);
    expect(await api.getCalculatedFieldStatistics()).toBe(first);
    const bad = replayApi(snapshot([{ operation: 'getCalculatedFieldStatistics', args: [], value: { ...STATS, total: 'three' } }]));
    expect(fields(await caught(bad.getCalculatedFieldStatistics()))).toMatchObject({ kind: 'drift', operation: 'getCalculatedFieldStatistics' });
    const scalar = replayApi(snapshot([{ operation: 'getCalculatedFieldStatistics', args: [], value: 3 }]));
    expect(fields(await caught(scalar.getCalculatedFieldStatistics()))).toMatchObject({ kind: 'drift' });
    // Checked at each read: a second read of a bad answer is refused again, never passed.
    expect(fields(await caught(scalar.getCalculatedFieldStatistics()))).toMatchObject({ kind: 'drift' });
  });

  it('a page of the wrong shape is drift of that listing, after the pages before it', async () => {
    const api = replayApi(snapshot([{ operation: 'getMisconfiguredReports', args: [], pages: [[{ id: 1 }], [{ id: 'two' }]] }]));
    const pages: unknown[] = [];
    const error = await caught(
      (async () => {
        for await (const page of api.getMisconfiguredReports()) pages.push(page);
      })(),
    );
    expect(pages).toEqual([[{ id: 1 }]]);
    expect(fields(error)).toMatchObject({ kind: 'drift', operation: 'getMisconfiguredReports' });
  });

  /** The pages a replayed listing yields before it throws, and what it throws. */
  async function listed(pages: AsyncIterable<unknown[]>) {
    const got: unknown[] = [];
    const error = await caught(
      (async () => {
        for await (const page of pages) got.push(page);
      })(),
    );
    return { pages: got, error: fields(error) };
  }

  it("a keyed listing's page is checked as the answer it came from, and a bare array listing's page as an array of its items", async () => {
    // listDatasets answers { dataSources: [...] }: its pages are recorded as their items.
    const datasets = replayApi(snapshot([{ operation: 'listDatasets', args: [], pages: [[{ id: 'ds-1', name: 'Sales' }], [{ id: 'ds-2' }, { id: 7 }]] }]));
    const d = await listed(datasets.listDatasets() as AsyncIterable<unknown[]>);
    expect(d.pages).toEqual([[{ id: 'ds-1', name: 'Sales' }]]);
    expect(d.error).toMatchObject({ kind: 'drift', operation: 'listDatasets', message: expect.stringMatching(/^listDatasets: API drift at dataSources\[1\]\.id: .*\(replayed from the snapshot\)$/) });
    // listGroups answers a bare array of groups.
    const groups = replayApi(snapshot([{ operation: 'listGroups', args: [], pages: [[{ groupId: 301, name: 'Finance' }], [{ groupId: 'g-302' }]] }]));
    const g = await listed(groups.listGroups() as AsyncIterable<unknown[]>);
    expect(g.pages).toEqual([[{ groupId: 301, name: 'Finance' }]]);
    expect(g.error).toMatchObject({ kind: 'drift', operation: 'listGroups', message: expect.stringMatching(/^listGroups: API drift at \[0\]\.groupId: /) });
    const notAList = replayApi(snapshot([{ operation: 'listGroups', args: [], pages: [{ groupId: 301 } as unknown as unknown[]] }]));
    expect((await listed(notAList.listGroups() as AsyncIterable<unknown[]>)).error).toMatchObject({ kind: 'drift', operation: 'listGroups' });
  });

  it('every write and a raw request are refused as read-only, naming their method; nothing is counted', async () => {
    const api = replayApi(snapshot([]));
    expect(fields(await caught(api.updateFilePermissions('f-1', [])))).toMatchObject({ kind: 'config', method: 'PUT', message: 'updateFilePermissions: refused: a snapshot replay is read-only' });
    expect(fields(await caught(api.send({ operation: 'indexDataset', method: 'POST' } as Parameters<typeof api.send>[0])))).toMatchObject({ kind: 'config', method: 'POST', message: 'indexDataset: refused: a snapshot replay is read-only' });
    expect(api.stats()).toEqual({ requests: 0, retries: 0, failed: 0 });
  });
});
