// The instance's people, read once per run and shared by every kind and join that needs them:
// the user directory (the identity search, live and deleted users), each user's state, and the
// `owner` part that resolves a content item's owner id against it (one listing, never a read
// per resource).
import { DELETED_USER_SEARCH_BODY, USER_SEARCH_BODY } from '../api/assumptions.js';
import type { IdentityUser, InstanceApi, OperationId } from '../api/types.js';
import { noMemo } from './common.js';
import type { CollectedResource, DocumentPart, ResourceDocument, RunMemo } from './types.js';

export const USER_STATES = ['active', 'pending', 'deactivated', 'deleted'] as const;
export type UserState = (typeof USER_STATES)[number];

/**
 * How steward decides a user's state (PLATFORM.md §8: the search's `isActive`/`isPending`
 * attributes and its `onlyDeleted` flag; no source defines them further): listed by the search
 * with `onlyDeleted` → deleted; else `isPending` true → pending; else `isActive` true → active;
 * else deactivated. A live user without a boolean `isActive` or `isPending` is API drift (exit 3),
 * never a guess (an invitation read as not pending would leave every invitation policy).
 */
export const USER_STATE_RULE = 'deleted if listed with onlyDeleted; else pending if isPending; else active if isActive; else deactivated';

/** The state of an owner id that neither listing holds: not a live user (fails every liveness check). */
export const UNKNOWN_USER = 'unknown';

export interface DirectoryUser {
  id: string;
  name: string | null;
  email: string | null;
  roleId: number | null;
  state: UserState;
  systemUser: boolean;
  /** Epoch milliseconds, or null when the platform has none. */
  created: number | null;
  lastLogin: number | null;
  lastActivity: number | null;
}

export type Directory = ReadonlyMap<string, DirectoryUser>;

function attribute(u: IdentityUser, key: string): unknown {
  const found = u.attributes.find((a) => a.key === key);
  return found && Array.isArray(found.values) && found.values.length > 0 ? found.values[0] : undefined;
}

const textOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const millisOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One user of the search, with its state; `deleted` when it came from the `onlyDeleted` listing. */
export function directoryUser(u: IdentityUser, deleted: boolean): DirectoryUser {
  const active = attribute(u, 'isActive');
  const pending = attribute(u, 'isPending');
  for (const [key, value] of [['isActive', active], ['isPending', pending]] as const) {
    if (!deleted && typeof value !== 'boolean') {
      throw new Error(`searchUsers: API drift at user ${u.id}: ${key} is ${JSON.stringify(value ?? null)}, not a boolean: the user's state is unknown`);
    }
  }
  const state: UserState = deleted ? 'deleted' : pending === true ? 'pending' : active ? 'active' : 'deactivated';
  const roleId = u.roleId ?? attribute(u, 'roleId');
  return {
    id: String(u.id),
    name: textOf(u.displayName) ?? textOf(attribute(u, 'displayName')),
    email: textOf(u.emailAddress) ?? textOf(attribute(u, 'emailAddress')),
    roleId: typeof roleId === 'number' ? roleId : null,
    state,
    systemUser: attribute(u, 'isSystemUser') === true,
    created: millisOf(attribute(u, 'created')),
    lastLogin: millisOf(attribute(u, 'lastLogin')),
    lastActivity: millisOf(attribute(u, 'lastActivity')),
  };
}

const DIRECTORY_KEY = 'people:directory';

async function collectUsers(api: InstanceApi, criteria: Record<string, unknown>, deleted: boolean, into: Map<string, DirectoryUser>) {
  for await (const page of api.searchUsers(criteria)) for (const u of page) into.set(String(u.id), directoryUser(u, deleted));
}

/** The run's user directory: the live and the deleted users, both listings read whole (in parallel). */
export function userDirectory(api: InstanceApi, once: RunMemo = noMemo): Promise<Directory> {
  return once(DIRECTORY_KEY, async () => {
    const live = new Map<string, DirectoryUser>();
    const gone = new Map<string, DirectoryUser>();
    await Promise.all([collectUsers(api, { ...USER_SEARCH_BODY }, false, live), collectUsers(api, { ...DELETED_USER_SEARCH_BODY }, true, gone)]);
    // A user in both listings is deleted (the deleted listing is the more specific answer).
    for (const [id, u] of gone) live.set(id, u);
    return live;
  });
}

/** A content item's owner as the platform names it: a user or group id (strings and numbers both seen). */
export interface OwnerId {
  type: 'USER' | 'GROUP';
  id: string;
}

/** The owner a policy sees: the user resolved with its state (`unknown` when in neither listing); groups have no state. */
export interface ResolvedOwner {
  type: 'USER' | 'GROUP';
  id: string;
  name: string | null;
  email: string | null;
  state: UserState | typeof UNKNOWN_USER | null;
}

export function resolveOwner(directory: Directory, owner: OwnerId | null): ResolvedOwner | null {
  if (owner === null) return null;
  if (owner.type === 'GROUP') return { type: 'GROUP', id: owner.id, name: null, email: null, state: null };
  const user = directory.get(owner.id);
  return { type: 'USER', id: owner.id, name: user?.name ?? null, email: user?.email ?? null, state: user?.state ?? UNKNOWN_USER };
}

/** The JSON Schema of the `owner` part (documents and the policy type checks). */
export const ownerSchema = {
  type: ['object', 'null'],
  description: "the owner resolved against the user listing: type, id, name, email, state (active, pending, deactivated, deleted; unknown: in no listing; null for a group); null when the item has none",
  properties: {
    type: { enum: ['USER', 'GROUP'] },
    id: { type: 'string' },
    name: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    state: { enum: [...USER_STATES, UNKNOWN_USER, null] },
  },
};

/**
 * The `owner` part of a content kind: `ownerOf` finds the raw owner id (from the document, or
 * from the kind's listing, memoised for the run); the directory resolves it. An item whose
 * listing does not carry it is an error of the policies reading `owner`, never a pass.
 */
export function ownerPart(operation: OperationId, ownerOf: (api: InstanceApi, r: CollectedResource, once: RunMemo) => Promise<OwnerId | null>): DocumentPart {
  return {
    name: 'owner',
    operation: 'searchUsers',
    alsoReads: [operation],
    async load(api, r, once = noMemo) {
      const [directory, owner] = await Promise.all([userDirectory(api, once), ownerOf(api, r, once)]);
      return resolveOwner(directory, owner);
    },
  };
}

/**
 * A document's `owners` (as the kinds' documents list them), in the listing's order. A principal
 * of another type than GROUP is judged as a user: in no user listing, it is `unknown`, which
 * fails every liveness check.
 */
export function ownerIds(doc: ResourceDocument): OwnerId[] {
  return (doc.owners as { type: string; id: string }[]).map(asOwnerId);
}

/** A listed principal as an owner id: a GROUP is a group, any other type is judged as a user. */
export const asOwnerId = (o: { type: string; id: string }): OwnerId => ({ type: o.type === 'GROUP' ? 'GROUP' : 'USER', id: o.id });

/** How a kind finds every owner of a resource: `doc.owners` as listed, with a kind's own check, or from its listings. */
type OwnersOf = (r: CollectedResource, api: InstanceApi, once: RunMemo) => OwnerId[] | Promise<OwnerId[]>;

const listedOwners: OwnersOf = (r) => ownerIds(r.doc);

/** The `owner` part of a kind whose document lists its owners (`doc.owners`, from `operation`): the first one, or null when it lists none. */
export function firstOwnerPart(operation: OperationId, ownersOf: OwnersOf = listedOwners): DocumentPart {
  return ownerPart(operation, async (api, r, once) => (await ownersOf(r, api, once))[0] ?? null);
}

/** The JSON Schema of the `resolvedOwners` part: each owner as `owner` resolves it, a group by its own state. */
export const resolvedOwnersSchema = {
  type: 'array',
  description: 'every owner the listing names, in its order: a user resolved against the user listing as `owner` is (unknown: in no listing); a group by the group itself (active, or deleted)',
  items: { ...ownerSchema, type: 'object' },
};

/**
 * A group owner as `GET /groups/{id}` says it is, read once a run per group (however many
 * groups or pages it owns): `active: false` is a deleted group (group-get.json), which owns
 * nothing anyone reviews. A read that fails (a group the instance does not have: 404), or an
 * answer about another group, is an error of each resource it owns, never a pass; kept as an
 * answer, so the run's memo does not take it for a read every resource shares.
 */
async function resolveGroupOwner(api: InstanceApi, once: RunMemo, id: string): Promise<ResolvedOwner> {
  const answer = await once(`people:group:${id}`, () => readGroup(api, id).then((group) => ({ group }), (error: unknown) => ({ error })));
  if ('error' in answer) throw answer.error;
  const { group } = answer;
  return { type: 'GROUP', id, name: group.name ?? null, email: null, state: group.active ? 'active' : 'deleted' };
}

/** `GET /groups/{id}`, an answer about another group than `id` being drift (doctor's probe reads it too). */
export async function readGroup(api: InstanceApi, id: string): Promise<Awaited<ReturnType<InstanceApi['getGroup']>>> {
  const group = await api.getGroup(id);
  if (String(group.id) !== id) throw new Error(`getGroup: API drift: asked for group ${id}, answered about group ${group.id}, so the owner's state is unknown`);
  return group;
}

/**
 * The `resolvedOwners` part of a kind whose document lists its owners: every one of them with
 * its state, so a policy can judge each owner and not only the first (a group or page co-owned
 * by someone who left, listed second, passed a policy reading `owner`). The user directory is
 * the one `owner` reads; a group owner costs one read a run (resolveGroupOwner).
 */
export function resolvedOwnersPart(operation: OperationId, ownersOf: OwnersOf = listedOwners, alsoReads: readonly OperationId[] = []): DocumentPart {
  return {
    name: 'resolvedOwners',
    operation: 'searchUsers',
    alsoReads: [operation, ...alsoReads, 'getGroup'],
    async load(api, r, once = noMemo) {
      const [owners, directory] = await Promise.all([ownersOf(r, api, once), userDirectory(api, once)]);
      return Promise.all(owners.map((o) => (o.type === 'GROUP' ? resolveGroupOwner(api, once, o.id) : resolveOwner(directory, o))));
    },
  };
}

/**
 * A summary item whose `owners` is not a list (absent or null) cannot be judged for ownership:
 * drift of that item, never "no owner" (which every owner-liveness policy passes).
 */
export function ownersListDrift(operation: OperationId, what: string, owners: unknown): Error | undefined {
  return Array.isArray(owners) ? undefined : new Error(`${operation}: API drift at owners of ${what}: ${owners === null ? 'null' : 'missing'}, so its owners are unknown`);
}

/**
 * An owner id as a listing carries it in `field`: a number or a non-empty string is a user's;
 * null is the platform naming none; a missing field or any other value leaves the owner unknown.
 */
export function userOwner(value: unknown, where: string, field = 'owner'): OwnerId | null {
  if (value === null) return null;
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && value !== '')) return { type: 'USER', id: String(value) };
  if (value === undefined) throw new Error(`${where} carries no ${field}, so its owner is unknown`);
  throw new Error(`${where}: the owner ${JSON.stringify(value)} is not a user id: the owner is unknown`);
}

/**
 * Owner ids by item id from one listing, built once per run (`key`): a content kind's `owner`
 * part looks its resources up here. An id the listing lacks is an error (not in the listing:
 * the token cannot see it, or the listing changed), never an owner-less pass.
 */
export async function ownersFromListing<T>(
  once: RunMemo,
  key: string,
  read: () => AsyncIterable<T[]> | Promise<T[]>,
  idOf: (item: T) => string,
  ownerOf: (item: T) => OwnerId | null,
): Promise<(id: string, what: string) => OwnerId | null> {
  const owners = await once(`people:owners:${key}`, async () => {
    // A malformed owner fails its own item's policies only, not the kind's.
    const map = new Map<string, OwnerId | null | Error>();
    const answer = read();
    const pages: AsyncIterable<T[]> = Symbol.asyncIterator in answer ? answer : (async function* () { yield await answer; })();
    for await (const page of pages) {
      for (const item of page) {
        try {
          map.set(idOf(item), ownerOf(item));
        } catch (err) {
          map.set(idOf(item), err as Error);
        }
      }
    }
    return map;
  });
  return (id, what) => {
    if (!owners.has(id)) throw new Error(`${key}: ${what} ${id} is not in the listing, so its owner is unknown`);
    const owner = owners.get(id) ?? null;
    if (owner instanceof Error) throw owner;
    return owner;
  };
}
