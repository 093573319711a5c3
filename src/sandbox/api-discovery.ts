// Discovery and live permission reads (beyond the spec), in the shapes public captures show:
// the dataset list with `_metadata.totalCount`, the search API for cards, bare arrays of
// queues and data files, queue permissions by principal type (no names), data-file
// permissions with `entityType`, file sets by offset and their files by cursor.
import type { FilesetFile, QueuePermissionEntry } from '../api/types.js';
import type { Handlers, RequestContext } from './context.js';
import { HttpError, intParam, ok, parseJson, type Reply } from './http.js';
import { listingView } from './listing-view.js';

/** Content owned by nobody planted is owned by the first filler user (people.ts). */
const DEFAULT_OWNER = 101;

/** The page a limit/offset asks for, with the sandbox's default page size. */
function window(ctx: RequestContext, limitName: string, offsetName: string, from: Record<string, unknown> | null, size: number) {
  const read = (name: string) => (from ? (from[name] as number | undefined) : intParam(ctx.query, name));
  const limit = read(limitName) ?? size;
  const asked = ctx.switches.ignoreSkip ? 0 : (read(offsetName) ?? 0);
  return { offset: asked, limit };
}

function listDatasets(ctx: RequestContext): Reply {
  const { offset, limit } = window(ctx, 'limit', 'offset', null, 50);
  const ids = listingView(ctx.state, 'datasets', offset, () => [...ctx.state.datasetAccess.keys()]);
  const dataSources = ids.slice(offset, offset + limit).map((id) => {
    const owner = ctx.state.datasetAccess.get(id)!.list.find((e) => e.accessLevel === 'OWNER');
    // part=core's owner {id (string), name, type, group} (dataset-part-core-permission.json).
    const core = owner ? { id: owner.id, name: owner.name ?? null, type: owner.type, group: owner.type === 'GROUP' } : null;
    // part=certification: the listing's certification where the dataset has one (else none).
    const certification = ctx.state.sharing.listedCertification.get(id);
    return { id, name: id, owner: core, tags: JSON.stringify(ctx.state.datasetTags.get(id) ?? []), ...(certification ? { certification } : {}) };
  });
  return ok({ dataSources, _metadata: { totalCount: ids.length, offset, limit } });
}

function searchCards(ctx: RequestContext): Reply {
  const body = parseJson(ctx.body) as Record<string, unknown>;
  const entities = JSON.stringify(body.entityList ?? null);
  if (entities !== '[["card"]]') throw new HttpError(400, `entityList ${entities} is not served by the sandbox`);
  const { offset, limit } = window(ctx, 'count', 'offset', body, 10);
  const ids = listingView(ctx.state, 'cards', offset, () => [...ctx.state.cards]);
  if (limit > 100) throw new HttpError(400, 'count must be at most 100');
  const searchObjects = ids.slice(offset, offset + limit).map((id) => {
    const ownerId = String(ctx.state.people.owners.cards.get(id) ?? DEFAULT_OWNER);
    return {
      databaseId: /^\d+$/.test(id) ? Number(id) : id,
      entityType: 'CARD',
      name: `Card ${id}`,
      // The search's owner fields (search-query.json): ids are strings.
      ownedById: ownerId,
      ownedByType: 'USER',
      owners: [{ id: ownerId, type: 'USER', displayName: null }],
    };
  });
  return ok({ totalResultCount: ids.length, searchObjects });
}

function listQueues(ctx: RequestContext): Reply {
  const owners = ctx.state.people.owners.queues;
  return ok([...ctx.state.queuePermissions.keys()].map((id) => ({ id, name: id, archived: false, owner: owners.get(id) ?? String(DEFAULT_OWNER) })));
}

/** `{USER: [...], GROUP: [...]}` without names, as captured. */
function getQueuePermissions(ctx: RequestContext): Reply {
  const entries = ctx.state.queuePermissions.get(ctx.params.queueId);
  if (!entries) throw new HttpError(404, `Queue ${ctx.params.queueId} not found`);
  const of = (type: QueuePermissionEntry['type']) =>
    entries.filter((e) => e.type === type).map((e) => ({ id: e.id, permissions: [...e.permissions], type }));
  return ok({ USER: of('USER'), GROUP: of('GROUP') });
}

function listDataFiles(ctx: RequestContext): Reply {
  const owners = ctx.state.people.owners.dataFiles;
  return ok([...ctx.state.dataFiles].map((id) => ({ dataFileId: Number(id), name: `data-file-${id}.csv`, responsibleUserId: owners.get(id) ?? DEFAULT_OWNER })));
}

/** Every entry carries `entityType`, as the platform's reads do (USER where the state left it out). */
function getDataFilePermissions(ctx: RequestContext): Reply {
  const p = ctx.state.dataFilePermissions.get(ctx.params.dataFileId);
  if (!p) throw new HttpError(404, `Data file ${ctx.params.dataFileId} not found`);
  return ok({ publicAccess: p.publicAccess, entries: p.entries.map((e) => ({ entityType: e.entityType ?? 'USER', ...e })) });
}

function searchFilesets(ctx: RequestContext): Reply {
  const ids = [...ctx.state.filesets.keys()];
  const { offset, limit } = window(ctx, 'limit', 'offset', null, 100);
  const owners = ctx.state.people.owners.filesets;
  const fileSets = ids.slice(offset, offset + limit).map((id) => ({
    id,
    name: `File set ${id.slice(0, 8)}`,
    fileCount: ctx.state.filesets.get(id)!.size,
    owner: owners.get(id) ?? String(DEFAULT_OWNER),
  }));
  return ok({ fileSets, pageContext: { offset, limit, total: ids.length } });
}

/** A directory entry for each folder holding files, then the files by path; `next` is an opaque cursor. */
function searchFilesetFiles(ctx: RequestContext): Reply {
  const files = ctx.state.filesets.get(ctx.params.filesetId);
  if (!files) throw new HttpError(404, `File set ${ctx.params.filesetId} not found`);
  // An empty set: both nullable fields null, as the official FilePage schema allows.
  if (files.size === 0) return ok({ files: null, pageContext: null });
  const dirs = [...new Set([...files.keys()].map((p) => p.slice(0, p.lastIndexOf('/')) || '/'))].sort();
  const entries: FilesetFile[] = [
    ...dirs.map((d) => ({ id: `dir:${d}`, path: d, name: d.slice(d.lastIndexOf('/') + 1), fileType: 'DIRECTORY', size: 0 })),
    ...[...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
  ];
  const limit = intParam(ctx.query, 'limit') ?? 100;
  const cursor = ctx.query.get('next');
  const offset = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8')) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw new HttpError(400, 'bad cursor');
  const end = offset + limit;
  const next = end < entries.length ? Buffer.from(String(end)).toString('base64') : null;
  return ok({ files: entries.slice(offset, end), pageContext: { next } });
}

export const handlers = {
  listDatasets,
  searchCards,
  listQueues,
  getQueuePermissions,
  listDataFiles,
  getDataFilePermissions,
  searchFilesets,
  searchFilesetFiles,
} satisfies Handlers;
