// Sharing and row-level security reads in the shapes PLATFORM.md §8 and its fixtures show: the
// page and card admin summaries (skip/limit in the query, no total), the content access list
// (direct users, groups with their users, distinct people reached), accounts and their share
// lists, file-set access (numeric entity ids), workflow permissions grouped by principal type,
// and a dataset's PDP policies (a bare array, the open All Rows one included).
import type { ContentAccessList } from '../api/types.js';
import type { Handlers, RequestContext } from './context.js';
import { HttpError, intParam, ok, type Reply } from './http.js';
import { FILLER_SHARE_GROUP } from './sharing.js';

/** Content owned by nobody planted: the first filler user (as in api-discovery.ts). */
const DEFAULT_OWNER = 101;

function skipLimit(ctx: RequestContext, max: number) {
  const limit = intParam(ctx.query, 'limit') ?? 35;
  if (limit > max) throw new HttpError(400, 'Bad Request');
  return { skip: ctx.switches.ignoreSkip ? 0 : (intParam(ctx.query, 'skip') ?? 0), limit };
}

function userOf(ctx: RequestContext, id: number) {
  const u = ctx.state.people.users.find((x) => x.id === id);
  // Epoch seconds for created, as captured.
  return { id, displayName: u?.name ?? `User ${id}`, emailAddress: u?.email ?? null, active: u ? u.state === 'active' : false, created: Math.floor((u?.created ?? 0) / 1000) };
}

function accessList(ctx: RequestContext, id: string, type: 'page' | 'badge', users: number[], groups: number[]): ContentAccessList {
  const known = new Map(ctx.state.people.groups.map((g) => [g.groupId, g]));
  const expanded = groups.map((g) => ({ id: g, name: known.get(g)?.name ?? `Group ${g}`, type: 'open', users: (known.get(g)?.members ?? []).map((m) => userOf(ctx, m)) }));
  const reached = new Set([...users, ...expanded.flatMap((g) => g.users.map((u) => u.id))]);
  return { users: users.map((u) => userOf(ctx, u)), groups: expanded, totalUserCount: reached.size, resource: { id, type } };
}

function listPages(ctx: RequestContext): Reply {
  const { skip, limit } = skipLimit(ctx, 100);
  const pageAdminSummaries = ctx.state.sharing.pages.slice(skip, skip + limit).map((p) => ({
    pageId: p.pageId,
    pageTitle: p.title,
    pageType: 'page',
    subType: null,
    parentPageId: null,
    topPageId: null,
    ownerId: p.ownerIds[0] ?? null,
    ownerName: null,
    owners: p.ownerIds.map((id) => ({ id, type: 'USER', displayName: userOf(ctx, id).displayName })),
    locked: false,
    lastModified: 1699379580376,
    cardCount: null,
  }));
  return ok({ pageAdminSummaries });
}

function getPageAccessList(ctx: RequestContext): Reply {
  const page = ctx.state.sharing.pages.find((p) => String(p.pageId) === ctx.params.pageId);
  if (!page) throw new HttpError(404, 'Not Found');
  return ok(accessList(ctx, ctx.params.pageId, 'page', page.users, page.groups));
}

function listCardSummaries(ctx: RequestContext): Reply {
  const { skip, limit } = skipLimit(ctx, 100);
  const owners = ctx.state.people.owners.cards;
  const cardAdminSummaries = [...ctx.state.cards].slice(skip, skip + limit).map((id) => {
    const owner = owners.get(id) ?? DEFAULT_OWNER;
    // Owner ids are strings here (cards-adminsummary.json).
    return { owners: [{ id: String(owner), type: 'USER', displayName: userOf(ctx, owner).displayName }], id: Number(id), type: 'kpi', badgeUpdated: 1632747565000, title: `Card ${id}`, locked: false, pageHierarchy: [{ pageId: -100000, title: 'Overview' }] };
  });
  return ok({ cardAdminSummaries });
}

function getCardAccessList(ctx: RequestContext): Reply {
  if (!ctx.state.cards.has(ctx.params.cardId)) throw new HttpError(404, 'Not Found');
  const shares = ctx.state.sharing.cardShares.get(ctx.params.cardId) ?? { users: [], groups: [FILLER_SHARE_GROUP] };
  return ok(accessList(ctx, ctx.params.cardId, 'badge', shares.users, shares.groups));
}

function listAccounts(ctx: RequestContext): Reply {
  return ok(
    ctx.state.sharing.accounts.map((a) => ({
      id: a.id,
      userId: a.userId,
      name: a.name,
      displayName: a.name,
      type: 'data',
      valid: true,
      dataProviderType: a.dataProviderType,
      credentialsType: a.credentialsType,
      createdAt: 1589100087000,
      createdBy: a.userId,
      configurations: {},
      accountId: a.id,
    })),
  );
}

function getAccountShares(ctx: RequestContext): Reply {
  const account = ctx.state.sharing.accounts.find((a) => String(a.id) === ctx.params.accountId);
  if (!account) throw new HttpError(404, 'Not Found');
  const list = account.shares.map((s) => ({ ...s, name: s.type === 'USER' ? userOf(ctx, Number(s.id)).displayName : `Group ${s.id}` }));
  return ok({ list, totalUserCount: list.filter((s) => s.type === 'USER').length });
}

function getFilesetAccess(ctx: RequestContext): Reply {
  const id = ctx.params.filesetId;
  if (!ctx.state.filesets.has(id)) throw new HttpError(404, 'Not Found');
  const owner = Number(ctx.state.people.owners.filesets.get(id) ?? DEFAULT_OWNER);
  const fileSetAccess = ctx.state.sharing.filesetAccess.get(id) ?? [
    { entityId: owner, entityType: 'USER', permission: 'OWNER' },
    { entityId: FILLER_SHARE_GROUP, entityType: 'GROUP', permission: 'EDIT' },
  ];
  return ok({ fileSetAccess, fileSetId: id });
}

function getWorkflowPermissions(ctx: RequestContext): Reply {
  const workflow = ctx.state.workflows.find((w) => w.id === ctx.params.workflowId);
  if (!workflow) throw new HttpError(404, 'Not Found');
  const set = ctx.state.sharing.workflowPermissions.get(workflow.id) ?? {
    USER: [{ id: workflow.owner, name: userOf(ctx, Number(workflow.owner)).displayName, permissions: ['ADMIN'] }],
    GROUP: [{ id: String(FILLER_SHARE_GROUP), name: `Group ${FILLER_SHARE_GROUP}`, permissions: ['EXECUTE'] }],
  };
  return ok(set);
}

/**
 * With `load_associations` the platform names each policy's principals again in `resources`, by
 * type, each type only where it has some (pdp-filter-groups.json); a policy set with its own
 * `resources` is answered as set.
 */
function getPdpPolicies(ctx: RequestContext): Reply {
  if (!ctx.state.datasetAccess.has(ctx.params.datasetId)) throw new HttpError(404, 'Not Found');
  const policies = ctx.state.sharing.pdp.get(ctx.params.datasetId) ?? [];
  if (!(ctx.query.get('options') ?? '').split(',').includes('load_associations')) return ok(policies);
  return ok(
    policies.map((p) => {
      if (p.resources !== undefined) return p;
      const byType = { USER: p.userIds, GROUP: p.groupIds, VIRTUAL_USER: p.virtualUserIds };
      return { ...p, resources: Object.fromEntries(Object.entries(byType).filter(([, ids]) => ids && ids.length > 0)) };
    }),
  );
}

export const handlers = {
  listPages,
  getPageAccessList,
  listCardSummaries,
  getCardAccessList,
  listAccounts,
  getAccountShares,
  getFilesetAccess,
  getWorkflowPermissions,
  getPdpPolicies,
} satisfies Handlers;
