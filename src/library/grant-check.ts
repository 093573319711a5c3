// Whether the token's user holds the grants complete listings need (PLATFORM.md §7 E9): without
// one, a listing holds only what that user can see, and nothing in it says so. With
// `instance.tokenId`, the access-token list names the token's user (one read, shared with the
// expiry check through the client's memo), the user directory that user's role (both searches,
// read whole: the search takes no id), and the authorities list which roles hold each grant
// (`roleIds`); `steward doctor` says per kind whether it is held.
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

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The grants' holding by the token's user, or the reason it cannot be told (a sentence): no
 * `instance.tokenId`, a list that cannot be read, a token or user it does not hold.
 */
export async function grantsHeld(api: InstanceApi, config: Config, grants: readonly string[]): Promise<GrantHolding | string> {
  const id = config.instance.tokenId;
  if (id === null) return 'instance.tokenId is not set: the token’s user is unknown';
  let token: { ownerId: number } | undefined;
  try {
    token = (await api.listAccessTokens()).find((t) => String(t.id) === id);
  } catch (err) {
    return `the access-token list could not be read (${why(err)}); the token user needs developer.token.manage`;
  }
  if (!token) return `access token ${id} (instance.tokenId) is not in the access-token list`;
  const userId = String(token.ownerId);
  let roles: Map<string, readonly number[]>;
  let user: { name: string | null; roleId: number | null } | undefined;
  try {
    const [directory, authorities] = await Promise.all([userDirectory(api), api.listAuthorities()]);
    user = directory.get(userId);
    roles = new Map(authorities.map((a) => [a.authority, a.roleIds ?? []]));
  } catch (err) {
    return `the user search or the authorities list could not be read (${why(err)})`;
  }
  if (!user || user.roleId === null) return `the token's user ${userId} is ${user ? 'listed without a role' : 'in no user listing'}`;
  const roleId = user.roleId;
  return { userId, userName: user.name, roleId, held: new Map(grants.map((g) => [g, roles.has(g) ? roles.get(g)!.includes(roleId) : null])) };
}
