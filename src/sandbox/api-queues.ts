// 4. replace queue permissions.
import type { RequestContext } from './context.js';
import { emptyOk, HttpError, type Reply } from './http.js';
import { queuePermissionsBody } from './validate.js';

/** Replaces the whole list; answers 200 with an empty body, as the platform does. */
export function updateQueuePermissions(ctx: RequestContext): Reply {
  const id = ctx.params.queueId;
  if (!ctx.state.queuePermissions.has(id)) throw new HttpError(404, `Queue ${id} not found`);
  ctx.state.queuePermissions.set(id, queuePermissionsBody(ctx.body));
  return emptyOk();
}
