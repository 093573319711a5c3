// Shared forms of the sharing reads: the content access list (pages and cards) reduced to who is
// reached directly and through which groups, and the principals of the other share lists in one
// form, `{type, id, name, ...}`, whatever the endpoint's own shape.
import type { ContentAccessList } from '../api/types.js';
import { declaredResources } from './declared.js';
import type { CollectContext, CollectedResource } from './types.js';

/**
 * The card access list's form is not shown publicly: steward takes the page access list's form
 * (users, groups, totalUserCount, resource) and requires `resource.type` to be this endpoint's
 * (`page`, or `badge` for a card); anything else is API drift (exit 3), never an empty list.
 * `resource.id` must be the item asked about: another item's list is never judged as its own.
 */
export const CARD_ACCESS_LIST_FORM = "the page access list's form, with resource.type 'badge'";

export interface ContentAccess {
  users: { id: string; name: string | null }[];
  groups: { id: string; name: string | null; users: string[] }[];
  totalUserCount: number;
}

export function contentAccess(answer: ContentAccessList, resource: { type: 'page' | 'badge'; id: string }, where: string): ContentAccess {
  if (answer.resource?.type !== resource.type) {
    throw new Error(`${where}: API drift at resource.type: ${JSON.stringify(answer.resource?.type ?? null)}, expected "${resource.type}" (${CARD_ACCESS_LIST_FORM})`);
  }
  if (answer.resource.id !== resource.id) throw new Error(`${where}: API drift at resource.id: the answer is about ${JSON.stringify(answer.resource.id)}`);
  return {
    users: answer.users.map((u) => ({ id: String(u.id), name: u.displayName ?? null })),
    groups: answer.groups.map((g) => ({ id: String(g.id), name: g.name ?? null, users: (g.users ?? []).map((u) => String(u.id)) })),
    totalUserCount: answer.totalUserCount,
  };
}

export const contentAccessSchema = {
  type: 'object',
  description: 'who the item is shared with: users directly, groups (with their users), and the distinct people reached',
  properties: {
    users: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: ['string', 'null'] } } } },
    groups: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: ['string', 'null'] }, users: { type: 'array', items: { type: 'string' } } } } },
    totalUserCount: { type: 'integer', description: 'distinct users reached, group members included' },
  },
};

/** A principal of a share list in one form (`{type, id, name, ...}`). */
export const principalSchema = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { type: { enum: ['USER', 'GROUP'] }, id: { type: 'string' }, name: { type: ['string', 'null'] }, ...extra },
});

/** Declared sharing of a page or card (its manifest): the users and groups it is shared with directly. */
export interface DeclaredShares {
  users: { id: string; name?: string }[];
  groups: { id: string; name?: string }[];
}

/** One principal compared: shared live and not declared (`gained`), declared and not shared live (`lost`). */
export interface ShareDrift {
  type: 'USER' | 'GROUP';
  id: string;
  name: string | null;
  matches: boolean;
  gained: boolean;
  lost: boolean;
  description: string;
}

export function sharingDrift(what: string, declared: DeclaredShares, live: ContentAccess): ShareDrift[] {
  const entries = (type: 'USER' | 'GROUP', list: { id: string; name?: string | null }[]) => list.map((e) => [`${type}:${e.id}`, { type, id: e.id, name: e.name ?? null }] as const);
  const d = new Map([...entries('USER', declared.users), ...entries('GROUP', declared.groups)]);
  const l = new Map([...entries('USER', live.users), ...entries('GROUP', live.groups)]);
  return [...new Set([...d.keys(), ...l.keys()])].map((key) => {
    const e = (d.get(key) ?? l.get(key))!;
    const name = d.get(key)?.name ?? l.get(key)?.name ?? null;
    const who = `${e.type} ${e.id}${name ? ` (${name})` : ''}`;
    const gained = !d.has(key);
    const lost = !l.has(key);
    const description = gained ? `${who} was given access to ${what} outside the repository` : lost ? `${who} lost access to ${what} outside the repository` : `${who} matches`;
    return { type: e.type, id: e.id, name, matches: !gained && !lost, gained, lost, description };
  });
}

/**
 * The platform documents the share write (`POST /api/content/v1/share`, which adds) but no write
 * that removes a page's or card's share with a captured example: drift is fixed by hand, and
 * the plan says exactly what to change (SHARE_REMOVAL_DOCUMENTED false).
 */
export const SHARE_REMOVAL_DOCUMENTED = false;

/** The change to make by hand for one drift item of a page or card. */
export function shareChangeByHand(what: string, item: ShareDrift | undefined): string {
  if (!item || item.matches) return `nothing to change on ${what}`;
  const who = `${item.type} ${item.id}${item.name ? ` (${item.name})` : ''}`;
  if (item.gained) return `remove ${who} from the sharing of ${what} (Share › the ${item.type === 'USER' ? 'user' : 'group'} › remove), or declare it in the manifest; no documented write removes a share`;
  return `${who} is declared but not shared: share ${what} with it again by hand, or remove it from the manifest (re-sharing widens access: never applied)`;
}

/** The fix of the sharing drift policies: a plan entry saying the exact change, never a request. */
export function restoreSharingByHand(what: (doc: { id: string | number }) => string) {
  return {
    name: 'restore',
    schema: { const: true, description: 'restore the declared sharing (by hand: the plan says the exact change)' },
    perItem: true,
    apply: (doc: Record<string, unknown> & { id: string | number }) => ({ ...doc }),
    byHand: (doc: Record<string, unknown> & { id: string | number }, _value: unknown, itemPath: string | null) => {
      const index = itemPath ? Number(/\[(\d+)\]$/.exec(itemPath)?.[1]) : Number.NaN;
      const item = Number.isInteger(index) ? (doc.drift as ShareDrift[] | undefined)?.[index] : undefined;
      return shareChangeByHand(what(doc), item);
    },
    reads: ['drift'],
  };
}

export const driftSchema = {
  type: 'array',
  description: 'each principal of the manifest or the live sharing compared: type, id, name, matches, gained (shared live, not declared), lost, description',
  items: { type: 'object', properties: { type: { enum: ['USER', 'GROUP'] }, id: { type: 'string' }, name: { type: ['string', 'null'] }, matches: { type: 'boolean' }, gained: { type: 'boolean' }, lost: { type: 'boolean' }, description: { type: 'string' } } },
};

export const declaredSharesSchema = {
  type: 'object',
  description: "the manifest's sharing: users and groups ({id, name})",
  properties: {
    users: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
    groups: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
  },
};

/** The cards or pages whose sharing a manifest declares: `declared`, and `shares` as the manifest gives them. */
export function declaredSharing(kind: 'card' | 'page', ctx: Pick<CollectContext, 'manifestFiles' | 'displayRoot'>, doc: Record<string, unknown>): Promise<CollectedResource[]> {
  return declaredResources(kind, `${kind}s`, ctx, (m) => ({ ...doc, declared: true, shares: { users: structuredClone(m.data.users), groups: structuredClone(m.data.groups) } }));
}
