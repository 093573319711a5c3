// Access tokens: the token list (no paging; the owner is an id only), with the owner resolved
// against the user directory. Read-only: revoking a token is a decision for a person.
import { listedResources } from '../discovery.js';
import { readProbe } from '../common.js';
import { ownerPart, ownerSchema } from '../people.js';
import type { ResourceKind } from '../types.js';

export const accessToken: ResourceKind = {
  name: 'accessToken',
  description: 'Access tokens named in scope.accessTokens or all of them, with their owner (resolved to a user with a state).',
  live: true,
  completeWith: 'developer.token.manage',
  inputs: {
    scope: {
      key: 'accessTokens',
      shape: 'ids',
      description: 'access token',
      exists: async (api, id) => {
        if (!(await api.listAccessTokens()).some((t) => String(t.id) === id)) throw new Error(`access token ${id} is not in the token list`);
      },
      discovery: 'listAccessTokens',
    },
  },
  operations: ['listAccessTokens'],
  documentSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'ownerId', 'expires'],
    properties: {
      id: { type: 'integer' },
      name: { type: ['string', 'null'] },
      ownerId: { type: 'integer' },
      expires: { type: 'integer', description: 'epoch milliseconds' },
      owner: ownerSchema,
    },
  },
  parts: { owner: ownerPart('listAccessTokens', async (_api, r) => ({ type: 'USER', id: String(r.doc.ownerId) })) },
  probes: [
    readProbe('accessTokens', ['listAccessTokens'], "every user's access tokens can be listed", 'GET the access-token list', (api) => api.listAccessTokens(),
      "give the token's user the grant to manage access tokens (developer.token.manage), or leave token policies out with --only"),
  ],
  collect: (ctx) =>
    listedResources(ctx.scope, () => ctx.api.listAccessTokens(), {
      key: 'accessTokens',
      listing: 'the token list',
      idOf: (t) => String(t.id),
      nameOf: (t) => t.name,
      build: (t) => ({ kind: 'accessToken', id: String(t.id), name: t.name ?? null, doc: { id: t.id, name: t.name ?? null, ownerId: t.ownerId, expires: t.expires }, source: null }),
      missing: (id) => ({ kind: 'accessToken', id, name: null, doc: { id }, source: null }),
    }),
  fixes: {},
};
