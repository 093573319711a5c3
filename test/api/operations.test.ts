// The 12 operations over real HTTP against the sandbox: paths, bodies, answers, state changes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetAccessList } from '../../src/api/types.js';
import { PLANTED_FILESET_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allPages, clientFor, rejection, TOKEN, WORKFLOW_TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ seed: 11, token: TOKEN, workflowToken: WORKFLOW_TOKEN });
});
afterAll(() => s.close());
beforeEach(() => s.resetCounts());

const access = (name: string): DatasetAccessList => ({
  list: [{ type: 'USER', id: '7', accessLevel: 'OWNER', name }],
  totalUserCount: 1,
  totalGroupCount: 0,
});

describe('reads', () => {
  it('listReportSchedules sends filter=ALL and orderBy=title, and returns every schedule', async () => {
    const { client, log } = clientFor(s);
    const pages = await allPages(client.listReportSchedules());
    const ids = pages.flat().map((r) => r.id);
    expect(ids).toHaveLength(s.state.schedules.length);
    expect(new Set(ids)).toEqual(new Set(s.state.schedules.map((r) => r.id)));
    expect(s.counts.listReportSchedules).toBe(1);
    const url = new URL(log[0].url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      filter: 'ALL',
      orderBy: 'title',
      isAscending: 'true',
      limit: '100',
      skip: '0',
    });
  });

  it('getMisconfiguredReports returns the misconfigured items', async () => {
    const { client } = clientFor(s);
    const pages = await allPages(client.getMisconfiguredReports());
    expect(pages.flat()).toEqual(s.state.misconfigured);
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });

  it('getDatasetPermissions returns the access list', async () => {
    const id = [...s.state.datasetAccess.keys()][0];
    const { client } = clientFor(s);
    expect(await client.getDatasetPermissions(id)).toEqual(s.state.datasetAccess.get(id));
    expect(s.counts.getDatasetPermissions).toBe(1);
  });

  it('getCalculatedFieldStatistics returns the statistics', async () => {
    const { client } = clientFor(s);
    expect(await client.getCalculatedFieldStatistics()).toEqual(s.state.calculatedFields);
    expect(s.counts.getCalculatedFieldStatistics).toBe(1);
  });

  it('getFileByPath sends the path as the `path` query parameter', async () => {
    const { client, log } = clientFor(s);
    const file = await client.getFileByPath(PLANTED_FILESET_ID, '/reports/q1.csv');
    expect(file).toEqual(s.state.filesets.get(PLANTED_FILESET_ID)?.get('/reports/q1.csv'));
    expect(new URL(log[0].url).searchParams.get('path')).toBe('/reports/q1.csv');
    expect(s.counts.getFileByPath).toBe(1);
  });

  it('getCertificationStatus reads cards and datasets; state null means never certified', async () => {
    const { client } = clientFor(s);
    const card = [...s.state.cards][0];
    const dataset = [...s.state.datasetAccess.keys()][0];
    expect(await client.getCertificationStatus('CARD', card)).toEqual(s.state.certifications.get(`CARD:${card}`));
    expect(await client.getCertificationStatus('DATA_SOURCE', dataset)).toEqual(
      s.state.certifications.get(`DATA_SOURCE:${dataset}`),
    );
    s.state.certifications.set('CARD:never', { tag: 'CERTIFIED', state: null, metadata: null, updated: null });
    s.state.cards.add('never');
    expect((await client.getCertificationStatus('CARD', 'never')).state).toBeNull();
    expect(s.counts.getCertificationStatus).toBe(3);
  });

  it('listWorkflows reads the workflow host with the workflow token', async () => {
    const { client, log } = clientFor(s);
    expect(await client.listWorkflows()).toEqual(s.state.workflows);
    expect(log[0].url).toBe(`${s.workflowUrl}/v1/workflows`);
    expect(s.counts.listWorkflows).toBe(1);
  });
});

describe('writes', () => {
  it('createDatasetTags posts the tag array', async () => {
    const id = [...s.state.datasetAccess.keys()][1];
    const before = s.state.datasetTags.get(id) ?? [];
    const { client } = clientFor(s);
    await client.createDatasetTags(id, ['pii', 'finance']);
    expect(s.state.datasetTags.get(id)).toEqual([...new Set([...before, 'pii', 'finance'])]);
    expect(s.counts.createDatasetTags).toBe(1);
  });

  it('updateQueuePermissions sets each entry\'s permissions and [] removes one; its empty 200 answer is success', async () => {
    const id = [...s.state.queuePermissions.keys()][0];
    const [first, ...rest] = s.state.queuePermissions.get(id)!;
    const added = { id: 'g-1', name: 'Admins', type: 'GROUP' as const, permissions: ['ADMIN' as const] };
    const { client, log } = clientFor(s);
    await expect(client.updateQueuePermissions(id, [{ ...first, permissions: [] }, added])).resolves.toBeUndefined();
    expect(s.state.queuePermissions.get(id)).toEqual([...rest, added]);
    expect(log.map((e) => e.status)).toEqual([200]);
  });

  it('a write answered 200 with an empty or non-JSON body succeeds', async () => {
    const id = [...s.state.dataFiles][0];
    const { client } = clientFor(s);
    s.scriptFault('updateFilePermissions', { status: 200, body: '' });
    s.scriptFault('indexDataset', { status: 200, body: 'permissions updated successfully' });
    await expect(client.updateFilePermissions(id, { publicAccess: false, entries: [] })).resolves.toBeUndefined();
    await expect(client.indexDataset('ds-x')).resolves.toBeUndefined();
    expect(s.counts.updateFilePermissions).toBe(1);
    expect(s.counts.indexDataset).toBe(1);
  });

  it('updateFilePermissions replaces the permissions', async () => {
    const id = [...s.state.dataFiles][0];
    const body = { publicAccess: false, entries: [{ entityId: '7', grant: 'NONE', pass: 'NONE' }] };
    const { client } = clientFor(s);
    await client.updateFilePermissions(id, body);
    expect(s.state.dataFilePermissions.get(id)).toEqual(body);
    expect(s.counts.updateFilePermissions).toBe(1);
  });

  it('indexDataset records the request', async () => {
    const id = [...s.state.datasetAccess.keys()][2];
    const { client } = clientFor(s);
    await client.indexDataset(id);
    expect(s.state.indexRequests.at(-1)).toBe(id);
    expect(s.counts.indexDataset).toBe(1);
  });

  it('duplicateDataFile returns the new file, with a new id', async () => {
    const id = [...s.state.dataFiles][0];
    const before = s.state.dataFiles.size;
    const { client } = clientFor(s);
    const copy = await client.duplicateDataFile(id);
    expect(s.state.dataFiles.size).toBe(before + 1);
    expect(s.state.dataFiles.has(String(copy.dataFileId))).toBe(true);
    expect(String(copy.dataFileId)).not.toBe(id);
    expect(copy.currentRevision?.dataFileId).toBe(copy.dataFileId);
  });
});

describe('path segments', () => {
  it('ids containing "/" and ".." stay inside their segment', async () => {
    s.state.datasetAccess.set('../x', access('dot-dot'));
    s.state.datasetAccess.set('a/b', access('slash'));
    s.state.queuePermissions.set('q/../admin', []);
    const { client, log } = clientFor(s);
    expect((await client.getDatasetPermissions('../x')).list[0].name).toBe('dot-dot');
    expect((await client.getDatasetPermissions('a/b')).list[0].name).toBe('slash');
    const entries = [{ id: '1', name: 'One', type: 'USER' as const, permissions: ['READ' as const] }];
    await client.updateQueuePermissions('q/../admin', entries);
    expect(s.state.queuePermissions.get('q/../admin')).toEqual(entries);
    expect(log.map((e) => new URL(e.url).pathname)).toEqual([
      '/api/data/v3/datasources/..%2Fx/permissions',
      '/api/data/v3/datasources/a%2Fb/permissions',
      '/api/queues/v1/q%2F..%2Fadmin/permissions',
    ]);
    expect(s.counts.getDatasetPermissions).toBe(2);
  });

  it('an id that is a dot segment is refused before anything is sent', async () => {
    const { client } = clientFor(s);
    const error = await rejection(client.getDatasetPermissions('..'));
    expect(error).toMatchObject({ code: 'E_API', kind: 'input', operation: 'getDatasetPermissions' });
    expect(error.message).toBe(
      'getDatasetPermissions: [GET] "/api/data/v3/datasources/{datasetId}/permissions": datasetId ".." cannot be sent as a path segment',
    );
    expect(s.totalRequests()).toBe(0);
    expect(client.stats()).toEqual({ requests: 0, retries: 0, failed: 1 });
  });
});

describe('run memo', () => {
  it('the same GET twice sends one request and returns the same promise; a limit/skip page is not kept', async () => {
    const id = [...s.state.datasetAccess.keys()][0];
    const { client } = clientFor(s);
    const first = client.getDatasetPermissions(id);
    const second = client.getDatasetPermissions(id);
    expect(second).toBe(first);
    await first;
    await client.getDatasetPermissions(id);
    // A limit/skip listing is read once a run through its kind's run memo; the client keeps none
    // of its pages (they would all stay alive after being judged).
    await allPages(client.listReportSchedules());
    await allPages(client.listReportSchedules());
    expect(s.counts.getDatasetPermissions).toBe(1);
    expect(s.counts.listReportSchedules).toBe(2);
    expect(client.stats()).toEqual({ requests: 3, retries: 0, failed: 0 });
  });

  it('an offset listing several parts read is memoised; the user search, read once a run into the directory, is not', async () => {
    const { client } = clientFor(s);
    const datasets = await allPages(client.listDatasets());
    const datasetPages = s.counts.listDatasets;
    expect(datasetPages).toBeGreaterThan(0);
    expect(await allPages(client.listDatasets())).toEqual(datasets);
    expect(s.counts.listDatasets).toBe(datasetPages);
    const users = await allPages(client.searchUsers());
    expect(users.flat().length).toBeGreaterThan(0);
    expect(s.counts.searchUsers).toBe(1);
    expect(await allPages(client.searchUsers())).toEqual(users);
    expect(s.counts.searchUsers).toBe(2);
  });

  it('writes are never memoised', async () => {
    const id = [...s.state.datasetAccess.keys()][3];
    const { client } = clientFor(s);
    await client.indexDataset(id);
    await client.indexDataset(id);
    expect(s.counts.indexDataset).toBe(2);
  });
});
