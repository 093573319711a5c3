// Workflows from the workflow API (op 12), as the API returns them.
import type { ResourceKind } from './types.js';

export const workflow: ResourceKind = {
  name: 'workflow',
  description: 'Workflows listed by the workflow API (needs the Workflow API grant).',
  live: true,
  documentSchema: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string' },
      name: { type: ['string', 'null'] },
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
