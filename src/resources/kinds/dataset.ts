// Datasets named in the scope. `access`, `certification` and `tags` are parts with their own
// request each, read only for policies (or fixes) that need them.
import { writeRequest } from '../../api/writes.js';
import { DATASET_ACCESS_LEVELS, DATASET_CERTIFICATION_STATES } from '../../api/vocabularies.js';
import { noMemo, stringArraySchema } from '../common.js';
import { selectIds } from '../discovery.js';
import { certificationPart, certificationSchema } from '../certification.js';
import { type OwnerId, ownerPart, ownerSchema, ownersFromListing } from '../people.js';
import { pdpPart, pdpSchema } from '../pdp.js';
import type { InstanceApi } from '../../api/types.js';
import type { CollectedResource, DocumentPart, FixKind, PlannedWrite, ResourceDocument, ResourceKind, RunMemo } from '../types.js';

const access: DocumentPart = {
  name: 'access',
  operation: 'getDatasetPermissions',
  load: (api, resource) => api.getDatasetPermissions(String(resource.doc.id)),
};

/**
 * How steward counts the people a dataset reaches (DATASET_REACH in README "Assumptions"): the
 * access list's `totalUserCount` most likely counts direct users only (it comes beside a
 * `totalGroupCount`; dataset-permissions.json), so a dataset shared with one large group would
 * read as narrow. Each shared group's `memberCount` from the group list is added: a person in
 * two shared groups counts twice, an over-count that can only judge more datasets wide.
 */
export const DATASET_REACH_RULE = "the larger of the access list's totalUserCount and its USER entries, plus each shared group's memberCount (the group list)";

/** memberCount by group id from the group list, read once a run (its pages are the client's memo). */
async function groupSizes(api: InstanceApi, once: RunMemo): Promise<Map<string, number | Error>> {
  return once('dataset:group-sizes', async () => {
    const sizes = new Map<string, number | Error>();
    for await (const page of api.listGroups()) {
      for (const g of page) {
        sizes.set(String(g.groupId), typeof g.memberCount === 'number' ? g.memberCount : new Error(`listGroups: API drift at memberCount of group ${g.groupId}: ${JSON.stringify(g.memberCount ?? null)}, so the people it reaches are unknown`));
      }
    }
    return sizes;
  });
}

/**
 * The people the dataset reaches (DATASET_REACH_RULE). A shared group the group list does not
 * hold (a token without group.admin sees only some groups) leaves the reach unknown: an error of
 * the policies that read it, never a narrower count.
 */
const reach: DocumentPart = {
  name: 'reach',
  operation: 'getDatasetPermissions',
  alsoReads: ['listGroups'],
  async load(api, r, once = noMemo) {
    const id = String(r.doc.id);
    const access = await api.getDatasetPermissions(id);
    if (typeof access.totalUserCount !== 'number') {
      throw new Error(`getDatasetPermissions: dataset ${id}: the access list has no totalUserCount, so the people it reaches are unknown`);
    }
    const idsOf = (type: 'USER' | 'GROUP') => new Set(access.list.filter((e) => e.type === type).map((e) => e.id));
    const groups = idsOf('GROUP');
    // The group list only where a dataset is shared with a group (then once a run).
    const sizes = groups.size > 0 ? await groupSizes(api, once) : new Map<string, number | Error>();
    let people = Math.max(access.totalUserCount, idsOf('USER').size);
    for (const groupId of groups) {
      const size = sizes.get(groupId);
      if (size === undefined) throw new Error(`dataset ${id} is shared with group ${groupId}, which the group list does not hold (the token's user may lack group.admin): the people it reaches are unknown`);
      if (size instanceof Error) throw size;
      people += size;
    }
    return people;
  },
};

/**
 * The dataset object's `tags`: a JSON-encoded list of strings (a list is accepted as is); `""`
 * and null are no tags, as practitioners read them (`JSON.parse(ds.tags || '[]')`).
 */
export function parseTags(value: unknown, datasetId: string, read: 'getDataset' | 'listDatasets' = 'getDataset'): string[] {
  let tags: unknown = value === '' || value === null ? [] : value;
  if (typeof tags === 'string') {
    try {
      tags = JSON.parse(tags);
    } catch {
      tags = undefined;
    }
  }
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) {
    throw new Error(`${read}: API drift at tags of dataset ${datasetId}: expected a JSON list of strings, got ${JSON.stringify(value)}`);
  }
  return tags;
}

/** The listing's raw `tags` of this dataset, when the listing carried the field. */
const listedTags = (r: CollectedResource): { raw: unknown } | undefined =>
  r.listed && Object.hasOwn(r.listed, 'tags') ? { raw: r.listed.tags } : undefined;

/**
 * The tags: from the listing when it carried them (no read per dataset), else from the dataset
 * object. An answer without the field says nothing about the tags: an error of the policies
 * (and the `tag` fix) that read them, never an empty list the replacing POST would write back.
 */
const tags: DocumentPart = {
  name: 'tags',
  operation: 'getDataset',
  loaded(r) {
    const listed = listedTags(r);
    if (listed === undefined) return undefined;
    try {
      return { value: parseTags(listed.raw, String(r.doc.id), 'listDatasets') };
    } catch {
      return undefined; // load() raises the drift for the policies that read tags
    }
  },
  async load(api, r) {
    const id = String(r.doc.id);
    const listed = listedTags(r);
    if (listed !== undefined) return parseTags(listed.raw, id, 'listDatasets');
    const answer = await api.getDataset(id);
    if (!Object.hasOwn(answer, 'tags')) {
      throw new Error(`getDataset: the answer for dataset ${id} has no tags field: its tags are unknown (a tag list built from it would replace the real one)`);
    }
    return parseTags(answer.tags, id);
  },
};

/**
 * The listing's `owner {id, type, group}` (part=core): a group owner has no user state. Its
 * `type` and `group` saying different things, or a `type` other than USER and GROUP, is drift: a
 * group owner passes every liveness check, so neither is taken over the other.
 */
function datasetOwner(value: unknown, id: string): OwnerId | null {
  if (value === null) return null;
  const o = value as { id?: unknown; type?: unknown; group?: unknown } | undefined;
  if (!o || typeof o !== 'object' || typeof o.id !== 'string' || o.id === '') {
    throw new Error(`listDatasets: API drift at owner of dataset ${id}: ${JSON.stringify(value ?? 'missing')} names no owner id`);
  }
  // A type that is neither (a role, a typo) says nothing of whether a person owns the dataset.
  if (o.type !== undefined && o.type !== null && o.type !== 'USER' && o.type !== 'GROUP') {
    throw new Error(`listDatasets: API drift at owner of dataset ${id}: type ${JSON.stringify(o.type)}, not USER or GROUP, so its owner is unknown`);
  }
  if (typeof o.group === 'boolean' && o.type !== undefined && o.type !== null && o.group !== (o.type === 'GROUP')) {
    throw new Error(`listDatasets: API drift at owner of dataset ${id}: type ${o.type} with group ${o.group}, so its owner is unknown`);
  }
  return { type: o.group === true || o.type === 'GROUP' ? 'GROUP' : 'USER', id: o.id };
}

/** The owner from the dataset listing (read once per run, whole), resolved against the users. */
const owner = ownerPart('listDatasets', async (api, r, once) => {
  const find = await ownersFromListing(once, 'listDatasets', () => api.listDatasets(), (d) => d.id, (d) => datasetOwner(d.owner, d.id));
  return find(String(r.doc.id), 'dataset');
});

/** The listing's part=certification (state CERTIFIED, PENDING, REQUESTED, EXPIRED): one listing for every dataset, no read each. */
const certificationProcess: DocumentPart = {
  name: 'certificationProcess',
  operation: 'listDatasets',
  async load(api, r, once = noMemo) {
    const byId = await once('dataset:listed-certification', async () => {
      const map = new Map<string, unknown>();
      for await (const page of api.listDatasets()) for (const d of page) map.set(d.id, d.certification ?? null);
      return map;
    });
    if (!byId.has(String(r.doc.id))) throw new Error(`listDatasets: dataset ${r.id} is not in the listing, so its certification process is unknown`);
    const c = byId.get(String(r.doc.id)) as Record<string, unknown> | null;
    if (c === null || c === undefined) return null;
    if (!(DATASET_CERTIFICATION_STATES as readonly unknown[]).includes(c.state)) {
      throw new Error(`listDatasets: API drift at certification.state of dataset ${r.id}: ${JSON.stringify(c.state ?? null)}, not one of ${DATASET_CERTIFICATION_STATES.join(', ')}`);
    }
    return { state: c.state, processType: c.processType ?? null, processName: c.processName ?? null, lastUpdated: c.lastUpdated ?? null, adminCertified: c.adminCertified ?? null };
  },
};

const TAG_WARNING =
  'The tag POST replaces the dataset’s whole tag list: steward sends the tags it read when planning plus these, so a tag added in between is lost.';

const tag: FixKind = {
  name: 'tag',
  schema: { ...stringArraySchema, minItems: 1, description: 'tags to add to the dataset' },
  perItem: false,
  warning: TAG_WARNING,
  optIn: true,
  reads: ['tags'],
  // The document's other parts do not change (tags are re-read on the next run).
  apply: (doc) => ({ ...doc }),
  request: (doc, value): PlannedWrite => {
    const current = (doc.tags as string[] | undefined) ?? [];
    const union = [...new Set([...current, ...(value as string[])])];
    return writeRequest('createDatasetTags', { datasetId: String(doc.id) }, union);
  },
};

const index: FixKind = {
  name: 'index',
  schema: { const: true, description: 'request indexing of the dataset' },
  perItem: false,
  apply: (doc) => ({ ...doc }),
  request: (doc): PlannedWrite => writeRequest('indexDataset', { datasetId: String(doc.id) }, null),
};

export const dataset: ResourceKind = {
  name: 'dataset',
  description: 'Datasets listed in scope.datasets, with their access list, certification status and tags.',
  live: true,
  completeWith: 'dataset.admin',
  inputs: {
    scope: { key: 'datasets', shape: 'ids', description: 'dataset', exists: (api, id) => api.getDatasetPermissions(id), discovery: 'listDatasets' },
  },
  operations: [],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: { type: 'string' },
      access: {
        type: 'object',
        description: 'the dataset access list (op 6)',
        properties: {
          list: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                type: { enum: ['USER', 'GROUP'] },
                id: { type: 'string' },
                accessLevel: { enum: [...DATASET_ACCESS_LEVELS] },
                name: { type: 'string' },
              },
            },
          },
          totalUserCount: { type: 'integer' },
          totalGroupCount: { type: 'integer' },
        },
      },
      certification: certificationSchema,
      tags: { ...stringArraySchema, description: 'the dataset tags (read from the dataset object, beyond the spec)' },
      owner: ownerSchema,
      pdp: pdpSchema,
      reach: { type: 'integer', description: `the people the dataset is shared with, at most: ${DATASET_REACH_RULE}` },
      certificationProcess: {
        type: ['object', 'null'],
        description: "the listing's certification (part=certification): state CERTIFIED, PENDING, REQUESTED or EXPIRED, processType, processName, lastUpdated (epoch ms), adminCertified; null when none",
        properties: { state: { type: 'string' }, processType: { type: ['string', 'null'] }, processName: { type: ['string', 'null'] }, lastUpdated: { type: ['integer', 'null'] }, adminCertified: { type: ['boolean', 'null'] } },
      },
    },
  },
  parts: { access, reach, certification: certificationPart('DATA_SOURCE'), tags, owner, pdp: pdpPart, certificationProcess },
  async *collect(ctx) {
    const discovery = ctx.scope.discover.datasets;
    const { ids, names, items } = await selectIds(ctx.scope.ids.datasets ?? [], discovery, () => ctx.api.listDatasets(), (d) => d.id, (d) => d.name);
    for (const id of ids) {
      const doc: ResourceDocument = { id };
      // The listing's tags (when it carries them) save the dataset read per resource; they are
      // parsed only if a policy reads them.
      const item = items.get(id);
      const carried = item ? { ...(Object.hasOwn(item, 'tags') ? { tags: item.tags } : {}), ...(typeof item.pdpEnabled === 'boolean' ? { pdpEnabled: item.pdpEnabled } : {}) } : {};
      const listed = Object.keys(carried).length > 0 ? carried : undefined;
      yield { kind: 'dataset', id, name: names.get(id) ?? null, doc, source: null, ...(listed ? { listed } : {}) };
    }
  },
  fixes: { tag, index },
};
