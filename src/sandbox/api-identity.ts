// Identity reads in the shapes PLATFORM.md §8 and its fixtures show: the user search (limit and
// offset in the body, `count` with showCount, deleted users only with onlyDeleted, attributes
// as `{key, values}`), the group list (a bare array paged by limit/offset), a group's members,
// the role list, a role's grants and holders (offset/limit with totalCount), the token list.
import type { Handlers, RequestContext } from './context.js';
import { HttpError, intParam, ok, parseJson, type Reply } from './http.js';
import { listingView } from './listing-view.js';
import { type SandboxUser, userAttributes } from './people.js';

const DEFAULT_ATTRIBUTES = ['id', 'displayName', 'userName', 'emailAddress', 'roleId'];

function searchUsers(ctx: RequestContext): Reply {
  const body = (parseJson(ctx.body) ?? {}) as Record<string, unknown>;
  const limit = typeof body.limit === 'number' ? body.limit : 50;
  const offset = ctx.switches.ignoreSkip ? 0 : typeof body.offset === 'number' ? body.offset : 0;
  const asked = Array.isArray(body.attributes) ? (body.attributes as string[]) : DEFAULT_ATTRIBUTES;
  const which = body.onlyDeleted === true ? 'deleted' : body.includeDeleted === true ? 'all' : 'live';
  const matches = (u: SandboxUser) => (which === 'deleted' ? u.state === 'deleted' : which === 'all' || u.state !== 'deleted');
  // Filtered and sorted once a listing (its first page), not for every page: 100,000 users took
  // 4.3 s of the sandbox's time to list 200 a page, each page sorting them all again.
  const rows = listingView(ctx.state, `users:${which}`, offset, () =>
    ctx.state.people.users.filter(matches).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)),
  );
  const users = rows.slice(offset, offset + limit).map((u) => ({
    id: u.id,
    displayName: u.name,
    userName: u.email,
    emailAddress: u.email,
    roleId: u.roleId,
    attributes: userAttributes(u, asked),
  }));
  return ok(body.showCount === true ? { count: rows.length, users } : { users });
}

function listGroups(ctx: RequestContext): Reply {
  const limit = intParam(ctx.query, 'limit') ?? 30;
  const offset = ctx.switches.ignoreSkip ? 0 : (intParam(ctx.query, 'offset') ?? 0);
  // Deleted groups are left out: the sandbox's choice, no source says whether the list shows them.
  const live = listingView(ctx.state, 'groups:live', offset, () => ctx.state.people.groups.filter((g) => !g.deleted));
  return ok(
    live.slice(offset, offset + limit).map((g) => ({
      name: g.name,
      groupId: g.groupId,
      owners: g.owners,
      groupType: g.groupType,
      memberCount: g.members.length,
      created: g.created,
      description: '',
    })),
  );
}

function getGroupUsers(ctx: RequestContext): Reply {
  const group = ctx.state.people.groups.find((g) => String(g.groupId) === ctx.query.get('group'));
  if (!group) throw new HttpError(404, 'Not Found');
  const users = new Map(ctx.state.people.users.map((u) => [u.id, u]));
  const roles = new Map(ctx.state.people.roles.map((r) => [r.id, r.name]));
  return ok({
    groupUserList: group.members.map((id) => {
      const u = users.get(id);
      const lastSignIn = u?.lastLogin ? new Date(u.lastLogin).toISOString().replace('T', ' ').replace('Z', '') : null;
      return { userId: id, role: u ? (roles.get(u.roleId) ?? null) : null, roleId: u?.roleId ?? null, lastSignIn, location: null };
    }),
  });
}

/** One group as group-get.json shows it, a deleted one too (`active: false`, its name suffixed); 404 for an unknown id. */
function getGroup(ctx: RequestContext): Reply {
  const group = ctx.state.people.groups.find((g) => String(g.groupId) === ctx.params.groupId);
  if (!group) throw new HttpError(404, 'Not Found');
  return ok({
    id: group.groupId,
    name: group.deleted ? `${group.name}_deleted_7ece7d46-48ef-11ee-b1a1-${String(group.groupId).padStart(12, '0')}` : group.name,
    type: group.groupType,
    userIds: group.members,
    creatorId: group.members[0] ?? null,
    memberCount: group.members.length,
    guid: `aabb6587-ad53-11ed-82c3-${String(group.groupId).padStart(12, '0')}`,
    description: '',
    hidden: false,
    default: false,
    active: !group.deleted,
  });
}

function listRoles(ctx: RequestContext): Reply {
  const { users, roles } = ctx.state.people;
  return ok(
    roles.map((r) => ({
      authorityCount: r.grants.length,
      created: 1758313608000,
      description: r.description,
      id: r.id,
      modified: 1758313608000,
      name: r.name,
      userCount: users.filter((u) => u.roleId === r.id && u.state !== 'deleted').length,
    })),
  );
}

function roleOf(ctx: RequestContext) {
  return ctx.state.people.roles.find((r) => String(r.id) === ctx.params.roleId);
}

/** An unknown role answers 404 here; the platform's answer for one is not captured. */
function getRoleAuthorities(ctx: RequestContext): Reply {
  const role = roleOf(ctx);
  if (!role) throw new HttpError(404, 'Not Found');
  return ok([...role.grants]);
}

/** The authorities list as captured: each grant with its admin level, the roles holding it and their users. */
function listAuthorities(ctx: RequestContext): Reply {
  const { users, roles, authorities } = ctx.state.people;
  return ok(
    authorities.map(([authority, adminLevel, authorityUIGroup, title]) => {
      const roleIds = roles.filter((r) => r.grants.includes(authority)).map((r) => r.id);
      return {
        adminLevel,
        assignableByCustomer: true,
        authority,
        authorityUIGroup,
        dependsOnAuthorities: [],
        dependsOnFeature: [],
        description: title,
        implicitAuthorities: [],
        roleIds,
        systemGroup: true,
        title,
        userCount: users.filter((u) => roleIds.includes(u.roleId) && u.state !== 'deleted').length,
      };
    }),
  );
}

/** Holders of the role (deleted users hold nothing); an unknown role is an empty list, as captured. */
function listRoleUsers(ctx: RequestContext): Reply {
  const role = roleOf(ctx);
  const holders = role ? ctx.state.people.users.filter((u) => u.roleId === role.id && u.state !== 'deleted') : [];
  const limit = intParam(ctx.query, 'limit') ?? 50;
  const offset = ctx.switches.ignoreSkip ? 0 : (intParam(ctx.query, 'offset') ?? 0);
  const users = holders.slice(offset, offset + limit).map((u) => ({ userId: u.id, email: u.email, displayName: u.name, roleId: u.roleId }));
  return ok({ totalCount: holders.length, totalFilteredCount: holders.length, users });
}

function listAccessTokens(ctx: RequestContext): Reply {
  return ok(ctx.state.people.accessTokens.map((t) => ({ ...t, ownerName: null, ownerEmail: null })));
}

export const handlers = { searchUsers, listGroups, getGroupUsers, getGroup, listRoles, getRoleAuthorities, listAuthorities, listRoleUsers, listAccessTokens } satisfies Handlers;
