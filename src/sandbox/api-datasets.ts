// 3. dataset tags, 6. dataset access list, 9. index dataset. A dataset exists when it has an
// access list in the state.
import type { RequestContext } from './context.js';
import { emptyOk, HttpError, ok, type Reply } from './http.js';
import { tagsBody } from './validate.js';

function requireDataset(ctx: RequestContext): string {
  const id = ctx.params.datasetId;
  if (!ctx.state.datasetAccess.has(id)) throw new HttpError(404, `Dataset ${id} not found`);
  return id;
}

/** Adds the tags (no duplicates) and answers 200 with an empty body. */
export function createDatasetTags(ctx: RequestContext): Reply {
  const id = requireDataset(ctx);
  const tags = tagsBody(ctx.body);
  const current = ctx.state.datasetTags.get(id) ?? [];
  for (const tag of tags) if (!current.includes(tag)) current.push(tag);
  ctx.state.datasetTags.set(id, current);
  return emptyOk();
}

export function getDatasetPermissions(ctx: RequestContext): Reply {
  return ok(ctx.state.datasetAccess.get(requireDataset(ctx)));
}

/** Records the request; answers 200 with an empty body. */
export function indexDataset(ctx: RequestContext): Reply {
  ctx.state.indexRequests.push(requireDataset(ctx));
  return emptyOk();
}
