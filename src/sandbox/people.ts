// The instance's people in the sandbox: users (live, pending, deactivated, deleted), roles with
// their grants, groups with owners and members, access tokens, and the owners of content the
// listings carry. Filler complies with every built-in identity policy; the planted people of
// demo/PLANTED.md are added by addPlantedPeople. Dates are relative to the state's creation
// (`now`): dormancy and token lifetimes are judged against the run's clock.
import type { AccessToken, GroupPrincipal } from '../api/types.js';
import type { Random } from './random.js';

export type SandboxUserState = 'active' | 'pending' | 'deactivated' | 'deleted';

export interface SandboxUser {
  id: number;
  name: string;
  email: string;
  roleId: number;
  state: SandboxUserState;
  systemUser: boolean;
  /** Epoch milliseconds. */
  created: number;
  lastLogin: number | null;
}

export interface SandboxRole {
  id: number;
  name: string;
  description: string;
  grants: string[];
}

export interface SandboxGroup {
  groupId: number;
  name: string;
  groupType: string;
  owners: GroupPrincipal[];
  /** Member user ids. */
  members: number[];
  created: string;
  /** Deleted: in no group list; `GET /groups/{id}` still answers, `active: false` (group-get.json). */
  deleted?: boolean;
}

/** An authority of the instance's catalog: name, the platform's admin-level mark, UI group, title. */
export type SandboxAuthority = readonly [authority: string, adminLevel: boolean, group: string, title: string];

export interface SandboxPeople {
  users: SandboxUser[];
  roles: SandboxRole[];
  /** The authorities list (every grant a role here holds, as authorities-list.json has it). */
  authorities: SandboxAuthority[];
  groups: SandboxGroup[];
  accessTokens: AccessToken[];
  /** Owner user ids the listings carry: queue id → id (string), data file id → id, file set id → id (string), card id → id. */
  owners: { queues: Map<string, string>; dataFiles: Map<string, number>; filesets: Map<string, string>; cards: Map<string, number> };
}

export const DAY_MS = 86_400_000;

/** The Admin role's grants (role-authorities.json, abridged): a system role may hold admin grants. */
const ADMIN_GRANTS = ['content.admin', 'dataset.admin', 'group.admin', 'user.edit', 'authorization.roles', 'developer.token.manage', 'account.admin', 'workflow.admin', 'queue.admin'];

/** System roles 1–5 (roles-list.json) and two custom roles: "Default" (compliant) and "Super Admin" (planted). */
export const SANDBOX_ROLES: readonly SandboxRole[] = [
  { id: 1, name: 'Admin', description: 'Full access to everything', grants: ADMIN_GRANTS },
  { id: 2, name: 'Privileged', description: 'Full access except for editing users and settings owners', grants: ['content.admin', 'dataset.admin', 'content.card.edit'] },
  { id: 3, name: 'Editor', description: 'Can edit Cards, Pages, DataSets, and Dataflows', grants: ['content.card.edit', 'content.page.edit', 'dataset.manage'] },
  { id: 4, name: 'Participant', description: 'Read only access to Cards and Pages', grants: ['content.export'] },
  { id: 5, name: 'Social', description: 'Access limited to social features', grants: ['ai.chat'] },
  { id: 856876397, name: 'Default', description: 'The default role of this instance', grants: ['content.card.edit', 'dataset.export', 'alert.actions'] },
];

/** The catalog entries of every grant the sandbox's roles hold, from authorities-list.json. */
export const SANDBOX_AUTHORITIES: readonly SandboxAuthority[] = [
  ['authorization.roles', true, 'COMPANY', 'Manage all roles'],
  ['user.edit', true, 'USERS_GROUPS', 'Manage all users'],
  ['developer.token.manage', true, 'COMPANY', 'Manage all access tokens and API clients'],
  ['group.admin', true, 'USERS_GROUPS', 'Manage all groups'],
  ['content.admin', true, 'CARDS_PAGES', 'Manage all Cards, Pages, Apps (App Studio), Worksheets and Reports (Report Builder)'],
  ['account.admin', true, 'DATA', 'Manage all accounts'],
  ['dataset.admin', true, 'DATA', 'Manage DataSet'],
  ['workflow.admin', false, 'WORKFLOWS', 'Manage Workflows'],
  ['queue.admin', false, 'QUEUES', 'Manage Task Queues'],
  ['content.card.edit', false, 'CARDS_PAGES', 'Edit Cards'],
  ['content.page.edit', false, 'CARDS_PAGES', 'Edit Pages'],
  ['dataset.manage', false, 'DATA', 'Edit DataSet'],
  ['dataset.export', false, 'DATA', 'Export DataSet'],
  ['content.export', false, 'CARDS_PAGES', 'Export from Domo'],
  ['alert.actions', false, 'ALERTS', 'Use Alert Actions'],
  ['ai.chat', false, 'AI_SERVICES', 'Use AI Chat'],
];

/** Filler users: active, signed in within the last 30 days, never Admin. */
export const FILLER_USERS = [
  [101, 'Priya Shah'],
  [102, 'Tom Becker'],
  [103, 'Lucia Romano'],
  [104, 'Kwame Mensah'],
  [105, 'Sofia Lindqvist'],
  [106, 'Hiro Tanaka'],
  [107, 'Maya Cohen'],
  [108, 'Omar Farouk'],
] as const;

const emailOf = (name: string) => `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;

export function emptyPeople(): SandboxPeople {
  return { users: [], roles: SANDBOX_ROLES.map((r) => ({ ...r, grants: [...r.grants] })), authorities: [...SANDBOX_AUTHORITIES], groups: [], accessTokens: [], owners: { queues: new Map(), dataFiles: new Map(), filesets: new Map(), cards: new Map() } };
}

/** Filler people: `extraUsers` generated users beyond the eight named ones, `groups` groups each owned and populated, `tokens` short-lived tokens. */
export function addPeople(people: SandboxPeople, rnd: Random, now: number, size: { users: number; groups: number; accessTokens: number }): void {
  const names: [number, string][] = FILLER_USERS.map(([id, name]) => [id, name]);
  for (let i = 0; i < size.users; i++) names.push([200_001 + i, `User ${200_001 + i}`]);
  for (const [id, name] of names) {
    people.users.push({
      id,
      name,
      email: emailOf(name),
      roleId: rnd.pick([3, 4, 856876397]),
      state: 'active',
      systemUser: false,
      created: now - rnd.int(200, 900) * DAY_MS,
      lastLogin: now - rnd.int(0, 30) * DAY_MS - rnd.int(0, 23) * 3_600_000,
    });
  }
  const userIds = names.map(([id]) => id);
  for (let i = 0; i < size.groups; i++) {
    const owner = rnd.pick(userIds);
    const members = [...new Set([owner, rnd.pick(userIds), rnd.pick(userIds)])];
    people.groups.push({
      groupId: 10_001 + i, // far from the planted 301–303
      name: `${rnd.pick(['Data Stewards', 'BI Developers', 'Regional Managers', 'Analytics Guild'])} ${i + 1}`,
      groupType: rnd.pick(['open', 'closed']),
      owners: [{ type: 'USER', id: String(owner), displayName: names.find(([id]) => id === owner)![1] }],
      members,
      created: '2023-06-08 20:59:05.0',
    });
  }
  for (let i = 0; i < size.accessTokens; i++) {
    people.accessTokens.push({ id: 1_000_001 + i, name: `Filler token ${i + 1}`, ownerId: rnd.pick(userIds), ownerName: null, ownerEmail: null, expires: now + rnd.int(5, 80) * DAY_MS });
  }
}

/** The users a listing's owner may name: the named filler users (content filler picks its owners here). */
export const FILLER_OWNER_IDS = FILLER_USERS.map(([id]) => id);

/** The identity search's attributes of one user, as the platform sends them (`{key, values: [...]}`). */
export function userAttributes(u: SandboxUser, asked: readonly string[]): { key: string; values: unknown[] }[] {
  const all: Record<string, unknown> = {
    id: u.id,
    displayName: u.name,
    userName: u.email,
    emailAddress: u.email,
    roleId: u.roleId,
    isActive: u.state === 'active' || u.state === 'pending',
    isPending: u.state === 'pending',
    isSystemUser: u.systemUser,
    created: u.created,
    lastLogin: u.lastLogin,
    lastActivity: u.lastLogin,
  };
  // Attributes with no value are left out, as the platform does for a user who never signed in.
  return asked.filter((k) => Object.hasOwn(all, k) && all[k] !== null).map((key) => ({ key, values: [all[key]] }));
}
