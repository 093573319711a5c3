// 3. dataset tags, 6. dataset access list, 9. index dataset. A dataset exists when it has an
// access list in the state.
import type { Handlers, RequestContext } from './context.js';
import { emptyOk, HttpError, ok, type Reply } from './http.js';
import { tagsBody } from './validate.js';

function requireDataset(ctx: RequestContext): string {
  const id = ctx.params.datasetId;
  if (!ctx.state.datasetAccess.has(id)) throw new HttpError(404, `Dataset ${id} not found`);
  return id;
}

/** Replaces the tag list with the body's tags (duplicates dropped), as the platform does; answers 200 `{}`. */
export function createDatasetTags(ctx: RequestContext): Reply {
  const id = requireDataset(ctx);
  ctx.state.datasetTags.set(id, [...new Set(tagsBody(ctx.body))]);
  return ok({});
}

/** Beyond the spec: the dataset object; `tags` is a JSON-encoded string, as the platform sends it. */
export function getDataset(ctx: RequestContext): Reply {
  const id = requireDataset(ctx);
  const access = ctx.state.datasetAccess.get(id)!;
  const owner = access.list.find((e) => e.accessLevel === 'OWNER');
  return ok({
    id,
    name: id,
    owner: owner ? { id: owner.id, name: owner.name ?? null, type: owner.type } : null,
    tags: JSON.stringify(ctx.state.datasetTags.get(id) ?? []),
  });
}

export function getDatasetPermissions(ctx: RequestContext): Reply {
  return ok(ctx.state.datasetAccess.get(requireDataset(ctx)));
}

/** Records the request; answers 200 with an empty body. */
export function indexDataset(ctx: RequestContext): Reply {
  ctx.state.indexRequests.push(requireDataset(ctx));
  return emptyOk();
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { createDatasetTags, getDataset, getDatasetPermissions, indexDataset } satisfies Handlers;
