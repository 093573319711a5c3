// The planted sharing of demo/PLANTED.md: a page and a card shared directly with too many users,
// a page owned by the deactivated user, a connector account editable by one user and one owned
// by the deleted user, a file set and a workflow editable by an individual user, a certified
// dataset without PDP, one whose open All Rows policy reaches everyone with access, one whose
// policy names the deleted user, an expired and a long-requested certification.
import { PLANTED_FILESET_ID, PLANTED_SHARE_GROUPS } from './demo.js';
import { PLANTED_PEOPLE } from './demo-people.js';
import { DAY_MS, FILLER_USERS } from './people.js';
import { allRowsPolicy, FILLER_SHARE_GROUP, regionPolicy } from './sharing.js';
import type { SandboxState } from './types.js';

export const PLANTED_PAGES = { wide: 8001, team: 8002, departedOwner: 8003 } as const;
export const PLANTED_ACCOUNTS = { editableByUser: 45, departedOwner: 46, compliant: 47 } as const;

export function addPlantedSharing(state: SandboxState, now: number): void {
  const { sharing } = state;
  const P = PLANTED_PEOPLE;
  const filler = FILLER_USERS.map(([id]) => id);
  // 12 users directly: over the default maxDirectUsers of 10.
  const twelve = [...filler, P.ana, P.ben, P.chen, P.dana];
  sharing.pages.push(
    { pageId: PLANTED_PAGES.wide, title: 'Executive Overview', ownerIds: [P.ana], users: twelve, groups: [] },
    // Drift: Dana Kim was given access outside the repository (demo/permissions/pages/team-home.yaml).
    { pageId: PLANTED_PAGES.team, title: 'Team Home', ownerIds: [P.ben], users: [101, P.dana], groups: [FILLER_SHARE_GROUP] },
    { pageId: PLANTED_PAGES.departedOwner, title: 'Old Launch Plan', ownerIds: [P.eva], users: [], groups: [FILLER_SHARE_GROUP] },
  );
  // 11 users directly on card 7002 (sent by most planted schedules).
  sharing.cardShares.set('7002', { users: twelve.slice(1), groups: [] });

  const share = (type: 'USER' | 'GROUP', id: number, accessLevel: string) => ({ type, id: String(id), accessLevel });
  sharing.accounts.push(
    { id: PLANTED_ACCOUNTS.editableByUser, userId: P.ana, name: 'Salesforce production', dataProviderType: 'salesforce', credentialsType: 'oauth',
      shares: [share('USER', P.ana, 'OWNER'), share('USER', P.ben, 'CAN_EDIT'), share('GROUP', FILLER_SHARE_GROUP, 'CAN_VIEW')] },
    { id: PLANTED_ACCOUNTS.departedOwner, userId: P.jo, name: 'Legacy SFTP', dataProviderType: 'sftp', credentialsType: 'fields',
      shares: [share('USER', P.jo, 'OWNER'), share('GROUP', FILLER_SHARE_GROUP, 'CAN_EDIT')] },
    { id: PLANTED_ACCOUNTS.compliant, userId: P.dana, name: 'Snowflake analytics', dataProviderType: 'snowflake', credentialsType: 'fields',
      shares: [share('USER', P.dana, 'OWNER'), share('USER', P.chen, 'CAN_VIEW'), share('GROUP', FILLER_SHARE_GROUP, 'CAN_SHARE')] },
  );

  sharing.filesetAccess.set(PLANTED_FILESET_ID, [
    { entityId: P.eva, entityType: 'USER', permission: 'OWNER' },
    { entityId: P.chen, entityType: 'USER', permission: 'EDIT' },
    { entityId: FILLER_SHARE_GROUP, entityType: 'GROUP', permission: 'READ' },
  ]);
  sharing.workflowPermissions.set('wf-nightly-refresh', {
    USER: [
      { id: String(P.jo), name: 'Jo Park', permissions: ['ADMIN'] },
      { id: String(P.ben), name: 'Ben Okafor', permissions: ['EDIT', 'EXECUTE'] },
    ],
    GROUP: [{ id: String(FILLER_SHARE_GROUP), name: 'Data Stewards 1', permissions: ['EXECUTE'] }],
  });

  // Certified without PDP: ds-sales-certified has no policy at all.
  // PDP whose open policy names every principal with access: ds-finance-certified.
  sharing.pdp.set('ds-finance-certified', [allRowsPolicy('ds-finance-certified', 797, [P.ana, P.ben], [PLANTED_SHARE_GROUPS.financeAdmins]), regionPolicy('ds-finance-certified', 798, FILLER_SHARE_GROUP)]);
  // A policy naming the deleted user 77: ds-hr-certified.
  sharing.pdp.set('ds-hr-certified', [allRowsPolicy('ds-hr-certified', 1148, [], []), { ...regionPolicy('ds-hr-certified', 1149, FILLER_SHARE_GROUP), userIds: [P.jo] }]);

  const listed = (state: 'CERTIFIED' | 'PENDING' | 'REQUESTED' | 'EXPIRED', lastUpdated: number) => ({ state, processType: 'COMPANY', processName: 'Company certification', lastUpdated, adminCertified: false });
  for (const id of ['ds-sales-certified', 'ds-hr-certified', 'ds-finance-certified']) sharing.listedCertification.set(id, listed('CERTIFIED', now - 60 * DAY_MS));
  sharing.listedCertification.set('ds-legacy-expired', listed('EXPIRED', now - 400 * DAY_MS));
  sharing.listedCertification.set('ds-scratch', listed('REQUESTED', now - 45 * DAY_MS));
}
