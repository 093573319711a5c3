// Groups: the group list (owners and member counts in the listing itself), with each group's
// members as a lazy part (one read per group), their state from the user directory. Read-only.
import { closedObject } from '../../core/schema-id.js';
import type { GroupListItem, GroupPrincipal } from '../../api/types.js';
import { int, nullableInt, nullableStr, str } from '../../api/schemas.js';
import { firstPage, readProbe } from '../common.js';
import { listedResources } from '../discovery.js';
import { firstOwnerPart, ownerSchema, ownersListDrift, readGroup, resolvedOwnersPart, resolvedOwnersSchema, USER_STATES, userDirectory } from '../people.js';
import { principalSchema } from '../sharing.js';
import type { DocumentPart, KindProbe, ResourceKind } from '../types.js';

const principal = (p: GroupPrincipal) => ({ type: p.type, id: p.id, name: p.displayName ?? null });

/** The group as policies see it. */
function groupDoc(g: GroupListItem) {
  const { groupId: id, name = null, groupType: type = null, memberCount = null, created = null } = g;
  return { id, name, type, memberCount, owners: (g.owners ?? []).map(principal), created };
}

/** A listing item without owners or a member count cannot be judged (drift). */
function groupDrift(g: GroupListItem): Error | undefined {
  const owners = ownersListDrift('listGroups', `group ${g.groupId}`, g.owners);
  if (owners) return owners;
  return typeof g.memberCount === 'number' ? undefined : new Error(`listGroups: API drift at memberCount of group ${g.groupId}: missing, so the group cannot be judged`);
}

const members: DocumentPart = {
  name: 'members',
  operation: 'getGroupUsers',
  alsoReads: ['searchUsers'],
  async load(api, r, once) {
    const [directory, answer] = await Promise.all([userDirectory(api, once), api.getGroupUsers(String(r.doc.id))]);
    return answer.groupUserList.map((m) => {
      const known = directory.get(String(m.userId));
      return { id: String(m.userId), name: known?.name ?? null, roleId: m.roleId ?? null, lastSignIn: m.lastSignIn ?? null, state: known?.state ?? 'unknown' };
    });
  },
};

/** The listing's first owner (the `owners` list in the document has them all); a group may own itself. */
const owner = firstOwnerPart('listGroups');
const resolvedOwners = resolvedOwnersPart('listGroups');

/**
 * An owning group's state is its own read (`getGroup`, people.ts resolveGroupOwner), which no
 * listing probe covers: the first listed group read by id, its answer about that group and
 * saying whether it is active. With no group listed there is no group owner to read either.
 */
const groupReadProbe: KindProbe = {
  id: 'groupRead',
  when: ['getGroup'],
  plan: () => ({
    check: "a group can be read by id (an owning group's state)",
    asked: 'GET the first listed group by its id',
    async run(api) {
      const [first] = await firstPage(api.listGroups());
      if (first) await readGroup(api, String(first.groupId));
    },
    fix: (status) =>
      status === 403 || status === 404
        ? "give the token's user the grant to manage groups (group.admin): without it no group owning a group, page or card can be told active or deleted"
        : 'the group read did not answer as the platform does (above): until it does, each group, page or card a group owns ends in error',
  }),
};

export const group: ResourceKind = {
  name: 'group',
  description: 'Groups named in scope.groups or all of them, with their owners and (a part) their members.',
  live: true,
  completeWith: 'group.admin',
  inputs: {
    scope: { key: 'groups', shape: 'ids', description: 'group', exists: (api, id) => api.getGroupUsers(id), discovery: 'listGroups' },
  },
  operations: ['listGroups'],
  documentSchema: closedObject(['id', 'owners'], {
    id: int, name: nullableStr, memberCount: nullableInt,
    type: { type: ['string', 'null'], description: 'open, closed, adhoc, dynamic, system' },
    owners: { type: 'array', items: principalSchema(), description: 'users and groups owning the group (a group may own itself)' },
    created: { type: ['string', 'integer', 'null'] },
    owner: { ...ownerSchema, description: `the first owner; ${ownerSchema.description}` },
    resolvedOwners: resolvedOwnersSchema,
    members: {
      type: 'array',
      description: 'the member users, with their state',
      items: { type: 'object', properties: { id: str, name: nullableStr, roleId: nullableInt, lastSignIn: nullableStr, state: { enum: [...USER_STATES, 'unknown'] } } },
    },
  }),
  parts: { members, owner, resolvedOwners },
  probes: [
    readProbe('groups', ['listGroups', 'getGroupUsers'], 'groups can be listed', 'GET the first page of the group list', (api) => api.listGroups(),
      "give the token's user the grant to manage groups (group.admin), or leave group policies out with --only"),
    groupReadProbe,
  ],
  collect: (ctx) =>
    // Owners and member counts come with the listing: it is read whole even for named groups.
    listedResources(ctx.scope, () => ctx.api.listGroups(), {
      kind: 'group', key: 'groups', listing: 'the group list', idOf: (g) => String(g.groupId), nameOf: (g) => g.name,
      docOf: groupDoc,
      driftOf: groupDrift,
      missingDoc: (id) => ({ id: Number(id), owners: [] }),
    }),
};
