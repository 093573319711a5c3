// Datasets named in the scope. `access`, `certification` and `tags` are parts with their own
// request each, read only for policies (or fixes) that need them.
import { writeRequest } from '../../api/writes.js';
import { stringArraySchema } from '../common.js';
import { selectIds } from '../discovery.js';
import { certificationPart, certificationSchema } from '../certification.js';
import type { DocumentPart, FixKind, PlannedWrite, ResourceDocument, ResourceKind } from '../types.js';

const access: DocumentPart = {
  name: 'access',
  operation: 'getDatasetPermissions',
  load: (api, resource) => api.getDatasetPermissions(String(resource.doc.id)),
};

/** The dataset object's `tags`: a JSON-encoded list of strings (a list is accepted as is). */
export function parseTags(value: unknown, datasetId: string): string[] {
  let tags: unknown = value ?? [];
  if (typeof tags === 'string') {
    try {
      tags = JSON.parse(tags);
    } catch {
      tags = undefined;
    }
  }
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) {
    throw new Error(`getDataset: API drift at tags of dataset ${datasetId}: expected a JSON list of strings, got ${JSON.stringify(value)}`);
  }
  return tags;
}

const tags: DocumentPart = {
  name: 'tags',
  operation: 'getDataset',
  load: async (api, resource) => parseTags((await api.getDataset(String(resource.doc.id))).tags, String(resource.doc.id)),
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
                accessLevel: { type: 'string', description: 'OWNER, CO_OWNER, CAN_EDIT, CAN_SHARE, CAN_VIEW' },
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
    },
  },
  parts: { access, certification: certificationPart('DATA_SOURCE'), tags },
  async *collect(ctx) {
    const discovery = ctx.scope.discover.datasets;
    const { ids, names, items } = await selectIds(ctx.scope.ids.datasets ?? [], discovery, () => ctx.api.listDatasets(), (d) => d.id, (d) => d.name);
    for (const id of ids) {
      const doc: ResourceDocument = { id };
      // The listing's tags (when it carries them) save the dataset read per resource.
      const listed = items.get(id)?.tags;
      if (listed !== undefined && listed !== null) doc.tags = parseTags(listed, id);
      yield { kind: 'dataset', id, name: names.get(id) ?? null, doc, source: null };
    }
  },
  fixes: { tag, index },
};
