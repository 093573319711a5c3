// Users: the identity search's live and deleted users (one directory per run, shared with every
// `owner` part), each with its state, role and last sign-in. Read-only.
import { closedObject } from '../../core/schema-id.js';
import { bool, int, nullableInt, nullableStr, str } from '../../api/schemas.js';
import type { InstanceApi } from '../../api/types.js';
import { readProbe } from '../common.js';
import { listedResources } from '../discovery.js';
import { USER_STATE_RULE, USER_STATES, userDirectory } from '../people.js';
import { rolePart } from './role.js';
import type { ResourceKind } from '../types.js';

const inDirectory = async (api: InstanceApi, id: string) => {
  if (!(await userDirectory(api)).has(id)) throw new Error(`user ${id} is in neither the live nor the deleted user listing`);
};

const millis = { type: ['integer', 'null'], description: 'epoch milliseconds, null when the platform has none' };

export const user: ResourceKind = {
  name: 'user',
  description: `Users named in scope.users or all of them (the identity search, deleted users included); state: ${USER_STATE_RULE}.`,
  live: true,
  completeWith: 'user.edit',
  inputs: {
    scope: { key: 'users', shape: 'ids', description: 'user', exists: inDirectory, discovery: 'searchUsers' },
  },
  operations: ['searchUsers'],
  documentSchema: closedObject(['id', 'state'], {
    id: str, name: nullableStr, email: nullableStr, roleId: nullableInt,
    state: { enum: [...USER_STATES], description: USER_STATE_RULE },
    systemUser: { type: 'boolean', description: "the platform's own users (isSystemUser)" },
    created: millis, lastLogin: millis, lastActivity: millis,
    role: { type: 'object', description: 'the role: id, name, system (read from the role list)', properties: { id: int, name: str, system: bool } },
  }),
  parts: { role: rolePart },
  ownerless: "a user is a person, not content: route user findings with the config's owners: map",
  probes: [
    readProbe('userSearch', ['searchUsers'], 'users can be listed (the identity search)', 'POST the user search (the first page of live users)', (api) => api.searchUsers(),
      "give the token's user the grant to manage users (user.edit, Admin › Roles › Grants), or leave user and owner policies out with --only"),
  ],
  async *collect(ctx) {
    if ((ctx.scope.ids.users ?? []).length === 0 && !ctx.scope.discover.users) return;
    // The directory (both searches) is the listing: shared with every owner part of the run.
    const directory = await userDirectory(ctx.api, ctx.once);
    yield* listedResources(ctx.scope, async () => [...directory.values()], {
      kind: 'user', key: 'users', listing: 'the live or the deleted user listing', idOf: (u) => u.id, nameOf: (u) => u.name,
      docOf: (u) => ({ ...u }),
      missingDoc: (id) => ({ id, state: 'deleted' }),
    });
  },
};
