// Workflows as the API returns them: from the workflow API (op 12) when a workflow URL is
// configured, else from the instance host's model list (beyond the spec, developer token).
import type { ResourceKind } from './types.js';

export const workflow: ResourceKind = {
  name: 'workflow',
  description: 'Workflows listed by the workflow API or the instance host (needs the Workflow API grant).',
  live: true,
  inputs: {},
  // listWorkflowModels when no workflow URL is configured.
  operations: ['listWorkflows'],
  documentSchema: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string' },
      name: { type: ['string', 'null'] },
      description: { type: ['string', 'null'] },
      owner: { type: ['string', 'null'], description: 'user id (instance-host models)' },
      createdOn: { type: ['string', 'null'] },
      updatedOn: { type: ['string', 'null'] },
    },
  },
  parts: {},
  async *collect(ctx) {
    for (const w of await ctx.api.listWorkflows()) {
      const name = typeof w.name === 'string' && w.name !== '' ? w.name : null;
      yield { kind: 'workflow', id: String(w.id), name, doc: { ...w }, source: null };
    }
  },
  fixes: {},
};
