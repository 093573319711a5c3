// Roles: the role list, with each role's grants and holders as lazy parts (one read per role,
// the holders paged); holders carry their state from the user directory. Read-only.
import { closedObject } from '../../core/schema-id.js';
import type { Role } from '../../api/types.js';
import { int, nullableInt, nullableStr, str } from '../../api/schemas.js';
import { noMemo, readAllPages, readProbe } from '../common.js';
import { inListing, listedResources } from '../discovery.js';
import { USER_STATES, userDirectory } from '../people.js';
import type { DocumentPart, ResourceKind } from '../types.js';

/**
 * System roles (Admin, Privileged, Editor, Participant, Social) have ids 1–5 on the platform
 * (PLATFORM.md §8, roles-list.json: custom roles have large ids); steward decides "system" by
 * id alone, so renaming a custom role "Admin" does not make it one.
 */
export const SYSTEM_ROLE_IDS: readonly number[] = [1, 2, 3, 4, 5];

/** The Admin system role's id (roles-list.json). */
export const ADMIN_ROLE_ID = 1;

const roleDoc = (r: Role) => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  system: SYSTEM_ROLE_IDS.includes(r.id),
  authorityCount: r.authorityCount ?? null,
  userCount: r.userCount ?? null,
});

/** A user's role from the role list (one read per run, shared). */
export const rolePart: DocumentPart = {
  name: 'role',
  operation: 'listRoles',
  async load(api, r) {
    const roleId = r.doc.roleId;
    const role = (await api.listRoles()).find((x) => x.id === roleId);
    if (!role) throw new Error(`listRoles: role ${JSON.stringify(roleId ?? null)} of user ${r.id} is not in the role list`);
    return { id: role.id, name: role.name, system: SYSTEM_ROLE_IDS.includes(role.id) };
  },
};

// Both parts read the role's grants: the client memoises the read, one request a role.
const grants: DocumentPart = {
  name: 'grants',
  operation: 'getRoleAuthorities',
  load: (api, r) => api.getRoleAuthorities(String(r.doc.id)),
};

/**
 * Which grants are admin-level: those the authorities list marks `adminLevel` (the platform's own
 * mark: `authorization.roles`, "assign anyone to any role", is one, `user.edit` another, and
 * neither ends in `.admin`), and every `*.admin` grant (each object type's admin grant, PLATFORM.md
 * §7 E9; `queue.admin` and `workflow.admin` are not marked). A grant the list does not hold has no
 * known level: an error of the policies reading `adminGrants`, never a grant taken as harmless.
 */
export const ADMIN_GRANT_RULE = "adminLevel true in the authorities list, or a name ending in '.admin'";

const adminGrants: DocumentPart = {
  name: 'adminGrants',
  operation: 'listAuthorities',
  alsoReads: ['getRoleAuthorities'],
  async load(api, r, once = noMemo) {
    const [levels, held] = await Promise.all([
      once('role:authority-levels', async () => new Map((await api.listAuthorities()).map((a) => [a.authority, a.adminLevel]))),
      api.getRoleAuthorities(String(r.doc.id)),
    ]);
    const unknown = held.filter((g) => !levels.has(g) && !g.endsWith('.admin'));
    if (unknown.length > 0) {
      throw new Error(`listAuthorities: role ${r.id} holds ${unknown.map((g) => JSON.stringify(g)).join(', ')}, which the authorities list does not hold: ${unknown.length === 1 ? 'its' : 'their'} admin level is unknown`);
    }
    return held.filter((g) => levels.get(g) === true || g.endsWith('.admin'));
  },
};

/** Every holder of the role, with the state the user directory gives (`unknown` when in no listing). */
const holders: DocumentPart = {
  name: 'holders',
  operation: 'listRoleUsers',
  alsoReads: ['searchUsers'],
  async load(api, r, once) {
    const [directory, users] = await Promise.all([userDirectory(api, once), readAllPages(api.listRoleUsers(String(r.doc.id)))]);
    return users.map((u) => {
      const known = directory.get(String(u.userId));
      return { id: String(u.userId), name: u.displayName ?? known?.name ?? null, email: u.email ?? known?.email ?? null, state: known?.state ?? 'unknown' };
    });
  },
};

export const role: ResourceKind = {
  name: 'role',
  description: 'Roles named in scope.roles or all of them, with their grants and holders (parts).',
  live: true,
  inputs: {
    scope: { key: 'roles', shape: 'ids', description: 'role', exists: inListing('role', 'the role list', (api) => api.listRoles(), (r) => String(r.id)), discovery: 'listRoles' },
  },
  operations: ['listRoles'],
  documentSchema: closedObject(['id', 'name', 'system'], {
    id: int, name: str, description: nullableStr, authorityCount: nullableInt, userCount: nullableInt,
    system: { type: 'boolean', description: 'a system role (ids 1–5: Admin, Privileged, Editor, Participant, Social)' },
    grants: { type: 'array', items: { type: 'string' }, description: 'the authorities (grants) the role holds' },
    adminGrants: { type: 'array', items: { type: 'string' }, description: `the role's admin-level grants: ${ADMIN_GRANT_RULE}` },
    holders: {
      type: 'array',
      description: 'the users holding the role, with their state',
      items: { type: 'object', properties: { id: str, name: nullableStr, email: nullableStr, state: { enum: [...USER_STATES, 'unknown'] } } },
    },
  }),
  parts: { grants, adminGrants, holders },
  ownerless: "a role belongs to the instance, not to a person: route it with the config's owners: map",
  probes: [
    readProbe('roles', ['listRoles', 'getRoleAuthorities', 'listAuthorities', 'listRoleUsers'], 'roles can be listed', 'GET the role list', (api) => api.listRoles(),
      "give the token's user the grant to manage roles (authorization.roles), or leave role policies out with --only"),
  ],
  collect: (ctx) =>
    listedResources(ctx.scope, () => ctx.api.listRoles(), {
      kind: 'role', key: 'roles', listing: 'the role list', idOf: (r) => String(r.id), nameOf: (r) => r.name,
      docOf: roleDoc,
      missingDoc: (id) => ({ id }),
    }),
};
