// Data files: declared in manifests, or named/discovered in the scope and judged on their live
// permissions. Fixes only narrow: make the file private, remove an entry, or restore a drifted
// file where that narrows. Entries keep `entityType` (USER/GROUP) when the manifest gives it,
// as the platform's own bodies carry it.
import type { DataFilePermissionEntry, DataFilePermissions, InstanceApi } from '../../api/types.js';
import { writeRequest } from '../../api/writes.js';
import { itemAt, removeEntryFix } from '../common.js';
import { declaredResources, declaredThenScoped } from '../declared.js';
import { type DataFileDrift, dataFileDrift, narrowingDataFileBody, restoreFix } from '../live-permissions.js';
import { dataFileEntrySchema } from '../manifests.js';
import { ownerPart, ownerSchema, ownersFromListing, userOwner } from '../people.js';
import type { CollectedResource, DocumentPart, FixKind, PlannedWrite, ResourceDocument, ResourceKind } from '../types.js';

/** The live permissions (one read per file, memoised by the client). */
async function livePermissions(api: InstanceApi, resource: CollectedResource): Promise<DataFilePermissions> {
  const read = await api.getDataFilePermissions(String(resource.doc.id));
  // The read's form is the write body's, with `entityType` possibly null (left out here).
  const entries = read.entries.map(({ entityType, ...e }) => (entityType ? { ...e, entityType } : e));
  return { publicAccess: read.publicAccess, entries };
}

const op = 'getDataFilePermissions' as const;
/** Undeclared files are judged on their live state: both fields come from the one read. */
const publicAccessPart: DocumentPart = { name: 'publicAccess', operation: op, load: async (api, r) => (await livePermissions(api, r)).publicAccess };
const entriesPart: DocumentPart = { name: 'entries', operation: op, load: async (api, r) => (await livePermissions(api, r)).entries };
const live: DocumentPart = { name: 'live', operation: op, load: (api, r) => livePermissions(api, r) };
const drift: DocumentPart = {
  name: 'drift',
  operation: op,
  load: async (api, r) => (r.doc.declared ? dataFileDrift(body(r.doc), await livePermissions(api, r)) : []),
};

const restore = restoreFix('file', 'Only narrowing differences are restored: public access is turned off and entries the manifest does not declare as they are are removed; nothing is granted.', {
  refusal: (doc, _value, path) => {
    const item = itemAt<DataFileDrift>(doc, 'drift', path);
    return item?.widens ? `restoring ${item.id} would widen access: reported, never applied` : null;
  },
  request: (doc) => writeRequest('updateFilePermissions', { dataFileId: String(doc.id) }, narrowingDataFileBody(body(doc), doc.live as DataFilePermissions)),
});

function entriesOf(doc: ResourceDocument): DataFilePermissionEntry[] {
  return (doc.entries as DataFilePermissionEntry[] | undefined) ?? [];
}

const publicAccess: FixKind = {
  name: 'publicAccess',
  schema: { const: false, description: 'make the data file private' },
  perItem: false,
  apply: (doc) => ({ ...doc, publicAccess: false }),
};

const remove = removeEntryFix('entries', 'remove the entry from the data file');

function body(doc: ResourceDocument) {
  return { publicAccess: doc.publicAccess === true, entries: entriesOf(doc) };
}

/** The owner: the data-file list's `responsibleUserId`, read once per run. */
const owner = ownerPart('listDataFiles', async (api, r, once) => {
  const find = await ownersFromListing(once, 'listDataFiles', () => api.listDataFiles(), (f) => String(f.dataFileId), (f) =>
    userOwner(f.responsibleUserId, `listDataFiles: data file ${f.dataFileId}`, 'responsibleUserId'),
  );
  return find(String(r.doc.id), 'data file');
});

export const dataFile: ResourceKind = {
  name: 'dataFile',
  description:
    'Data files declared in manifests.dataFiles, and those scope.dataFiles names or discovers (judged on their live permissions); `live` and `drift` compare the two.',
  live: false,
  inputs: {
    manifests: { key: 'dataFiles', description: 'data file' },
    scope: { key: 'dataFiles', shape: 'ids', description: 'data file', exists: (api, id) => api.getDataFilePermissions(id), discovery: 'listDataFiles' },
  },
  operations: [],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id', 'publicAccess', 'entries', 'declared'],
    properties: {
      id: { type: ['string', 'integer'] },
      publicAccess: { type: 'boolean', description: "the manifest's where it declares the file, else the live one" },
      entries: { type: 'array', items: dataFileEntrySchema },
      declared: { type: 'boolean', description: 'true when a manifest declares the file' },
      live: { type: 'object', description: 'the live permissions { publicAccess, entries } (read only when a policy reads this)' },
      drift: { type: 'array', items: { type: 'object' }, description: 'publicAccess and each entity compared: id, matches, widens, description' },
      owner: ownerSchema,
    },
  },
  parts: { publicAccess: publicAccessPart, entries: entriesPart, live, drift, owner },
  declare: (ctx) => declaredResources('dataFile', 'dataFiles', ctx, (m) => ({ publicAccess: m.data.publicAccess, entries: structuredClone(m.data.entries), declared: true })),
  async *collect(ctx) {
    const declared = ctx.declared ?? (await dataFile.declare!(ctx));
    yield* declaredThenScoped(ctx, declared, {
      kind: 'dataFile', key: 'dataFiles', listing: () => ctx.api.listDataFiles(), idOf: (f) => String(f.dataFileId), nameOf: (f) => f.name,
      docId: (id) => (/^\d+$/.test(id) ? Number(id) : id),
    });
  },
  fixes: { publicAccess, remove, restore },
  write(after): PlannedWrite {
    return writeRequest('updateFilePermissions', { dataFileId: String(after.id) }, body(after));
  },
  widens(before, after) {
    if (after.publicAccess === true && before.publicAccess !== true) return 'the file would become public';
    const had = new Set(entriesOf(before).map((e) => JSON.stringify([e.entityId, e.grant, e.pass])));
    for (const e of entriesOf(after)) {
      if (!had.has(JSON.stringify([e.entityId, e.grant, e.pass]))) return `entity ${e.entityId} would get ${e.grant}`;
    }
    return null;
  },
};
