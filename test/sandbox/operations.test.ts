// Each of the 12 operations answers as api-spec.md says; auth and 404s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SANDBOX_WORKFLOW_ITEM_FIELDS, startSandbox } from '../../src/sandbox/index.js';
import { call, workflows } from './helpers.js';

const FILESET = '3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77';
let s: Sandbox;

beforeAll(async () => {
  s = await startSandbox({ token: 'dev-token-1', workflowToken: 'wf-token-1' });
});
afterAll(() => s.close());

describe('the 12 operations', () => {
  it('1 lists every schedule with the documented fields', async () => {
    const res = await call(s, 'GET', '/api/content/v1/reportschedules?filter=ALL');
    expect(res.status).toBe(200);
    const rows = res.json<Array<Record<string, unknown>>>();
    expect(rows).toHaveLength(46); // 40 filler + 6 planted
    const s9004 = rows.find((r) => r.id === 9004)!;
    expect(Object.keys(s9004)).toEqual(
      expect.arrayContaining(['id', 'reportViewId', 'pageId', 'title', 'viewName', 'type', 'ownerId', 'embedViewId']),
    );
    expect(s9004).toMatchObject({ type: 'RECURRING', owner: true, cardCount: 1, recipientCount: 4, cardId: 7002 });
    // As captured on the platform: dates inside `schedule`, in epoch milliseconds.
    expect(s9004.schedule).toEqual({
      frequency: 'DAILY',
      daysToRun: '*',
      hourOfDay: 8,
      minOfHour: 0,
      timezone: 'Mars/Olympus',
      enabled: true,
      startDate: Date.UTC(2025, 2, 1, 8),
      nextRunDate: Date.UTC(2026, 6, 1, 8),
      ownerId: 101,
      additionalRecipients: [],
      unsubscribedRecipients: [],
    });
    // A schedule without a view, as captured: viewName and embedViewId null, pageId 0.
    expect(rows.find((r) => r.id === 9001)).toMatchObject({ viewName: null, embedViewId: null, pageId: 0, type: 'view' });
  });

  it('2 lists the misconfigured reports', async () => {
    const res = await call(s, 'GET', '/api/content/v1/reportschedules/misconfigured');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([
      { id: 9001, title: 'Board KPI Pack', schedule: { frequency: 'MONTHLY', enabled: true }, active: true },
      { id: 9002, title: 'Regional Revenue Digest', schedule: { frequency: 'WEEKLY', enabled: true }, active: true },
      { id: 9003, title: 'Churn Watchlist', schedule: { frequency: 'MONTHLY', enabled: false }, active: false },
    ]);
  });

  it('3 replaces a dataset\'s tags and answers {}', async () => {
    const res = await call(s, 'POST', '/api/data/ui/v3/datasources/ds-scratch/tags', { body: ['scratch'] });
    expect([res.status, res.text]).toEqual([200, '{}']);
    expect(s.state.datasetTags.get('ds-scratch')).toEqual(['scratch']);
  });

  it('4 replaces queue permissions with an empty 200', async () => {
    const body = [{ id: 'g-40', name: 'Marketing Ops', type: 'GROUP', permissions: ['ADMIN'] }];
    const res = await call(s, 'POST', '/api/queues/v1/q-marketing/permissions', { body });
    expect([res.status, res.text]).toEqual([200, '']);
  });

  it('5 replaces data-file permissions and answers {}', async () => {
    const res = await call(s, 'PUT', '/api/data/v1/data-files/44/permissions', {
      body: { publicAccess: false, entries: [] },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({});
  });

  it('6 reads a dataset access list', async () => {
    const res = await call(s, 'GET', '/api/data/v3/datasources/ds-sales-certified/permissions');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      list: [
        { type: 'USER', id: '7', name: 'Ana Ruiz', accessLevel: 'OWNER' },
        { type: 'GROUP', id: '304', name: 'Sales Analysts', accessLevel: 'CAN_VIEW' },
      ],
      totalUserCount: 1,
      totalGroupCount: 1,
    });
  });

  it('7 reads calculated-field statistics (all integers, planted invalid counts)', async () => {
    const stats = (await call(s, 'GET', '/api/query/v1/functions/statistics')).json<Record<string, number>>();
    const fields = ['total', 'onDatasets', 'onCards', 'inVisualizations', 'locked', 'invalid', 'invalidLink', 'archived'];
    expect(Object.keys(stats).sort()).toEqual([...fields].sort());
    for (const f of fields) expect(Number.isInteger(stats[f])).toBe(true);
    expect([stats.invalid, stats.invalidLink, stats.total]).toEqual([3, 1, stats.onDatasets + stats.onCards]);
  });

  it('8 reads file metadata by path (query parameter `path`)', async () => {
    const res = await call(s, 'GET', `/api/files/v1/filesets/${FILESET}/path?path=${encodeURIComponent('/raw/legacy.csv')}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      id: 'a1b2c3d4-0003-4e00-8000-000000000003',
      path: '/raw/legacy.csv',
      name: 'legacy.csv',
      fileType: 'TEXT',
      contentType: 'text/csv',
      size: 61_440,
      created: '2025-02-10T12:00:00.000Z',
      createdBy: 7,
      hash: '9e107d9d372bb6826bd81d3542a419d6',
      hashAlgorithm: 'MD5',
      downloadUrl: null,
      connectorKey: null,
      indexStatus: null,
      indexReason: null,
    });
    const q1 = await call(s, 'GET', `/api/files/v1/filesets/${FILESET}/path?path=/reports/q1.csv`);
    expect(q1.json()).toMatchObject({ hashAlgorithm: 'SHA_256_HEX', indexStatus: 'QUEUED' });
  });

  it('9 records an index request with an empty 200', async () => {
    const res = await call(s, 'POST', '/api/query/v1/datasources/ds-0003');
    expect([res.status, res.text]).toEqual([200, '']);
    expect(s.state.indexRequests).toEqual(['ds-0003']);
  });

  it('10 duplicates a data file into a new id, answering every documented field', async () => {
    const res = await call(s, 'POST', '/api/data/v1/data-files/42/duplicate');
    expect(res.status).toBe(200);
    const file = res.json<Record<string, unknown>>();
    const revisionFields = [
      'dataFileRevisionId', 'dataFileId', 'contentType', 'uploadUserId', 'sizeBytes',
      'uploadTimeMillis', 'md5Hash', 'datetimeUploaded', 'scanState', 'sha256HashValue',
    ];
    expect(Object.keys(file).sort()).toEqual(
      ['dataFileId', 'name', 'responsibleUserId', 'currentRevision', 'datetimeCreated', 'revisions', 'existing'].sort(),
    );
    expect(Object.keys(file.currentRevision as object).sort()).toEqual([...revisionFields].sort());
    expect(file.dataFileId).toBe(1006); // filler 1001..1005, so the next free id
    expect(file.revisions).toEqual([file.currentRevision]);
    expect(s.state.dataFiles.has('1006')).toBe(true);
  });

  it('11 reads certification of cards and datasets; unknown entity is a 404', async () => {
    const card = await call(s, 'GET', '/api/tags/v3/CARD/7001/system/CERTIFIED/state');
    expect(card.json()).toMatchObject({ tag: 'CERTIFIED', state: 'EXPIRED' });
    const scratch = await call(s, 'GET', '/api/tags/v3/DATA_SOURCE/ds-scratch/system/CERTIFIED/state');
    expect(scratch.json()).toEqual({ tag: 'CERTIFIED', state: null, metadata: null, updated: null });
    const unknown = await call(s, 'GET', '/api/tags/v3/CARD/424242/system/CERTIFIED/state');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ status: 404, statusReason: 'Not Found', toe: expect.stringMatching(/^SBX/) });
    const badType = await call(s, 'GET', '/api/tags/v3/PAGE/1/system/CERTIFIED/state');
    expect(badType.status).toBe(400);
  });

  it('12 lists workflows with the bearer token', async () => {
    const res = await workflows(s, 'Bearer wf-token-1');
    expect(res.status).toBe(200);
    const list = res.json<Array<Record<string, unknown>>>();
    expect(list).toHaveLength(6);
    for (const w of list) expect(Object.keys(w).sort()).toEqual([...SANDBOX_WORKFLOW_ITEM_FIELDS].sort());
    expect(list.find((w) => w.id === 'wf-unnamed')!.name).toBe('');
  });
});

describe('auth', () => {
  it('401 without or with a wrong developer token, never echoing it', async () => {
    const none = await call(s, 'GET', '/api/query/v1/functions/statistics', { token: null });
    const wrong = await call(s, 'GET', '/api/query/v1/functions/statistics', { token: 'guess' });
    expect([none.status, wrong.status]).toEqual([401, 401]);
    expect(none.json<{ message: string }>().message).toMatch(/X-SERVICE-Developer-Token/);
    expect(wrong.json()).toEqual({ message: 'Invalid developer token' });
  });

  it('workflows: 401 missing, wrong, or the developer header; the dev token is not a bearer here', async () => {
    expect((await workflows(s)).status).toBe(401);
    expect((await workflows(s, 'Bearer nope')).status).toBe(401);
    expect((await workflows(s, 'wf-token-1')).status).toBe(401);
    expect((await workflows(s, 'Bearer dev-token-1')).status).toBe(401);
    const devHeader = await call(s, 'GET', '/workflow/v1/workflows');
    expect(devHeader.status).toBe(401);
    expect(devHeader.json<{ message: string }>().message).toBeTypeOf('string');
  });

  it('workflows: 403 when the token lacks the grant, switched at run time', async () => {
    s.configure({ workflowGrant: false });
    const res = await workflows(s, 'Bearer wf-token-1');
    s.configure({ workflowGrant: true });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ message: "The token's user lacks the Workflow API grant" });
    expect((await workflows(s, 'Bearer wf-token-1')).status).toBe(200);
  });
});

describe('unknown ids and routes', () => {
  it.each([
    ['GET', '/api/data/v3/datasources/ds-nope/permissions'],
    ['GET', '/api/tags/v3/DATA_SOURCE/ds-nope/system/CERTIFIED/state'],
    ['GET', `/api/files/v1/filesets/${FILESET}/path?path=/nope.csv`],
    ['GET', '/api/files/v1/filesets/00000000-0000-4000-8000-000000000000/path?path=/a.csv'],
    ['POST', '/api/queues/v1/q-nope/permissions'],
    ['PUT', '/api/data/v1/data-files/999999/permissions'],
    ['POST', '/api/data/v1/data-files/999999/duplicate'],
    ['POST', '/api/query/v1/datasources/ds-nope'],
    ['POST', '/api/data/ui/v3/datasources/ds-nope/tags'],
  ])('%s %s → 404 as the instance host answers it: {status, statusReason, toe}, no message', async (method, path) => {
    const res = await call(s, method, path, { body: method === 'GET' ? undefined : [] });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ status: 404, statusReason: 'Not Found', toe: expect.stringMatching(/^SBX/) });
  });

  it('unknown workflow id → 404 {message}', async () => {
    const res = await fetch(`${s.workflowUrl}/v1/workflows/wf-nope`, { headers: { Authorization: 'Bearer wf-token-1' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Workflow wf-nope not found or not visible' });
  });

  it('an unknown route is a 404 counted under no operation; a wrong method is a 405', async () => {
    s.resetCounts();
    const res = await call(s, 'GET', '/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ status: 404, statusReason: 'Not Found', toe: expect.stringMatching(/^SBX/) });
    const wrong = await call(s, 'DELETE', '/api/query/v1/functions/statistics');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET']);
    expect(s.totalRequests()).toBe(0);
  });
});
