// Queues: declared in manifests (the pre-release gate) or named/discovered in the scope and
// judged on their live permissions (the scheduled audit). Fixes only narrow: revoke listed
// permissions from an entry, remove the entry, or restore a drifted queue where that narrows. The platform removes an entity's permissions when its entry is sent with
// `permissions: []`, so a removed entry is sent that way, never dropped from the body.
import { QUEUE_PERMISSIONS } from '../../api/vocabularies.js';
import type { QueuePermissionEntry } from '../../api/types.js';
import { writeRequest } from '../../api/writes.js';
import type { InstanceApi } from '../../api/types.js';
import { itemAt, itemIndex, removeEntryFix } from '../common.js';
import { declaredResources, declaredThenScoped } from '../declared.js';
import { narrowingQueueBody, normaliseQueuePermissions, type QueueDrift, queueDrift, restoreFix } from '../live-permissions.js';
import { queueEntrySchema } from '../manifests.js';
import { ownerPart, ownerSchema, ownersFromListing, userOwner } from '../people.js';
import type { CollectedResource, DocumentPart, FixKind, PlannedWrite, ResourceDocument, ResourceKind } from '../types.js';

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

/** The live permissions, normalised (one read per queue, memoised by the client). */
async function livePermissions(api: InstanceApi, resource: CollectedResource): Promise<QueuePermissionEntry[]> {
  return normaliseQueuePermissions(await api.getQueuePermissions(String(resource.doc.id)));
}

/** Undeclared queues are judged on their live state. */
const permissions: DocumentPart = { name: 'permissions', operation: 'getQueuePermissions', load: (api, r) => livePermissions(api, r) };
const live: DocumentPart = { name: 'live', operation: 'getQueuePermissions', load: (api, r) => livePermissions(api, r) };
/** Each principal of the manifest or the instance, compared (declared queues only; undeclared ones have nothing to drift from). */
const drift: DocumentPart = {
  name: 'drift',
  operation: 'getQueuePermissions',
  load: async (api, r) => (r.doc.declared ? queueDrift(entriesOf(r.doc), await livePermissions(api, r)) : []),
};

/** The owner from the queue list's `owner` (a user id string), read once per run. */
const owner = ownerPart('listQueues', async (api, r, once) => {
  const find = await ownersFromListing(once, 'listQueues', () => api.listQueues(), (q) => q.id, (q) => userOwner(q.owner, `listQueues: queue ${q.id}`));
  return find(String(r.doc.id), 'queue');
});

/** Restores the declared state where that narrows: each live entry keeps only what the manifest grants too. */
const restore = restoreFix('queue', 'Only narrowing differences are restored; an entry or permission removed outside the repository is reported, never re-granted.', {
  refusal: (doc, _value, path) => {
    const item = itemAt<QueueDrift>(doc, 'drift', path);
    if (item && item.gained.length === 0) return `restoring ${item.type} ${item.id} would widen access (${item.lost.join(', ')}): reported, never applied`;
    const { unnamed } = narrowingQueueBody(entriesOf(doc), doc.live as QueuePermissionEntry[]);
    if (unnamed.length > 0) {
      return `the queue write requires each entry's name and neither the manifest nor the live read names ${unnamed.join(', ')}: declare ${unnamed.length === 1 ? 'it' : 'them'} in the manifest (with permissions: []) to remove, or change the queue by hand`;
    }
    return null;
  },
  request: (doc) => writeRequest('updateQueuePermissions', { queueId: String(doc.id) }, narrowingQueueBody(entriesOf(doc), doc.live as QueuePermissionEntry[]).body),
});

export const queue: ResourceKind = {
  name: 'queue',
  description:
    'Queues declared in manifests.queues, and those scope.queues names or discovers (judged on their live permissions); `live` and `drift` compare the two.',
  live: false,
  completeWith: 'queue.admin',
  inputs: {
    manifests: { key: 'queues', description: 'queue' },
    scope: {
      key: 'queues',
      shape: 'ids',
      description: 'queue',
      exists: (api, id) => api.getQueuePermissions(id),
      discovery: 'listQueues',
    },
  },
  operations: [],
  documentSchema: {
    type: 'object',
    // steward builds this document: no other field exists (a policy naming one is a typo).
    additionalProperties: false,
    required: ['id', 'permissions', 'declared'],
    properties: {
      id: { type: ['string', 'integer'] },
      permissions: { type: 'array', items: queueEntrySchema, description: "the manifest's entries where it declares the queue, else the live ones" },
      declared: { type: 'boolean', description: 'true when a manifest declares the queue' },
      live: { type: 'array', items: queueEntrySchema, description: 'the live permissions (read only when a policy reads this)' },
      drift: { type: 'array', items: { type: 'object' }, description: 'each principal compared: type, id, name, matches, gained, lost, description' },
      owner: ownerSchema,
    },
  },
  parts: { permissions, live, drift, owner },
  declare: (ctx) => declaredResources('queue', 'queues', ctx, (m) => ({ permissions: structuredClone(m.data.permissions), declared: true })),
  async *collect(ctx) {
    const declared = ctx.declared ?? (await queue.declare!(ctx));
    yield* declaredThenScoped(ctx, declared, { kind: 'queue', key: 'queues', listing: () => ctx.api.listQueues(), idOf: (q) => q.id, nameOf: (q) => q.name, docId: (id) => id });
  },
  fixes: { revoke, remove, restore },
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
