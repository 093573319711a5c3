// 4. set queue permissions.
import type { QueuePermissionEntry } from '../api/types.js';
import type { Handlers, RequestContext } from './context.js';
import { emptyOk, HttpError, type Reply } from './http.js';
import { queuePermissionsBody } from './validate.js';

/**
 * Each entry of the body sets that entity's permissions, and an empty array removes them (the
 * platform's docs: "the array can be empty (removes permissions)"); entities the body leaves out
 * keep theirs. A client that dropped an entry to revoke it would leave it in place here, as it
 * might on the platform. Answers 200 with an empty body, as the platform does.
 */
export function updateQueuePermissions(ctx: RequestContext): Reply {
  const id = ctx.params.queueId;
  const current = ctx.state.queuePermissions.get(id);
  if (!current) throw new HttpError(404, `Queue ${id} not found`);
  const next: QueuePermissionEntry[] = [...current];
  for (const entry of queuePermissionsBody(ctx.body)) {
    const at = next.findIndex((e) => e.id === entry.id && e.type === entry.type);
    if (entry.permissions.length === 0) {
      if (at !== -1) next.splice(at, 1);
    } else if (at === -1) {
      next.push(entry);
    } else {
      next[at] = entry;
    }
  }
  ctx.state.queuePermissions.set(id, next);
  return emptyOk();
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { updateQueuePermissions } satisfies Handlers;
