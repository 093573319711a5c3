// Datasets named in the scope (the API cannot list them). `access` and `certification` are
// parts with their own request each, read only for policies that need them.
import { stringArraySchema } from './common.js';
import { certificationPart, certificationSchema } from './certification.js';
import type { DocumentPart, FixKind, PlannedWrite, ResourceDocument, ResourceKind } from './types.js';

const access: DocumentPart = {
  name: 'access',
  load: (api, resource) => api.getDatasetPermissions(String(resource.doc.id)),
};

const TAG_WARNING =
  'The platform may replace the dataset’s whole tag list with these tags, and tags cannot be read back to check.';

const tag: FixKind = {
  name: 'tag',
  schema: { ...stringArraySchema, minItems: 1, description: 'tags to add to the dataset' },
  perItem: false,
  warning: TAG_WARNING,
  optIn: true,
  // Tags are not part of the readable document: the document does not change.
  apply: (doc) => ({ ...doc }),
  request: (doc, value): PlannedWrite => ({
    operation: 'createDatasetTags',
    method: 'POST',
    path: `/api/data/ui/v3/datasources/${encodeURIComponent(String(doc.id))}/tags`,
    body: value as string[],
  }),
  sendFix: (api, doc, value) => api.createDatasetTags(String(doc.id), value as string[]),
};

const index: FixKind = {
  name: 'index',
  schema: { const: true, description: 'request indexing of the dataset' },
  perItem: false,
  apply: (doc) => ({ ...doc }),
  request: (doc): PlannedWrite => ({
    operation: 'indexDataset',
    method: 'POST',
    path: `/api/query/v1/datasources/${encodeURIComponent(String(doc.id))}`,
    body: null,
  }),
  sendFix: (api, doc) => api.indexDataset(String(doc.id)),
};

export const dataset: ResourceKind = {
  name: 'dataset',
  description: 'Datasets listed in scope.datasets, with their access list and certification status.',
  live: true,
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
    },
  },
  parts: { access, certification: certificationPart('DATA_SOURCE') },
  async *collect(ctx) {
    for (const id of ctx.scope.datasets) {
      const doc: ResourceDocument = { id };
      yield { kind: 'dataset', id, name: null, doc, source: null };
    }
  },
  fixes: { tag, index },
};
