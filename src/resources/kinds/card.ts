// Cards: those in the scope plus every card a report schedule sends, with the ids of the
// schedules that send each one; `certification` is a part (op 11, CARD).
import { NO_ID } from '../../api/assumptions.js';
import { certificationPart, certificationSchema } from '../certification.js';
import { excluded, selectIds } from '../discovery.js';
import { type OwnerId, ownerPart, ownerSchema, ownersFromListing } from '../people.js';
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

/** The owner from the card search (read once per run, whole): a card the search does not return is an error. */
const owner = ownerPart('searchCards', async (api, r, once) => {
  const find = await ownersFromListing(once, 'searchCards', () => api.searchCards(), (c) => String(c.databaseId), (c) => cardOwner(c, String(c.databaseId)));
  return find(r.id, 'card');
});

export const card: ResourceKind = {
  name: 'card',
  description: 'Cards listed in scope.cards and every card a report schedule sends.',
  live: true,
  inputs: {
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
    },
  },
  parts: { certification: certificationPart('CARD'), owner },
  async *collect(ctx) {
    const senders = new Map<string, number[]>();
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
      yield { kind: 'card', id, name: names.get(id) ?? null, doc: { id: cardDocId(id), schedules }, source: null };
    }
  },
  fixes: {},
};
