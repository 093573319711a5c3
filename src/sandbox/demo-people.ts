// The planted people of demo/PLANTED.md: six active Admins (one over the default maximum), a
// dormant break-glass account, a stale invitation, a deactivated and a deleted user who still
// own content and a token, a custom role holding admin grants, a group with no member and one
// with no owner, and three tokens (too long-lived, expired, owned by the deactivated user).
import { PLANTED_FILESET_ID, PLANTED_SHARE_GROUPS } from './demo.js';
import { DAY_MS, type SandboxUser } from './people.js';
import type { SandboxState } from './types.js';

/** Ids the planted content and tokens name (the same people the planted queues and files name). */
export const PLANTED_PEOPLE = { ana: 7, ben: 9, chen: 12, breakGlass: 15, dana: 22, eva: 31, jo: 77, invited: 60 } as const;

/** The custom role holding admin grants (roles-list.json's "Super Admin"). */
export const PLANTED_ADMIN_ROLE_ID = 428016579;

export const PLANTED_TOKENS = { longLived: 186852, expired: 186918, departedOwner: 186953 } as const;

export const PLANTED_GROUPS = { empty: 301, ownerless: 302, selfOwned: 303, departedOwner: 307 } as const;

export function addPlantedPeople(state: SandboxState, now: number): void {
  const people = state.people;
  const user = (id: number, name: string, over: Partial<SandboxUser> = {}): SandboxUser => ({
    id,
    name,
    email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
    roleId: 1,
    state: 'active',
    systemUser: false,
    created: now - 700 * DAY_MS,
    lastLogin: now - 2 * DAY_MS,
    ...over,
  });
  const P = PLANTED_PEOPLE;
  people.users.push(
    user(P.ana, 'Ana Ruiz'),
    user(P.ben, 'Ben Okafor'),
    user(P.chen, 'Chen Wei'),
    user(P.breakGlass, 'On-call Break Glass', { lastLogin: now - 200 * DAY_MS }),
    user(P.dana, 'Dana Kim'),
    user(P.eva, 'Eva Novak', { roleId: 3, state: 'deactivated', lastLogin: now - 120 * DAY_MS }),
    user(P.jo, 'Jo Park', { roleId: 3, state: 'deleted', lastLogin: now - 400 * DAY_MS }),
    user(P.invited, 'Invited Contractor', { roleId: 4, state: 'pending', created: now - 45 * DAY_MS, lastLogin: null }),
  );
  // The sixth active Admin: the default maxAdmins is 5.
  const priya = people.users.find((u) => u.id === 101);
  if (priya) priya.roleId = 1;

  people.roles.push({ id: PLANTED_ADMIN_ROLE_ID, name: 'Super Admin', description: 'All grants', grants: ['content.card.edit', 'dataset.admin', 'user.edit'] });

  people.groups.push(
    { groupId: PLANTED_GROUPS.empty, name: 'Project Phoenix', groupType: 'closed', owners: [{ type: 'USER', id: String(P.ana), displayName: 'Ana Ruiz' }], members: [], created: '2025-01-01T12:00:00' },
    { groupId: PLANTED_GROUPS.ownerless, name: 'Orphaned Analysts', groupType: 'open', owners: [], members: [102, 103], created: '2023-06-08 20:59:05.0' },
    // A group can own itself (groups-grouplist.json): that is an owner.
    { groupId: PLANTED_GROUPS.selfOwned, name: 'Data Stewards Council', groupType: 'closed', owners: [{ type: 'GROUP', id: String(PLANTED_GROUPS.selfOwned), displayName: 'Data Stewards Council' }], members: [P.ana, 104], created: '2023-06-08 20:59:05.0' },
    // Owned by the deleted user: nobody reviews who joins it.
    { groupId: PLANTED_GROUPS.departedOwner, name: 'Legacy Reporting', groupType: 'closed', owners: [{ type: 'USER', id: String(P.jo), displayName: 'Jo Park' }], members: [102, 104], created: '2022-02-01T08:00:00' },
  );
  // The groups the planted datasets are shared with: owned, with members (no group finding).
  const G = PLANTED_SHARE_GROUPS;
  const ana = { type: 'USER' as const, id: String(P.ana), displayName: 'Ana Ruiz' };
  people.groups.push(
    { groupId: G.salesAnalysts, name: 'Sales Analysts', groupType: 'open', owners: [ana], members: [101, 102, 105], created: '2024-03-01T09:00:00' },
    { groupId: G.financeAdmins, name: 'Finance Admins', groupType: 'closed', owners: [ana], members: [P.ana, P.ben, 106], created: '2024-03-01T09:00:00' },
    { groupId: G.marketingAnalysts, name: 'Marketing Analysts', groupType: 'open', owners: [ana], members: [P.chen, 107, 108], created: '2024-03-01T09:00:00' },
  );

  const T = PLANTED_TOKENS;
  people.accessTokens.push(
    { id: T.longLived, name: 'ci-deploy', ownerId: P.ana, ownerName: null, ownerEmail: null, expires: now + 365 * DAY_MS },
    { id: T.expired, name: 'old-export', ownerId: P.ben, ownerName: null, ownerEmail: null, expires: now - 10 * DAY_MS },
    { id: T.departedOwner, name: 'eva-sync', ownerId: P.eva, ownerName: null, ownerEmail: null, expires: now + 20 * DAY_MS },
  );

  // Content owned by the deactivated (31) and the deleted (77) user, one item per content kind.
  const schedule = state.schedules.find((s) => s.id === 9003);
  if (schedule) schedule.ownerId = P.jo;
  people.owners.cards.set('7001', P.eva);
  people.owners.queues.set('q-hr-requests', String(P.eva));
  people.owners.dataFiles.set('43', P.jo);
  people.owners.filesets.set(PLANTED_FILESET_ID, String(P.eva));
  const workflow = state.workflows.find((w) => w.id === 'wf-nightly-refresh');
  if (workflow) workflow.owner = String(P.jo);
}
