// Types of the sharing and row-level security reads (PLATFORM.md §8): only the fields steward
// reads are typed; the rest stay.

/** Owners in the page admin summary carry number ids; in the card admin summary, strings. */
export interface SummaryOwner {
  id: number | string;
  type: string;
  displayName?: string | null;
  [extra: string]: unknown;
}

export interface PageSummary {
  pageId: number;
  pageTitle?: string | null;
  pageType?: string | null;
  parentPageId?: number | null;
  topPageId?: number | null;
  ownerId?: number | null;
  owners?: SummaryOwner[] | null;
  locked?: boolean | null;
  lastModified?: number | string | null;
  cardCount?: number | null;
  [extra: string]: unknown;
}

export interface CardSummary {
  id: number;
  title?: string | null;
  type?: string | null;
  owners?: SummaryOwner[] | null;
  [extra: string]: unknown;
}

export interface SharedUser {
  id: number;
  displayName?: string | null;
  emailAddress?: string | null;
  [extra: string]: unknown;
}

/** Direct users, groups (with their users when expanded), the distinct people reached. */
export interface ContentAccessList {
  users: SharedUser[];
  groups: { id: number; name?: string | null; users?: SharedUser[] | null; [extra: string]: unknown }[];
  totalUserCount: number;
  resource: { id: string; type: string };
  [extra: string]: unknown;
}

export interface Account {
  id: number;
  userId?: number | null;
  name?: string | null;
  displayName?: string | null;
  type?: string | null;
  valid?: boolean | null;
  dataProviderType?: string | null;
  credentialsType?: string | null;
  [extra: string]: unknown;
}

export interface AccountShares {
  list: { type: string; id: string; accessLevel: string; name?: string | null; [extra: string]: unknown }[];
  totalUserCount?: number | null;
  [extra: string]: unknown;
}

export interface FilesetAccess {
  fileSetAccess: { entityId: number; entityType: 'USER' | 'GROUP'; permission: string; [extra: string]: unknown }[];
  [extra: string]: unknown;
}

export interface WorkflowPermissions {
  USER?: { id: string; name?: string | null; permissions: string[] }[];
  GROUP?: { id: string; name?: string | null; permissions: string[] }[];
  [extra: string]: unknown;
}

export interface PdpPolicy {
  filterGroupId: number;
  name: string;
  type?: string | null;
  dataSourcePermissions?: boolean | null;
  userIds?: (number | string)[] | null;
  groupIds?: (number | string)[] | null;
  virtualUserIds?: (number | string)[] | null;
  parameters?: unknown[] | null;
  [extra: string]: unknown;
}
