// Types of the identity reads (PLATFORM.md §8): only the fields steward reads are typed; the rest stay.

/** An attribute of the identity search: values are always a list. */
export interface UserAttribute {
  key: string;
  values: unknown[];
  [extra: string]: unknown;
}

export interface IdentityUser {
  id: number;
  attributes: UserAttribute[];
  displayName?: string | null;
  userName?: string | null;
  emailAddress?: string | null;
  roleId?: number | null;
  [extra: string]: unknown;
}

/** Owners' and members' ids are strings; a group may own itself. */
export interface GroupPrincipal {
  type: string;
  id: string;
  displayName?: string | null;
  [extra: string]: unknown;
}

export interface GroupListItem {
  groupId: number;
  name?: string | null;
  groupType?: string | null;
  memberCount?: number | null;
  owners?: GroupPrincipal[] | null;
  groupMembers?: GroupPrincipal[] | null;
  created?: string | number | null;
  [extra: string]: unknown;
}

export interface GroupUsers {
  groupUserList: { userId: number; role?: string | null; roleId?: number | null; lastSignIn?: string | null; [extra: string]: unknown }[];
  [extra: string]: unknown;
}

export interface Role {
  id: number;
  name: string;
  description?: string | null;
  authorityCount?: number | null;
  userCount?: number | null;
  [extra: string]: unknown;
}

export interface RoleUser {
  userId: number;
  displayName?: string | null;
  email?: string | null;
  roleId?: number | null;
  [extra: string]: unknown;
}

export interface AccessToken {
  id: number;
  ownerId: number;
  /** Epoch milliseconds. */
  expires: number;
  name?: string | null;
  ownerName?: string | null;
  ownerEmail?: string | null;
  [extra: string]: unknown;
}
