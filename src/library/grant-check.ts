// Whether the token's user holds the grants complete listings need (PLATFORM.md §7 E9): without
// one, a listing holds only what that user can see, and nothing in it says so. With
// `instance.tokenId`, the access-token list names the token's user (one read, shared with the
// expiry check through the client's memo), the user directory that user's role (both searches,
// read whole: the search takes no id), and the authorities list which roles hold each grant
// (`roleIds`); `steward doctor` says per kind whether it is held, and `check` takes a kind it
// judged from its listing, the grant not held, for a partial listing (coverage: exit 3 unless
// acceptPartialCoverage names it).
import { isApiError } from '../api/errors.js';
import type { InstanceApi } from '../api/types.js';
import type { Config } from '../config/index.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import { userDirectory } from '../resources/people.js';
import type { ResourceKind, RunMemo, Scope } from '../resources/types.js';

/** The token's user and role, and whether that role holds each grant asked about (null: the authorities list does not name it). */
export interface GrantHolding {
  userId: string;
  userName: string | null;
  roleId: number;
  held: Map<string, boolean | null>;
}

/** The token's user and role as doctor and check name them: `user Ana Ruiz (7), role 1`. */
export const holderOf = (h: GrantHolding): string => `user ${h.userName ? `${h.userName} (${h.userId})` : h.userId}, role ${h.roleId}`;

/**
 * The grants' holding by the user of access token `id` (instance.tokenId), or the reason it
 * cannot be told (a sentence): a token list the token's user may not read (403, 404), a token or
 * user the lists do not hold. Any other failure of a read (an answer that is drift, a 5xx, the network)
 * is thrown: an answer that cannot be trusted is never read as "cannot be told".
 */
export async function grantsHeld(api: InstanceApi, id: string, grants: readonly string[], once?: RunMemo): Promise<GrantHolding | string> {
  let token: { ownerId: number } | undefined;
  try {
    token = (await api.listAccessTokens()).find((t) => String(t.id) === id);
  } catch (err) {
    if (!isApiError(err) || (err.status !== 403 && err.status !== 404)) throw err;
    return `the access-token list was refused (${err.message}); the token user needs developer.token.manage`;
  }
  if (!token) return `access token ${id} (instance.tokenId) is not in the access-token list`;
  const userId = String(token.ownerId);
  const [directory, authorities] = await Promise.all([userDirectory(api, once), api.listAuthorities()]);
  const user = directory.get(userId);
  const roles = new Map(authorities.map((a) => [a.authority, a.roleIds ?? []]));
  if (!user || user.roleId === null) return `the token's user ${userId} is ${user ? 'listed without a role' : 'in no user listing'}`;
  const roleId = user.roleId;
  return { userId, userName: user.name, roleId, held: new Map(grants.map((g) => [g, roles.has(g) ? roles.get(g)!.includes(roleId) : null])) };
}

/** Whether a run judges the kind's listing whole: discovered with `all`, or a kind with no ids to name (report schedules). */
const judgedFromListing = (kind: ResourceKind, scope: Scope): boolean => {
  const input = kind.inputs.scope;
  return input === undefined || Object.hasOwn(scope.discover, input.key);
};

/** What `check` learns from the grants: per kind, why its listing is partial; and why they could not be told, if so. */
export interface ListingGrants {
  partial: Map<string, string>;
  untold: string | null;
}

/**
 * The kinds of `kinds` a run judged from their listing whose complete listing needs a grant the
 * token's user's role does not hold (instance.tokenId set; nothing asked otherwise), each with
 * why its listing is partial. Named ids are not in question: one a partial listing lacks is
 * already an error. A read behind the check that fails or is drift leaves every such kind
 * partial (its listing cannot be trusted whole); a token or user the lists do not hold, or a
 * token list refused, is only `untold` (a warning): as in doctor.
 */
export async function listingGrants(api: InstanceApi, config: Config, kinds: readonly string[], once: RunMemo): Promise<ListingGrants> {
  const judged = kinds
    .map((k) => RESOURCE_KINDS[k])
    .filter((k): k is ResourceKind => k?.completeWith !== undefined && judgedFromListing(k, config.scope));
  const id = config.instance.tokenId;
  if (id === null || judged.length === 0) return { partial: new Map(), untold: null };
  let holding: GrantHolding | string;
  try {
    holding = await grantsHeld(api, id, [...new Set(judged.map((k) => k.completeWith!))], once);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { partial: new Map(judged.map((k) => [k.name, `whether the token's user holds ${k.completeWith} could not be told (${why})`])), untold: null };
  }
  if (typeof holding === 'string') return { partial: new Map(), untold: `the grants complete listings need were not checked: ${holding}` };
  const who = holderOf(holding);
  const partial = new Map<string, string>();
  for (const k of judged) {
    if (holding.held.get(k.completeWith!) === false) partial.set(k.name, `the token's ${who} does not hold ${k.completeWith}: the listing holds only what that user can see`);
  }
  return { partial, untold: null };
}
