// Queues, declared in manifests. Fixes only narrow: revoke listed permissions from an entry, or
// remove the entry. The platform removes an entity's permissions when its entry is sent with
// `permissions: []`, so a removed entry is sent that way, never dropped from the body.
import { QUEUE_PERMISSIONS, type QueuePermissionEntry } from '../api/types.js';
import { writeRequest } from '../api/writes.js';
import { itemIndex, removeEntryFix } from './common.js';
import { loadManifests, queueEntrySchema } from './manifests.js';
import type { FixKind, PlannedWrite, ResourceDocument, ResourceKind } from './types.js';

function entriesOf(doc: ResourceDocument): QueuePermissionEntry[] {
  return (doc.permissions as QueuePermissionEntry[] | undefined) ?? [];
}

const revoke: FixKind = {
  name: 'revoke',
  schema: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { enum: [...QUEUE_PERMISSIONS] },
    description: 'permissions to take away from the entry',
  },
  perItem: true,
  apply(doc, value, itemPath) {
    const i = itemIndex(itemPath, 'permissions');
    const drop = new Set(value as string[]);
    const permissions = entriesOf(doc).map((e, j) =>
      j === i ? { ...e, permissions: e.permissions.filter((p) => !drop.has(p)) } : e,
    );
    return { ...doc, permissions };
  },
};

const remove = removeEntryFix('permissions', 'remove the entry from the queue');

function principalKey(e: QueuePermissionEntry): string {
  return `${e.type}:${e.id}`;
}

export const queue: ResourceKind = {
  name: 'queue',
  description: 'Queues declared in manifests.queues (queue permissions cannot be read from the API).',
  live: false,
  inputs: { manifests: { key: 'queues', description: 'queue' } },
  operations: [],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id', 'permissions'],
    properties: {
      id: { type: ['string', 'integer'] },
      permissions: { type: 'array', items: queueEntrySchema },
    },
  },
  parts: {},
  async *collect(ctx) {
    for (const m of await loadManifests('queue', ctx.manifestFiles.queues ?? [], ctx.displayRoot)) {
      const doc: ResourceDocument = { id: m.id, permissions: structuredClone(m.data.permissions) };
      yield { kind: 'queue', id: String(m.id), name: null, doc, source: m.source };
    }
  },
  fixes: { revoke, remove },
  write(after, before): PlannedWrite {
    const kept = new Set(entriesOf(after).map(principalKey));
    const removed = entriesOf(before)
      .filter((e) => !kept.has(principalKey(e)))
      .map((e) => ({ ...e, permissions: [] }));
    return writeRequest('updateQueuePermissions', { queueId: String(after.id) }, [...entriesOf(after), ...removed]);
  },
  widens(before, after) {
    const had = new Map(entriesOf(before).map((e) => [principalKey(e), new Set(e.permissions)]));
    for (const e of entriesOf(after)) {
      const prior = had.get(principalKey(e));
      if (!prior) return `${e.type} ${e.id} would be added`;
      const gained = e.permissions.filter((p) => !prior.has(p));
      if (gained.length > 0) return `${e.type} ${e.id} would gain ${gained.join(', ')}`;
    }
    return null;
  },
};
