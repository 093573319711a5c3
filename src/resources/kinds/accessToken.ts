// Access tokens: the token list (no paging; the owner is an id only), with the owner resolved
// against the user directory. Read-only: revoking a token is a decision for a person.
import { closedObject } from '../../core/schema-id.js';
import { int, nullableStr } from '../../api/schemas.js';
import { readProbe } from '../common.js';
import { inListing, listedResources } from '../discovery.js';
import { ownerPart, ownerSchema } from '../people.js';
import type { ResourceKind } from '../types.js';

export const accessToken: ResourceKind = {
  name: 'accessToken',
  description: 'Access tokens named in scope.accessTokens or all of them, with their owner (resolved to a user with a state).',
  live: true,
  completeWith: 'developer.token.manage',
  inputs: {
    scope: { key: 'accessTokens', shape: 'ids', description: 'access token', exists: inListing('access token', 'the token list', (api) => api.listAccessTokens(), (t) => String(t.id)), discovery: 'listAccessTokens' },
  },
  operations: ['listAccessTokens'],
  documentSchema: closedObject(['id', 'ownerId', 'expires'], { id: int, name: nullableStr, ownerId: int, expires: { type: 'integer', description: 'epoch milliseconds' }, owner: ownerSchema }),
  parts: { owner: ownerPart('listAccessTokens', async (_api, r) => ({ type: 'USER', id: String(r.doc.ownerId) })) },
  probes: [
    readProbe('accessTokens', ['listAccessTokens'], "every user's access tokens can be listed", 'GET the access-token list', (api) => api.listAccessTokens(),
      "give the token's user the grant to manage access tokens (developer.token.manage), or leave token policies out with --only"),
  ],
  collect: (ctx) =>
    listedResources(ctx.scope, () => ctx.api.listAccessTokens(), {
      kind: 'accessToken', key: 'accessTokens', listing: 'the token list', idOf: (t) => String(t.id), nameOf: (t) => t.name,
      docOf: (t) => ({ id: t.id, name: t.name ?? null, ownerId: t.ownerId, expires: t.expires }),
      missingDoc: (id) => ({ id }),
    }),
};
