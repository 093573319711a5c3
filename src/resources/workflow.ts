// Workflows as the API returns them: from the workflow API (op 12) when a workflow URL is
// configured, else from the instance host's model list (beyond the spec, developer token).
import { excluded } from './discovery.js';
import type { ResourceKind } from './types.js';

export const workflow: ResourceKind = {
  name: 'workflow',
  description: 'Workflows listed by the workflow API or the instance host (needs the Workflow API grant).',
  live: true,
  // Without scope.workflows every workflow is listed; a list of ids checks those only.
  inputs: {
    scope: {
      key: 'workflows',
      shape: 'ids',
      description: 'workflow',
      exists: async (api, id) => {
        if (!(await api.listWorkflows()).some((w) => w.id === id)) throw new Error(`workflow ${id} is not in the workflow list`);
      },
      discovery: 'listWorkflows',
    },
  },
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
    const named = ctx.scope.workflows ?? [];
    const discovery = ctx.scope.discover?.workflows;
    const only = named.length > 0 && !discovery ? new Set(named) : null;
    for (const w of await ctx.api.listWorkflows()) {
      if ((only && !only.has(String(w.id))) || excluded(discovery, String(w.id))) continue;
      const name = typeof w.name === 'string' && w.name !== '' ? w.name : null;
      yield { kind: 'workflow', id: String(w.id), name, doc: { ...w }, source: null };
    }
  },
  fixes: {},
};
