// The dataset kind's listing-backed parts over HTTP from the sandbox: the owner (part=core's
// `owner {id, type, group}`), the certification process (part=certification) and the tags the
// listing carries. Each answer steward cannot read as the platform means it is an error of the
// policies reading that part (exit 3), never an owner-less or uncertified pass.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import { createRunMemo } from '../../../src/engine/memo.js';
import { dataset } from '../../../src/resources/kinds/dataset.js';
import type { CollectedResource } from '../../../src/resources/types.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';

let s: Sandbox;
beforeEach(async () => {
  s = await startSandbox();
});
afterEach(() => s.close());

const ID = 'ds-scratch';
const resource = (listed?: Record<string, unknown>): CollectedResource => ({ kind: 'dataset', id: ID, name: null, doc: { id: ID }, source: null, ...(listed ? { listed } : {}) });

/** One part loaded as a run loads it, its own memo. */
function load(part: keyof NonNullable<typeof dataset.parts>, listed?: Record<string, unknown>) {
  const { once } = createRunMemo();
  return dataset.parts![part]!.load(createClient({ baseUrl: s.baseUrl, token: s.token }), resource(listed), once);
}

/** The listing answers these items for its one page. */
const listing = (...items: Record<string, unknown>[]) =>
  s.scriptFault('listDatasets', { status: 200, body: JSON.stringify({ dataSources: items, _metadata: { totalCount: items.length, offset: 0, limit: 50 } }) });

describe('the dataset parts the listing backs', () => {
  it('the owner: part=core’s type and group agreeing; a group owner has no state; a user owner is resolved', async () => {
    listing({ id: ID, name: ID, owner: { id: '12', name: 'Chen Wei', type: 'USER', group: false } });
    await expect(load('owner')).resolves.toEqual({ type: 'USER', id: '12', name: 'Chen Wei', email: 'chen.wei@example.com', state: 'active' });
    listing({ id: ID, name: ID, owner: { id: '305', name: 'Finance Admins', type: 'GROUP', group: true } });
    await expect(load('owner')).resolves.toEqual({ type: 'GROUP', id: '305', name: null, email: null, state: null });
    // `group` alone says a group (older captures carry no type).
    listing({ id: ID, name: ID, owner: { id: '305', group: true } });
    await expect(load('owner')).resolves.toMatchObject({ type: 'GROUP', id: '305' });
    // … and `type` alone too.
    listing({ id: ID, name: ID, owner: { id: '305', type: 'GROUP' } });
    await expect(load('owner')).resolves.toMatchObject({ type: 'GROUP', id: '305', state: null });
    listing({ id: ID, name: ID, owner: null });
    await expect(load('owner')).resolves.toBeNull();
  });

  it('an owner that names no id is drift, never an owner-less dataset', async () => {
    for (const owner of [{ name: 'x' }, { id: '' }, { id: 12 }, 'Chen']) {
      listing({ id: ID, name: ID, owner });
      await expect(load('owner')).rejects.toThrow(`listDatasets: API drift at owner of dataset ${ID}: ${JSON.stringify(owner)} names no owner id`);
    }
    listing({ id: ID, name: ID });
    await expect(load('owner')).rejects.toThrow(`listDatasets: API drift at owner of dataset ${ID}: "missing" names no owner id`);
  });

  it('an owner type other than USER or GROUP is drift, whatever its group flag (a group owner passes every liveness check)', async () => {
    for (const group of [true, false, undefined]) {
      listing({ id: ID, name: ID, owner: { id: '305', type: 'ROLE', ...(group === undefined ? {} : { group }) } });
      await expect(load('owner')).rejects.toThrow(`listDatasets: API drift at owner of dataset ${ID}: type "ROLE", not USER or GROUP, so its owner is unknown`);
    }
    listing({ id: ID, name: ID, owner: { id: '12', type: 'USER', group: true } });
    await expect(load('owner')).rejects.toThrow(`listDatasets: API drift at owner of dataset ${ID}: type USER with group true, so its owner is unknown`);
  });

  it('the certification process: the listing’s, its state in the closed vocabulary; none is null', async () => {
    const certification = { state: 'REQUESTED', processType: 'COMPANY', processName: 'Company certification', lastUpdated: 1733000000000, adminCertified: false };
    listing({ id: ID, name: ID, owner: null, certification });
    await expect(load('certificationProcess')).resolves.toEqual(certification);
    listing({ id: ID, name: ID, owner: null, certification: { state: 'CERTIFIED' } });
    await expect(load('certificationProcess')).resolves.toEqual({ state: 'CERTIFIED', processType: null, processName: null, lastUpdated: null, adminCertified: null });
    listing({ id: ID, name: ID, owner: null });
    await expect(load('certificationProcess')).resolves.toBeNull();
    listing({ id: ID, name: ID, owner: null, certification: null });
    await expect(load('certificationProcess')).resolves.toBeNull();
  });

  it('a state outside the vocabulary, or a dataset the listing lacks, leaves the process unknown: an error', async () => {
    listing({ id: ID, name: ID, owner: null, certification: { state: 'APPROVED' } });
    await expect(load('certificationProcess')).rejects.toThrow(`listDatasets: API drift at certification.state of dataset ${ID}: "APPROVED", not one of CERTIFIED, PENDING, REQUESTED, EXPIRED`);
    listing({ id: ID, name: ID, owner: null, certification: {} });
    await expect(load('certificationProcess')).rejects.toThrow(`listDatasets: API drift at certification.state of dataset ${ID}: null, not one of`);
    listing({ id: 'ds-other', name: 'ds-other', owner: null });
    await expect(load('certificationProcess')).rejects.toThrow(`listDatasets: dataset ${ID} is not in the listing, so its certification process is unknown`);
  });

  it('the tags the listing carried: parsed without a dataset read; drift there is the read’s error, never no tags', async () => {
    await expect(load('tags', { tags: '["finance","pii"]' })).resolves.toEqual(['finance', 'pii']);
    await expect(load('tags', { tags: '' })).resolves.toEqual([]);
    expect(dataset.parts!.tags!.loaded!(resource({ tags: '["a"]' }))).toEqual({ value: ['a'] });
    expect(dataset.parts!.tags!.loaded!(resource({ tags: '{bad' }))).toBeUndefined();
    expect(dataset.parts!.tags!.loaded!(resource())).toBeUndefined();
    await expect(load('tags', { tags: '{bad' })).rejects.toThrow(`listDatasets: API drift at tags of dataset ${ID}: expected a JSON list of strings, got "{bad"`);
    await expect(load('tags', { tags: '[1]' })).rejects.toThrow(`listDatasets: API drift at tags of dataset ${ID}: expected a JSON list of strings, got "[1]"`);
    expect(s.counts.getDataset ?? 0).toBe(0);
    // Not carried: the dataset object is read.
    await expect(load('tags')).resolves.toEqual([]);
    expect(s.counts.getDataset).toBe(1);
  });
});
