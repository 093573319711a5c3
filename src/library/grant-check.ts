// Whether the token's user holds the grants complete listings need (PLATFORM.md §7 E9): without
// one, a listing holds only what that user can see, and nothing in it says so. With
// `instance.tokenId`, the access-token list names the token's user (one read, shared with the
// expiry check through the client's memo), the user directory that user's role (both searches,
// read whole: the search takes no id), and the authorities list which roles hold each grant
// (`roleIds`); `steward doctor` says per kind whether it is held.
import { isApiError } from '../api/errors.js';
import type { InstanceApi } from '../api/types.js';
import type { Config } from '../config/index.js';
import { userDirectory } from '../resources/people.js';

/** The token's user and role, and whether that role holds each grant asked about (null: the authorities list does not name it). */
export interface GrantHolding {
  userId: string;
  userName: string | null;
  roleId: number;
  held: Map<string, boolean | null>;
}

/**
 * The grants' holding by the token's user, or the reason it cannot be told (a sentence): no
 * `instance.tokenId`, a token list the token's user may not read (403, 404), a token or user the
 * lists do not hold. Any other failure of a read (an answer that is drift, a 5xx, the network)
 * is thrown: an answer that cannot be trusted is never read as "cannot be told".
 */
export async function grantsHeld(api: InstanceApi, config: Config, grants: readonly string[]): Promise<GrantHolding | string> {
  const id = config.instance.tokenId;
  if (id === null) return 'instance.tokenId is not set: the token’s user is unknown';
  let token: { ownerId: number } | undefined;
  try {
    token = (await api.listAccessTokens()).find((t) => String(t.id) === id);
  } catch (err) {
    if (!isApiError(err) || (err.status !== 403 && err.status !== 404)) throw err;
    return `the access-token list was refused (${err.message}); the token user needs developer.token.manage`;
  }
  if (!token) return `access token ${id} (instance.tokenId) is not in the access-token list`;
  const userId = String(token.ownerId);
  const [directory, authorities] = await Promise.all([userDirectory(api), api.listAuthorities()]);
  const user = directory.get(userId);
  const roles = new Map(authorities.map((a) => [a.authority, a.roleIds ?? []]));
  if (!user || user.roleId === null) return `the token's user ${userId} is ${user ? 'listed without a role' : 'in no user listing'}`;
  const roleId = user.roleId;
  return { userId, userName: user.name, roleId, held: new Map(grants.map((g) => [g, roles.has(g) ? roles.get(g)!.includes(roleId) : null])) };
}
