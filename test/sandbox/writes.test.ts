// Writes change the state: permission endpoints replace, tags add without duplicates,
// duplicate creates a new id, index records; invalid bodies are 400s that name the problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(() => s.close());

const QUEUE = '/api/queues/v1/q-finance-intake/permissions';

describe('queue permissions', () => {
  it('POST sets each entry\'s permissions, [] removes an entity, entities left out keep theirs', async () => {
    const body = [
      { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
      { id: '7', name: 'Ana Ruiz', type: 'USER', permissions: [], note: 'extra fields are dropped' },
      { id: '40', name: 'New Hire', type: 'USER', permissions: ['READ'], note: 'extra fields are dropped' },
    ];
    expect((await call(s, 'POST', QUEUE, { body })).status).toBe(200);
    expect(s.state.queuePermissions.get('q-finance-intake')).toEqual([
      { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
      { id: '9', name: 'Ben Okafor', type: 'USER', permissions: ['READ', 'WRITE'] },
      { id: '40', name: 'New Hire', type: 'USER', permissions: ['READ'] },
    ]);
    // An empty body changes nothing: dropping an entry never revokes it.
    expect((await call(s, 'POST', QUEUE, { body: [] })).status).toBe(200);
    expect(s.state.queuePermissions.get('q-finance-intake')).toHaveLength(3);
  });

  it.each([
    [[{ id: '7', name: 'Bot', type: 'ROBOT', permissions: [] }], 'entry [0]: type must be USER or GROUP, got "ROBOT"'],
    [[{ id: '7', name: 'Ana', type: 'USER', permissions: ['READ', 'GOD_MODE'] }], 'entry [0]: unknown permission "GOD_MODE"'],
    [[{ name: 'Ana', type: 'USER', permissions: [] }], 'entry [0]: id must be a non-empty string'],
    [[{ id: 7, name: 'Ana', type: 'USER', permissions: [] }], 'entry [0]: id must be a non-empty string'],
    [[{ id: '7', type: 'USER', permissions: [] }], 'entry [0]: name must be a string'],
    [[{ id: '7', name: 'Ana', type: 'USER', permissions: 'READ' }], 'entry [0]: permissions must be an array'],
    [{ id: '7' }, 'Body must be an array of permission entries'],
  ])('400 on %j', async (body, message) => {
    const before = structuredClone(s.state.queuePermissions.get('q-finance-intake'));
    const res = await call(s, 'POST', QUEUE, { body });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(s.state.queuePermissions.get('q-finance-intake')).toEqual(before);
  });

  it('400 on a body that is not JSON, or no body', async () => {
    const bad = await call(s, 'POST', QUEUE, { raw: '[{"id": ' });
    expect([bad.status, bad.json()]).toEqual([400, { message: 'Request body is not valid JSON' }]);
    const none = await call(s, 'POST', QUEUE);
    expect([none.status, none.json()]).toEqual([400, { message: 'Request body is required and must be JSON' }]);
  });

  it('an id is one path segment: a%2Fb addresses queue "a/b"', async () => {
    s.state.queuePermissions.set('a/b', []);
    const body = [{ id: 'g-1', name: 'G', type: 'GROUP', permissions: ['READ'] }];
    const res = await call(s, 'POST', '/api/queues/v1/a%2Fb/permissions', { body });
    expect(res.status).toBe(200);
    expect(s.state.queuePermissions.get('a/b')).toEqual(body);
    expect((await call(s, 'POST', '/api/queues/v1/a/b/permissions', { body })).status).toBe(404);
  });
});

describe('data-file permissions', () => {
  it('PUT replaces publicAccess and entries', async () => {
    const body = { publicAccess: false, entries: [{ entityId: '9', grant: 'NONE', pass: 'NONE' }] };
    const res = await call(s, 'PUT', '/api/data/v1/data-files/42/permissions', { body });
    expect([res.status, res.text]).toEqual([200, '{}']);
    expect(s.state.dataFilePermissions.get('42')).toEqual(body);
  });

  it.each([
    [{ entries: [] }, 'publicAccess must be a boolean'],
    [{ publicAccess: 'no', entries: [] }, 'publicAccess must be a boolean'],
    [{ publicAccess: false }, 'entries must be an array'],
    [{ publicAccess: false, entries: [{ entityId: '7', grant: 'READ' }] }, 'entries[0].pass must be a string'],
    [[], 'Body must be an object with publicAccess and entries'],
  ])('400 on %j', async (body, message) => {
    const res = await call(s, 'PUT', '/api/data/v1/data-files/43/permissions', { body });
    expect([res.status, res.json()]).toEqual([400, { message }]);
  });
});

describe('datasets', () => {
  it('tags replace the list (duplicates dropped), as the platform does; the dataset object reads them back', async () => {
    const path = '/api/data/ui/v3/datasources/ds-sales-certified/tags';
    expect((await call(s, 'POST', path, { body: ['sales', 'gold', 'gold'] })).status).toBe(200);
    expect(s.state.datasetTags.get('ds-sales-certified')).toEqual(['sales', 'gold']);
    expect((await call(s, 'POST', path, { body: ['audited'] })).status).toBe(200);
    expect(s.state.datasetTags.get('ds-sales-certified')).toEqual(['audited']);
    const read = await call(s, 'GET', '/api/data/v3/datasources/ds-sales-certified');
    expect(read.json()).toMatchObject({ id: 'ds-sales-certified', tags: '["audited"]' });
    const bad = await call(s, 'POST', path, { body: ['ok', 3] });
    expect([bad.status, bad.json()]).toEqual([400, { message: 'Body must be a JSON array of tag strings' }]);
  });

  it('permissions and certification of an encoded id a/b', async () => {
    s.state.datasetAccess.set('a/b', { list: [], totalUserCount: 0, totalGroupCount: 0 });
    const access = await call(s, 'GET', '/api/data/v3/datasources/a%2Fb/permissions');
    expect([access.status, access.json()]).toEqual([200, { list: [], totalUserCount: 0, totalGroupCount: 0 }]);
    const cert = await call(s, 'GET', '/api/tags/v3/DATA_SOURCE/a%2Fb/system/CERTIFIED/state');
    expect(cert.json()).toMatchObject({ state: null });
    expect((await call(s, 'GET', '/api/data/v3/datasources/..%2Fx/permissions')).status).toBe(404);
  });

  it('index records each request in order', async () => {
    await call(s, 'POST', '/api/query/v1/datasources/ds-0001');
    await call(s, 'POST', '/api/query/v1/datasources/ds-scratch');
    await call(s, 'POST', '/api/query/v1/datasources/ds-0001');
    expect(s.state.indexRequests).toEqual(['ds-0001', 'ds-scratch', 'ds-0001']);
  });
});

describe('duplicate', () => {
  it('makes a new private data file with a new id each time', async () => {
    const a = (await call(s, 'POST', '/api/data/v1/data-files/43/duplicate')).json<{ dataFileId: number; name: string }>();
    const b = (await call(s, 'POST', '/api/data/v1/data-files/43/duplicate')).json<{ dataFileId: number }>();
    expect([a.dataFileId, b.dataFileId, a.name]).toEqual([1006, 1007, 'data-file-43 (copy).csv']);
    expect(s.state.dataFilePermissions.get('1007')).toEqual({ publicAccess: false, entries: [] });
    const put = await call(s, 'PUT', '/api/data/v1/data-files/1007/permissions', {
      body: { publicAccess: false, entries: [] },
    });
    expect(put.status).toBe(200);
  });
});
