// Workflows as the API returns them: from the workflow API (op 12) when a workflow URL is
// configured, else from the instance host's model list (beyond the spec, developer token).
import { excluded } from '../discovery.js';
import { ownerPart, ownerSchema, userOwner } from '../people.js';
import { principalSchema } from '../sharing.js';
import type { DocumentPart, ResourceKind } from '../types.js';

/** The list's raw `owner` (a user id) is kept aside: `owner` in the document is the resolved user. */
const owner = ownerPart('listWorkflows', async (_api, r) => userOwner(r.listed?.owner, `listWorkflows: workflow ${r.id}`));

/** The workflow's permissions on the instance host, grouped by USER/GROUP there: one list here. */
const permissions: DocumentPart = {
  name: 'permissions',
  operation: 'getWorkflowPermissions',
  async load(api, r) {
    const answer = await api.getWorkflowPermissions(r.id);
    const of = (type: 'USER' | 'GROUP') => (answer[type] ?? []).map((e) => ({ type, id: e.id, name: e.name ?? null, permissions: [...e.permissions] }));
    return [...of('USER'), ...of('GROUP')];
  },
};

export const workflow: ResourceKind = {
  name: 'workflow',
  description: 'Workflows listed by the workflow API or the instance host (needs the Workflow API grant).',
  live: true,
  completeWith: 'workflow.admin',
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
      emptyMeansAll: true,
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
      owner: ownerSchema,
      permissions: { type: 'array', items: principalSchema({ permissions: { type: 'array', items: { type: 'string' } } }), description: "who may do what with the workflow (the instance host's permissions)" },
      createdOn: { type: ['string', 'null'] },
      updatedOn: { type: ['string', 'null'] },
    },
  },
  parts: { owner, permissions },
  probes: [
    {
      id: 'workflowGrant',
      when: ['listWorkflows', 'listWorkflowModels'],
      plan: ({ workflowUrl }) => ({
        check: 'the Workflow API grant is held',
        asked: `GET the workflow list from ${workflowUrl ? 'the workflow API host' : 'the instance host (no workflow URL set)'}`,
        run: (api) => api.listWorkflows(),
        fix: (status) =>
          status === 401
            ? 'the workflow token was refused: set STEWARD_WORKFLOW_TOKEN (or STEWARD_TOKEN) to a token the workflow host accepts'
            : "give the token's user the Workflow API grant (Admin › Roles › Grants), or leave workflow policies out with --only",
      }),
    },
  ],
  async *collect(ctx) {
    const named = ctx.scope.ids.workflows ?? [];
    const discovery = ctx.scope.discover.workflows;
    const only = named.length > 0 && !discovery ? new Set(named) : null;
    const listed = new Set<string>();
    for (const w of await ctx.api.listWorkflows()) {
      listed.add(String(w.id));
      if ((only && !only.has(String(w.id))) || excluded(discovery, String(w.id))) continue;
      const name = typeof w.name === 'string' && w.name !== '' ? w.name : null;
      const { owner: rawOwner, ...doc } = w;
      yield { kind: 'workflow', id: String(w.id), name, doc, source: null, listed: Object.hasOwn(w, 'owner') ? { owner: rawOwner } : {} };
    }
    // A workflow the scope names and the list lacks is checked as an error, never left out unseen.
    for (const id of new Set(named)) {
      if (listed.has(id) || excluded(discovery, id)) continue;
      yield { kind: 'workflow', id, name: null, doc: { id }, source: null, loadError: new Error(`workflow ${id} is not in the workflow list`) };
    }
  },
};
