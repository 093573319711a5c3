// 5. replace data-file permissions, 10. duplicate a data file.
import type { Handlers, RequestContext } from './context.js';
import { makeDataFile } from './entities.js';
import { HttpError, ok, type Reply } from './http.js';
import { dataFilePermissionsBody } from './validate.js';

function requireDataFile(ctx: RequestContext): string {
  const id = ctx.params.dataFileId;
  if (!ctx.state.dataFiles.has(id)) throw new HttpError(404, `Data file ${id} not found`);
  return id;
}

/** Replaces the stored permissions; answers 200 `{}` as the spec says. */
export function updateFilePermissions(ctx: RequestContext): Reply {
  const id = requireDataFile(ctx);
  ctx.state.dataFilePermissions.set(id, dataFilePermissionsBody(ctx.body));
  return ok({});
}

/** A new data file (next free numeric id), private with no entries, answered in full. */
export function duplicateDataFile(ctx: RequestContext): Reply {
  const sourceId = requireDataFile(ctx);
  let max = 0;
  for (const id of ctx.state.dataFiles) if (/^\d+$/.test(id)) max = Math.max(max, Number(id));
  const newId = max + 1;
  ctx.state.dataFiles.add(String(newId));
  ctx.state.dataFilePermissions.set(String(newId), { publicAccess: false, entries: [] });
  return ok(makeDataFile(newId, `data-file-${sourceId} (copy).csv`, Date.now()));
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { updateFilePermissions, duplicateDataFile } satisfies Handlers;
