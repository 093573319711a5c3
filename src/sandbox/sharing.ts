// Sharing and row-level security in the sandbox: pages with their owners and shares, card shares,
// connector accounts and their share lists, file-set access, workflow permissions, PDP policies
// and the dataset listing's certification. Filler complies with every built-in sharing policy:
// pages and cards shared through groups, accounts editable only by groups, file sets and
// workflows writable by their owner and groups, and every certified dataset under PDP with a
// custom policy. The planted entities of demo/PLANTED.md are added by addPlantedSharing.
import type { PdpPolicy } from '../api/types.js';
import type { Random } from './random.js';

export interface SandboxPage {
  pageId: number;
  title: string;
  ownerIds: number[];
  /** Shared directly with these users, and with these groups. */
  users: number[];
  groups: number[];
}

export interface SandboxAccount {
  id: number;
  userId: number;
  name: string;
  dataProviderType: string;
  credentialsType: 'fields' | 'oauth';
  shares: { type: 'USER' | 'GROUP'; id: string; accessLevel: string }[];
}

/** The dataset listing's `certification` (part=certification). */
export interface ListedCertification {
  state: 'CERTIFIED' | 'PENDING' | 'REQUESTED' | 'EXPIRED';
  processType: string;
  processName: string;
  lastUpdated: number;
  adminCertified: boolean;
}

export interface SandboxSharing {
  pages: SandboxPage[];
  /** cardId → direct user shares and group shares (a card not here is shared with group 10001 only). */
  cardShares: Map<string, { users: number[]; groups: number[] }>;
  accounts: SandboxAccount[];
  /** filesetId → access entries (a set not here: its owner OWNER, group 10001 EDIT). */
  filesetAccess: Map<string, { entityId: number; entityType: 'USER' | 'GROUP'; permission: string }[]>;
  /** workflowId → permissions (a workflow not here: its owner OWNER, group 10001 EXECUTE). */
  workflowPermissions: Map<string, { USER: { id: string; name: string; permissions: string[] }[]; GROUP: { id: string; name: string; permissions: string[] }[] }>;
  /** datasetId → PDP policies, the open All Rows one included (a dataset not here has none). */
  pdp: Map<string, PdpPolicy[]>;
  /** datasetId → the listing's certification (a dataset not here carries none). */
  listedCertification: Map<string, ListedCertification>;
}

/** The group every filler share goes through (people.ts's first filler group). */
export const FILLER_SHARE_GROUP = 10_001;

export function emptySharing(): SandboxSharing {
  return { pages: [], cardShares: new Map(), accounts: [], filesetAccess: new Map(), workflowPermissions: new Map(), pdp: new Map(), listedCertification: new Map() };
}

/** A custom PDP policy giving a group the rows of one region: what every certified filler dataset has. */
export function regionPolicy(datasetId: string, filterGroupId: number, groupId: number): PdpPolicy {
  return {
    name: `Region ${filterGroupId}`,
    filterGroupId,
    dataSourceId: datasetId,
    dataSourcePermissions: true,
    parameters: [{ name: 'region', value: 'EMEA', values: ['EMEA'], type: 'COLUMN', operator: 'EQUALS', not: false, ignoreCase: true }],
    userIds: [],
    groupIds: [groupId],
    virtualUserIds: [],
  };
}

/** The open All Rows policy as the platform returns it with include_open_policy. */
export function allRowsPolicy(datasetId: string, filterGroupId: number, userIds: (number | string)[], groupIds: (number | string)[]): PdpPolicy {
  return { name: 'All Rows', filterGroupId, dataSourceId: datasetId, type: 'open', dataSourcePermissions: false, userIds, groupIds, virtualUserIds: [], order: 0 };
}

/** Filler pages and accounts, shared through groups; certified filler datasets get PDP. */
export function addSharing(sharing: SandboxSharing, rnd: Random, size: { pages: number; accounts: number }, owners: readonly number[], certifiedDatasets: readonly string[]): void {
  for (let i = 0; i < size.pages; i++) {
    sharing.pages.push({ pageId: 20_001 + i, title: `${rnd.pick(['Sales', 'Ops', 'Finance', 'Support'])} overview ${i + 1}`, ownerIds: [rnd.pick(owners)], users: [rnd.pick(owners)], groups: [FILLER_SHARE_GROUP] });
  }
  for (let i = 0; i < size.accounts; i++) {
    const owner = rnd.pick(owners);
    sharing.accounts.push({
      id: 30_001 + i,
      userId: owner,
      name: `Connector account ${i + 1}`,
      dataProviderType: rnd.pick(['snowflake', 'google-spreadsheets', 'salesforce']),
      credentialsType: rnd.pick(['fields', 'oauth']),
      shares: [
        { type: 'USER', id: String(owner), accessLevel: 'OWNER' },
        { type: 'USER', id: String(rnd.pick(owners)), accessLevel: 'CAN_VIEW' },
        { type: 'GROUP', id: String(FILLER_SHARE_GROUP), accessLevel: 'CAN_EDIT' },
      ],
    });
  }
  certifiedDatasets.forEach((id, i) => {
    sharing.pdp.set(id, [allRowsPolicy(id, 40_001 + 2 * i, [], []), regionPolicy(id, 40_002 + 2 * i, FILLER_SHARE_GROUP)]);
    sharing.listedCertification.set(id, { state: 'CERTIFIED', processType: 'COMPANY', processName: 'Company certification', lastUpdated: Date.UTC(2025, 0, 15), adminCertified: false });
  });
}
