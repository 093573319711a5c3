// Cards: those in the scope plus every card a report schedule sends, with the ids of the
// schedules that send each one; `certification` is a part (op 11, CARD).
import { NO_ID } from '../../api/assumptions.js';
import { certificationPart, certificationSchema } from '../certification.js';
import { excluded, selectIds } from '../discovery.js';
import { asOwnerId, type OwnerId, ownerPart, ownerSchema, ownersFromListing, ownersListDrift, resolvedOwnersPart, resolvedOwnersSchema } from '../people.js';
import { contentAccess, contentAccessSchema, type DeclaredShares, declaredSharing, declaredSharesSchema, driftSchema, principalSchema, restoreSharingByHand, sharingDrift } from '../sharing.js';
import type { CollectedResource, DocumentPart, RunMemo } from '../types.js';
import { noMemo } from '../common.js';
import { allSchedules } from './reportSchedule.js';
import type { ResourceKind } from '../types.js';

/** Card ids are integers on the platform (schedule.cardId); scope ids that are not stay strings. */
function cardDocId(id: string): string | number {
  return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** A search result's `ownedById`/`ownedByType` (the search API's owner of the card). */
function cardOwner(item: Record<string, unknown>, id: string): OwnerId | null {
  const ownerId = item.ownedById;
  if (ownerId === null) return null;
  if ((typeof ownerId !== 'string' || ownerId === '') && typeof ownerId !== 'number') {
    throw new Error(`searchCards: API drift at ownedById of card ${id}: ${JSON.stringify(ownerId ?? 'missing')}`);
  }
  return { type: item.ownedByType === 'GROUP' ? 'GROUP' : 'USER', id: String(ownerId) };
}

/** The owner the card search names (read once per run, whole): a card the search does not return is an error. */
async function searchedOwner(api: Parameters<DocumentPart['load']>[0], r: CollectedResource, once: RunMemo): Promise<OwnerId | null> {
  const find = await ownersFromListing(once, 'searchCards', () => api.searchCards(), (c) => String(c.databaseId), (c) => cardOwner(c, String(c.databaseId)));
  return find(r.id, 'card');
}

const owner = ownerPart('searchCards', searchedOwner);

const liveAccess = async (api: Parameters<DocumentPart['load']>[0], r: CollectedResource) =>
  contentAccess(await api.getCardAccessList(r.id), { type: 'badge', id: r.id }, `getCardAccessList: card ${r.id}`);

/** Who the card is shared with: the card access list, in the page's form (CARD_ACCESS_LIST_FORM). */
const access: DocumentPart = { name: 'access', operation: 'getCardAccessList', load: liveAccess };

/** Declared cards only: the manifest's sharing against the live access list (the same read). */
const drift: DocumentPart = {
  name: 'drift',
  operation: 'getCardAccessList',
  load: async (api, r) => (r.doc.declared ? sharingDrift(`card ${r.id}`, r.doc.shares as DeclaredShares, await liveAccess(api, r)) : []),
};

type SummaryOwner = { type: string; id: string; name: string | null };

/** A card's owners as the card admin summary lists them (read once per run, whole): ids are strings there. */
async function summaryOwners(api: Parameters<DocumentPart['load']>[0], r: CollectedResource, once: RunMemo): Promise<SummaryOwner[]> {
  const byId = await once('card:summary-owners', async () => {
    const map = new Map<string, SummaryOwner[] | Error>();
    for await (const page of api.listCardSummaries()) {
      for (const c of page) map.set(String(c.id), ownersListDrift('listCardSummaries', `card ${c.id}`, c.owners) ?? (c.owners ?? []).map((o) => ({ type: o.type, id: String(o.id), name: o.displayName ?? null })));
    }
    return map;
  });
  const found = byId.get(r.id);
  if (!found) throw new Error(`listCardSummaries: card ${r.id} is not in the card admin summary, so its owners are unknown`);
  if (found instanceof Error) throw found;
  return found;
}

/** Every owner from the card admin summary, as listed. */
const owners: DocumentPart = { name: 'owners', operation: 'listCardSummaries', load: (api, r, once = noMemo) => summaryOwners(api, r, once) };

/**
 * Every owner either source names: the search's owner first, then the admin summary's others.
 * No source says how the search's one owner and the summary's list relate, so both are judged:
 * a co-owner who left, named by the summary alone, is never passed over.
 */
const resolvedOwners = resolvedOwnersPart(
  'listCardSummaries',
  async (r, api, once) => {
    const [first, listed] = await Promise.all([searchedOwner(api, r, once), summaryOwners(api, r, once)]);
    const all: OwnerId[] = first ? [first] : [];
    for (const o of listed.map(asOwnerId)) {
      if (!all.some((known) => known.type === o.type && known.id === o.id)) all.push(o);
    }
    return all;
  },
  ['searchCards'],
);

export const card: ResourceKind = {
  name: 'card',
  description: 'Cards listed in scope.cards, declared in manifests.cards, and every card a report schedule sends.',
  // Documents are kept for the sharing drift's by-hand plan (like the other kinds with manifests).
  live: false,
  completeWith: 'content.admin',
  inputs: {
    manifests: { key: 'cards', description: 'card sharing' },
    scope: { key: 'cards', shape: 'ids', description: 'card', exists: (api, id) => api.getCertificationStatus('CARD', id), discovery: 'searchCards' },
    alsoFrom: 'reportSchedule',
  },
  operations: ['listReportSchedules'],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id', 'schedules'],
    properties: {
      id: { type: ['integer', 'string'] },
      schedules: { type: 'array', items: { type: 'integer' }, description: 'ids of the schedules that send this card' },
      certification: certificationSchema,
      owner: ownerSchema,
      resolvedOwners: { ...resolvedOwnersSchema, description: `every owner the card search or the card admin summary names, the search's first: ${resolvedOwnersSchema.description}` },
      access: contentAccessSchema,
      owners: { type: 'array', description: 'every owner, from the card admin summary', items: principalSchema() },
      declared: { type: 'boolean', description: "true when a manifest declares the card's sharing" },
      shares: declaredSharesSchema,
      drift: driftSchema,
    },
  },
  parts: { certification: certificationPart('CARD'), owner, resolvedOwners, access, owners, drift },
  declare: (ctx) => declaredSharing('card', ctx, { schedules: [] }),
  async *collect(ctx) {
    const senders = new Map<string, number[]>();
    const declared = new Map((ctx.declared ?? (await card.declare!(ctx))).map((d) => [d.id, d]));
    for (const id of declared.keys()) senders.set(id, []);
    const discovery = ctx.scope.discover.cards;
    const { ids, names } = await selectIds(ctx.scope.ids.cards ?? [], discovery, () => ctx.api.searchCards(), (c) => String(c.databaseId), (c) => c.name);
    for (const id of ids) senders.set(String(id), []);
    for (const s of await allSchedules(ctx)) {
      // A schedule of a page or view sends no single card (null, or the platform's 0).
      if (s.cardId === null || s.cardId === undefined || s.cardId === NO_ID) continue;
      const key = String(s.cardId);
      if (excluded(discovery, key)) continue;
      const list = senders.get(key) ?? [];
      list.push(s.id);
      senders.set(key, list);
    }
    for (const [id, schedules] of senders) {
      schedules.sort((a, b) => a - b);
      const d = declared.get(id);
      yield d ? { ...d, doc: { ...d.doc, schedules } } : { kind: 'card', id, name: names.get(id) ?? null, doc: { id: cardDocId(id), schedules, declared: false }, source: null };
    }
  },
  fixes: { restore: restoreSharingByHand((doc) => `card ${doc.id}`) },
};
