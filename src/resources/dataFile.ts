// Data files, declared in manifests. Fixes only narrow: make the file private, or remove an
// entry. Entries keep `entityType` (USER/GROUP) when the manifest gives it, as the platform's
// own bodies carry it.
import type { DataFilePermissionEntry } from '../api/types.js';
import { writeRequest } from '../api/writes.js';
import { removeEntryFix } from './common.js';
import { dataFileEntrySchema, loadManifests } from './manifests.js';
import type { FixKind, PlannedWrite, ResourceDocument, ResourceKind } from './types.js';

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

export const dataFile: ResourceKind = {
  name: 'dataFile',
  description: 'Data files declared in manifests.dataFiles.',
  live: false,
  inputs: { manifests: { key: 'dataFiles', description: 'data file' } },
  operations: [],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id', 'publicAccess', 'entries'],
    properties: {
      id: { type: ['string', 'integer'] },
      publicAccess: { type: 'boolean' },
      entries: { type: 'array', items: dataFileEntrySchema },
    },
  },
  parts: {},
  async *collect(ctx) {
    for (const m of await loadManifests('dataFile', ctx.manifestFiles.dataFiles ?? [], ctx.displayRoot)) {
      const doc: ResourceDocument = {
        id: m.id,
        publicAccess: m.data.publicAccess,
        entries: structuredClone(m.data.entries),
      };
      yield { kind: 'dataFile', id: String(m.id), name: null, doc, source: m.source };
    }
  },
  fixes: { publicAccess, remove },
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
