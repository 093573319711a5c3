// Pages: the page admin summary (every page with content.admin), with each page's access list
// (users and groups, expanded to the people reached) as a part, and its owners resolved.
import { closedObject } from '../../core/schema-id.js';
import type { PageSummary } from '../../api/types.js';
import { int, nullableBool, nullableInt, nullableStr } from '../../api/schemas.js';
import { readProbe } from '../common.js';
import { listedResources } from '../discovery.js';
import { firstOwnerPart, type OwnerId, ownerIds, ownerSchema, ownersListDrift, resolvedOwnersPart, resolvedOwnersSchema } from '../people.js';
import { contentAccess, contentAccessSchema, type DeclaredShares, declaredSharing, declaredSharesSchema, driftSchema, principalSchema, restoreSharingByHand, sharingDrift } from '../sharing.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../types.js';

const liveAccess = async (api: Parameters<DocumentPart['load']>[0], r: CollectedResource) =>
  contentAccess(await api.getPageAccessList(String(r.doc.id)), { type: 'page', id: String(r.doc.id) }, `getPageAccessList: page ${r.id}`);

const access: DocumentPart = { name: 'access', operation: 'getPageAccessList', load: liveAccess };

/** Declared pages only: the manifest's sharing against the live access list (the same read). */
const drift: DocumentPart = {
  name: 'drift',
  operation: 'getPageAccessList',
  load: async (api, r) => (r.doc.declared ? sharingDrift(`page ${r.id}`, r.doc.shares as DeclaredShares, await liveAccess(api, r)) : []),
};

/** What steward takes the page summary's `ownerId` to be (pages-adminsummary.json's note and both its items). */
export const PAGE_OWNER_ID_RULE = 'the id of the first of owners[]';

/**
 * The summary's owners, the first of which its `ownerId` repeats (PAGE_OWNER_ID_RULE): an
 * `ownerId` that is not the first owner's id, or one beside an empty `owners`, leaves the owners
 * unknown (drift of the owner policies), never a page judged owner-less or by an owner the
 * summary does not name first.
 */
function checkedOwners(r: CollectedResource): OwnerId[] {
  const owners = ownerIds(r.doc);
  const first = owners[0];
  const ownerId = r.doc.ownerId as number | null | undefined;
  if (ownerId != null && String(ownerId) !== first?.id) {
    throw new Error(`listPages: API drift at ownerId of page ${r.id}: ${ownerId} is not its first owner (${first ? `${first.type} ${first.id}` : 'owners is empty'}), so its owner is unknown`);
  }
  return owners;
}

/** The first owner, and every owner, resolved: both under the check of `ownerId`. */
const owner = firstOwnerPart('listPages', checkedOwners);
const resolvedOwners = resolvedOwnersPart('listPages', checkedOwners);

const pageDrift = (p: PageSummary) => ownersListDrift('listPages', `page ${p.pageId}`, p.owners);

function pageDoc(p: PageSummary) {
  const { pageId: id, pageTitle: title = null, pageType: type = null, parentPageId = null, topPageId = null, locked = null, lastModified = null, cardCount = null, ownerId = null } = p;
  // Owner ids are numbers here (strings in the card summary): one form, strings.
  const owners = (p.owners ?? []).map((o) => ({ type: o.type, id: String(o.id), name: o.displayName ?? null }));
  return { id, title, type, parentPageId, topPageId, locked, lastModified, cardCount, ownerId, owners };
}

export const page: ResourceKind = {
  name: 'page',
  description: 'Pages named in scope.pages or all of them (the page admin summary), with their access list and owner.',
  live: false,
  completeWith: 'content.admin',
  inputs: {
    manifests: { key: 'pages', description: 'page sharing' },
    scope: { key: 'pages', shape: 'ids', description: 'page', exists: (api, id) => api.getPageAccessList(id), discovery: 'listPages' },
  },
  operations: ['listPages'],
  documentSchema: closedObject(['id', 'owners', 'declared'], {
    id: int, title: nullableStr, type: nullableStr, parentPageId: nullableInt, topPageId: nullableInt, locked: nullableBool,
    lastModified: { type: ['integer', 'string', 'null'] },
    cardCount: nullableInt,
    ownerId: { ...nullableInt, description: `the summary's ownerId: ${PAGE_OWNER_ID_RULE}` },
    owners: { type: 'array', items: principalSchema() },
    access: contentAccessSchema,
    owner: ownerSchema,
    resolvedOwners: resolvedOwnersSchema,
    declared: { type: 'boolean', description: 'true when a manifest declares the page\'s sharing' },
    shares: declaredSharesSchema,
    drift: driftSchema,
  }),
  parts: { access, owner, resolvedOwners, drift },
  fixes: { restore: restoreSharingByHand((doc) => `page ${doc.id}`) },
  declare: (ctx) => declaredSharing('page', ctx, { owners: [] }),
  probes: [
    readProbe('pages', ['listPages', 'getPageAccessList'], 'pages can be listed (the page admin summary)', 'POST the first page of the page admin summary', (api) => api.listPages(),
      "give the token's user the content admin grant (content.admin), or leave page policies out with --only"),
  ],
  async *collect(ctx) {
    const declared = ctx.declared ?? (await page.declare!(ctx));
    if (declared.length > 0) {
      const listed = new Map<string, PageSummary>();
      for await (const p of ctx.api.listPages()) for (const x of p) listed.set(String(x.pageId), x);
      for (const d of declared) {
        const p = listed.get(d.id);
        const loadError = p ? pageDrift(p) : new Error(`page ${d.id} is declared but not in the page admin summary`);
        yield p && !loadError ? { ...d, name: p.pageTitle ?? null, doc: { ...pageDoc(p), ...d.doc, owners: pageDoc(p).owners } } : { ...d, loadError };
      }
    }
    // The summary's pages are the client's memo by now: named or discovered pages cost no request more.
    yield* listedResources(ctx.scope, () => ctx.api.listPages(), {
      kind: 'page', key: 'pages', listing: 'the page admin summary', idOf: (p) => String(p.pageId), nameOf: (p) => p.pageTitle,
      docOf: (p) => ({ ...pageDoc(p), declared: false }),
      driftOf: pageDrift,
      missingDoc: (id) => ({ id: Number(id), owners: [], declared: false }),
      skip: new Set(declared.map((d) => d.id)),
    });
  },
};
