// Resource kinds against the sandbox over HTTP: what each collects, and that fixes only
// narrow and are written as full-replace requests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import type { InstanceApi } from '../../src/api/types.js';
import { collectAll } from '../../src/resources/common.js';
import { fixProblems, RESOURCE_KINDS } from '../../src/resources/index.js';
import type { CollectContext, CollectedResource, ResourceKind } from '../../src/resources/types.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { DEMO, demoManifests, demoScope } from '../engine/harness.js';

let sandbox: Sandbox;
let api: InstanceApi;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.resetCounts();
  api = createClient({ baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, retryBaseDelayMs: 1 });
});

async function collect(kind: ResourceKind, scope = demoScope()): Promise<CollectedResource[]> {
  const ctx: CollectContext = { api, scope, manifestFiles: demoManifests(), displayRoot: DEMO };
  return collectAll(kind, ctx);
}

describe('live kinds', () => {
  it('cards: scope cards plus the cards schedules send, with the sending schedule ids', async () => {
    const cards = await collect(RESOURCE_KINDS.card, { ...demoScope(), ids: { ...demoScope().ids, cards: ['123'] } });
    const byId = new Map(cards.map((c) => [c.id, c.doc]));
    expect(byId.get('123')).toEqual({ id: 123, schedules: [], declared: false });
    expect(byId.get('7001')).toEqual({ id: 7001, schedules: [9006], declared: false });
    const senders = sandbox.state.schedules.filter((s) => s.cardId === 7002).map((s) => s.id).sort((a, b) => a - b);
    expect(byId.get('7002')?.schedules).toEqual(senders);
    expect(sandbox.counts.getCertificationStatus).toBe(0);
    const cert = await RESOURCE_KINDS.card.parts.certification.load(api, cards.find((c) => c.id === '7001')!);
    expect(cert).toMatchObject({ state: 'EXPIRED' });
  });

  it('fileset files: one read per path; a missing path is an error of that file only', async () => {
    const fs = Object.keys(demoScope().paths.filesets!)[0];
    const files = await collect(RESOURCE_KINDS.filesetFile, { ...demoScope(), paths: { filesets: { [fs]: ['/raw/legacy.csv', '/nope.csv'] } } });
    expect(sandbox.counts.getFileByPath).toBe(2);
    expect(files.map((f) => [f.id, f.name, f.loadError === undefined])).toEqual([
      [`${fs}:/raw/legacy.csv`, '/raw/legacy.csv', true],
      [`${fs}:/nope.csv`, '/nope.csv', false],
    ]);
    expect(files[0].doc).toMatchObject({ filesetId: fs, path: '/raw/legacy.csv', hashAlgorithm: 'MD5' });
    expect(files[1].loadError?.message).toMatch(/404/);
  });

  it('calculated fields: one resource, id instance; workflows as listed', async () => {
    const [cf] = await collect(RESOURCE_KINDS.calculatedFields);
    expect(cf.doc).toEqual({ ...sandbox.state.calculatedFields, id: 'instance' });
    const wfs = await collect(RESOURCE_KINDS.workflow);
    expect(wfs.map((w) => w.id)).toEqual(sandbox.state.workflows.map((w) => w.id));
    expect(wfs.find((w) => w.id === 'wf-unnamed')).toMatchObject({ name: null, doc: { name: '' } });
  });
});

describe('declared kinds and their fixes', () => {
  it('queue revoke narrows one entry; the write is the full list; send sets it on the instance', async () => {
    const queue = RESOURCE_KINDS.queue;
    const finance = (await collect(queue)).find((q) => q.id === 'q-finance-intake')!;
    const after = queue.fixes!.revoke.apply(finance.doc, ['ADMIN'], 'permissions[0]');
    expect(finance.doc.permissions).toHaveLength(3);
    expect((after.permissions as { permissions: string[] }[]).map((e) => e.permissions)).toEqual([
      ['READ'],
      ['ADMIN'],
      ['READ', 'WRITE'],
    ]);
    expect(queue.widens!(finance.doc, after)).toBeNull();
    const write = queue.write!(after, finance.doc);
    expect(write).toEqual({
      operation: 'updateQueuePermissions',
      method: 'POST',
      path: '/api/queues/v1/q-finance-intake/permissions',
      body: after.permissions,
    });
    await api.send(write);
    expect(sandbox.counts.updateQueuePermissions).toBe(1);
    expect(sandbox.state.queuePermissions.get('q-finance-intake')).toEqual(after.permissions);
    const removed = queue.fixes!.remove.apply(finance.doc, true, 'permissions[1]');
    expect((removed.permissions as { id: string }[]).map((e) => e.id)).toEqual(['7', '9']);
    // The removed entry is sent with an empty permission list, never dropped from the body.
    const removal = queue.write!(removed, finance.doc);
    expect(removal.body).toEqual([
      ...(removed.permissions as unknown[]),
      { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: [] },
    ]);
    await api.send(removal);
    expect(sandbox.state.queuePermissions.get('q-finance-intake')!.map((e) => e.id)).toEqual(['7', '9']);
    expect(() => queue.fixes!.remove.apply(finance.doc, true, null)).toThrow(/item of permissions/);
  });

  it('data file: publicAccess false and remove; PUT with the whole body', async () => {
    const df = RESOURCE_KINDS.dataFile;
    const f42 = (await collect(df)).find((d) => d.id === '42')!;
    const priv = df.fixes!.publicAccess.apply(f42.doc, false, null);
    const write = df.write!(priv, f42.doc);
    expect(write).toEqual({
      operation: 'updateFilePermissions',
      method: 'PUT',
      path: '/api/data/v1/data-files/42/permissions',
      body: { publicAccess: false, entries: [{ entityId: '7', grant: 'READ', pass: 'NONE' }] },
    });
    await api.send(write);
    expect(sandbox.state.dataFilePermissions.get('42')).toEqual({ publicAccess: false, entries: f42.doc.entries });
    expect(df.fixes!.remove.apply(f42.doc, true, 'entries[0]').entries).toEqual([]);
    expect(df.widens!(priv, f42.doc)).toBe('the file would become public');
  });

  it('dataset tag and index: warned, opt-in, sent as their own requests; tags are the union with the current ones', async () => {
    const ds = RESOURCE_KINDS.dataset;
    sandbox.state.datasetTags.set('ds-scratch', ['raw', 'pii']);
    const current = await ds.parts.tags.load(api, { kind: 'dataset', id: 'ds-scratch', name: null, doc: { id: 'ds-scratch' }, source: null });
    expect(current).toEqual(['raw', 'pii']);
    expect(sandbox.counts.getDataset).toBe(1);
    const doc = { id: 'ds-scratch', tags: current };
    expect(ds.fixes!.tag.warning).toMatch(/replace/);
    expect(ds.fixes!.tag.optIn).toBe(true);
    expect(ds.fixes!.tag.reads).toEqual(['tags']);
    const tagWrite = ds.fixes!.tag.request!(doc, ['needs-owner', 'pii']);
    expect(tagWrite).toEqual({
      operation: 'createDatasetTags',
      method: 'POST',
      path: '/api/data/ui/v3/datasources/ds-scratch/tags',
      body: ['raw', 'pii', 'needs-owner'],
    });
    await api.send(tagWrite);
    // The platform's POST replaces the list: the union keeps the tags that were there.
    expect(sandbox.state.datasetTags.get('ds-scratch')).toEqual(['raw', 'pii', 'needs-owner']);
    await api.send(ds.fixes!.index.request!(doc, true));
    expect(sandbox.state.indexRequests).toEqual(['ds-scratch']);
  });

  it('ids with slashes stay one path segment', () => {
    const doc = { id: '../x', permissions: [] };
    expect(RESOURCE_KINDS.queue.write!(doc, doc).path).toBe('/api/queues/v1/..%2Fx/permissions');
  });
});

describe('fixProblems: only narrowing fixes are accepted', () => {
  it.each([
    ['dataFile', { publicAccess: true }, false, /must be equal to constant/],
    ['dataFile', { grant: 'ADMIN' }, false, /has no fix "grant"; allowed: publicAccess, remove/],
    ['queue', { revoke: ['OWN'] }, true, /allowed values/],
    ['queue', { revoke: [] }, true, /fewer than 1/],
    ['queue', { remove: true }, false, /needs `each`/],
    ['queue', { remove: false }, true, /constant/],
    ['queue', { revoke: ['ADMIN'], remove: true }, true, /exactly one/],
    ['reportSchedule', { remove: true }, false, /allowed: none/],
  ])('%s %j is refused', (kind, fix, each, message) => {
    const problems = fixProblems(RESOURCE_KINDS, kind, fix, each);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('accepts the narrowing ones', () => {
    expect(fixProblems(RESOURCE_KINDS, 'queue', { revoke: ['ADMIN', 'SHARE'] }, true)).toEqual([]);
    expect(fixProblems(RESOURCE_KINDS, 'dataFile', { publicAccess: false }, false)).toEqual([]);
    expect(fixProblems(RESOURCE_KINDS, 'dataset', { tag: ['x'] }, false)).toEqual([]);
  });

  it('the widening guard names what would be granted', () => {
    const before = { id: 'q', permissions: [{ id: '7', name: 'A', type: 'USER', permissions: ['READ'] }] };
    const after = { id: 'q', permissions: [{ id: '7', name: 'A', type: 'USER', permissions: ['READ', 'ADMIN'] }] };
    expect(RESOURCE_KINDS.queue.widens!(before, after)).toBe('USER 7 would gain ADMIN');
  });
});
