// Access tokens: the token list (no paging; the owner is an id only), with the owner resolved
// against the user directory. Read-only: revoking a token is a decision for a person.
import { selectIds } from '../discovery.js';
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
    {
      id: 'accessTokens',
      when: ['listAccessTokens'],
      plan: () => ({
        check: "every user's access tokens can be listed",
        asked: 'GET the access-token list',
        run: (api) => api.listAccessTokens(),
        fix: () => "give the token's user the grant to manage access tokens (developer.token.manage), or leave token policies out with --only",
      }),
    },
  ],
  async *collect(ctx) {
    // Nothing named and nothing discovered: no read (the run warns of the empty scope).
    if ((ctx.scope.ids.accessTokens ?? []).length === 0 && !ctx.scope.discover.accessTokens) return;
    const tokens = await ctx.api.listAccessTokens();
    const byId = new Map(tokens.map((t) => [String(t.id), t]));
    const { ids } = await selectIds(ctx.scope.ids.accessTokens ?? [], ctx.scope.discover.accessTokens, async () => tokens, (t) => String(t.id), (t) => t.name);
    for (const id of ids) {
      const t = byId.get(id);
      if (!t) {
        yield { kind: 'accessToken', id, name: null, doc: { id }, source: null, loadError: new Error(`access token ${id} is not in the token list`) };
        continue;
      }
      yield { kind: 'accessToken', id, name: t.name ?? null, doc: { id: t.id, name: t.name ?? null, ownerId: t.ownerId, expires: t.expires }, source: null };
    }
  },
  fixes: {},
};
