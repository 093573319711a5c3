// Connector accounts: the account list (all of them with account.admin), each with its share
// list as a part (v1's READ/WRITE/OWNER vocabulary mapped to v2's) and its owner resolved.
import { closedObject } from '../../core/schema-id.js';
import type { Account } from '../../api/types.js';
import { int, nullableBool, nullableInt, nullableStr } from '../../api/schemas.js';
import { readProbe } from '../common.js';
import { listedResources } from '../discovery.js';
import { ownerPart, ownerSchema, userOwner } from '../people.js';
import { principalSchema } from '../sharing.js';
import type { DocumentPart, ResourceKind } from '../types.js';

/** v1's share vocabulary in v2's words (PLATFORM.md §7): READ → CAN_VIEW, WRITE → CAN_EDIT. */
export const ACCOUNT_ACCESS_LEVELS: Readonly<Record<string, string>> = { READ: 'CAN_VIEW', WRITE: 'CAN_EDIT', OWNER: 'OWNER', CAN_VIEW: 'CAN_VIEW', CAN_EDIT: 'CAN_EDIT', CAN_SHARE: 'CAN_SHARE' };

const shares: DocumentPart = {
  name: 'shares',
  operation: 'getAccountShares',
  async load(api, r) {
    const answer = await api.getAccountShares(String(r.doc.id));
    return answer.list.map((e) => {
      const accessLevel = ACCOUNT_ACCESS_LEVELS[e.accessLevel];
      // An access level outside both vocabularies cannot be judged: drift, never a guess.
      if (!accessLevel) throw new Error(`getAccountShares: API drift at accessLevel of ${e.type} ${e.id} on account ${r.id}: ${JSON.stringify(e.accessLevel)} is in neither vocabulary`);
      return { type: e.type, id: e.id, name: e.name ?? null, accessLevel };
    });
  },
};

const owner = ownerPart('listAccounts', async (_api, r) => userOwner(r.doc.ownerId, `listAccounts: account ${r.id}`, 'userId'));

function accountDoc(a: Account) {
  // Defaults apply to absent fields; the platform's nulls stay null. An absent userId stays
  // absent: the owner is unknown (null is the platform naming none).
  const { id, name = null, displayName = null, type = null, dataProviderType = null, credentialsType = null, valid = null, userId } = a;
  return { id, name, displayName, type, dataProviderType, credentialsType, valid, ...(userId === undefined ? {} : { ownerId: userId }) };
}

export const account: ResourceKind = {
  name: 'account',
  description: 'Connector accounts named in scope.accounts or all of them, with their share list and owner.',
  live: true,
  completeWith: 'account.admin',
  inputs: {
    scope: { key: 'accounts', shape: 'ids', description: 'account', exists: (api, id) => api.getAccountShares(id), discovery: 'listAccounts' },
  },
  operations: ['listAccounts'],
  documentSchema: closedObject(['id'], {
    id: int, name: nullableStr, displayName: nullableStr, type: nullableStr, dataProviderType: nullableStr, valid: nullableBool, ownerId: nullableInt,
    credentialsType: { type: ['string', 'null'], description: 'fields or oauth' },
    shares: { type: 'array', items: principalSchema({ accessLevel: { enum: ['CAN_VIEW', 'CAN_EDIT', 'CAN_SHARE', 'OWNER'] } }), description: 'who the account is shared with (v1 READ/WRITE mapped to CAN_VIEW/CAN_EDIT)' },
    owner: ownerSchema,
  }),
  parts: { shares, owner },
  probes: [
    readProbe('accounts', ['listAccounts', 'getAccountShares'], 'every connector account can be listed', 'GET the account list', (api) => api.listAccounts(),
      "give the token's user the grant to manage all accounts (account.admin): without it only the accounts shared with them are listed"),
  ],
  collect: (ctx) =>
    listedResources(ctx.scope, () => ctx.api.listAccounts(), {
      kind: 'account', key: 'accounts', listing: 'the account list', idOf: (a) => String(a.id), nameOf: (a) => a.displayName ?? a.name,
      docOf: accountDoc,
      missingDoc: (id) => ({ id: Number(id) }),
    }),
};
