// Validation of write bodies: the sandbox rejects what the platform would, with a 400 whose
// message names the offending field, so a client bug shows up as a clear test failure.
import { QUEUE_PERMISSIONS } from '../api/vocabularies.js';
import type { DataFilePermissions, PrincipalType, QueuePermissionEntry } from '../api/types.js';
import { HttpError, parseJson } from './http.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const allowed = new Set<string>(QUEUE_PERMISSIONS);

export function queuePermissionsBody(raw: string): QueuePermissionEntry[] {
  const body = parseJson(raw);
  if (!Array.isArray(body)) throw new HttpError(400, 'Body must be an array of permission entries');
  body.forEach((entry, i) => {
    const at = `entry [${i}]`;
    if (!isObject(entry)) throw new HttpError(400, `${at} must be an object`);
    if (typeof entry.id !== 'string' || entry.id === '') throw new HttpError(400, `${at}: id must be a non-empty string`);
    if (typeof entry.name !== 'string') throw new HttpError(400, `${at}: name must be a string`);
    if (entry.type !== 'USER' && entry.type !== 'GROUP') {
      throw new HttpError(400, `${at}: type must be USER or GROUP, got ${JSON.stringify(entry.type)}`);
    }
    if (!Array.isArray(entry.permissions)) throw new HttpError(400, `${at}: permissions must be an array`);
    for (const p of entry.permissions) {
      if (typeof p !== 'string' || !allowed.has(p)) {
        throw new HttpError(400, `${at}: unknown permission ${JSON.stringify(p)}`);
      }
    }
  });
  // Keep only the documented fields, as the platform stores them.
  return (body as QueuePermissionEntry[]).map(({ id, name, type, permissions }) => ({
    id,
    name,
    type,
    permissions: [...permissions],
  }));
}

export function dataFilePermissionsBody(raw: string): DataFilePermissions {
  const body = parseJson(raw);
  if (!isObject(body)) throw new HttpError(400, 'Body must be an object with publicAccess and entries');
  if (typeof body.publicAccess !== 'boolean') throw new HttpError(400, 'publicAccess must be a boolean');
  if (!Array.isArray(body.entries)) throw new HttpError(400, 'entries must be an array');
  const entries = body.entries.map((entry: unknown, i: number) => {
    if (!isObject(entry)) throw new HttpError(400, `entries[${i}] must be an object`);
    for (const key of ['entityId', 'grant', 'pass'] as const) {
      if (typeof entry[key] !== 'string') throw new HttpError(400, `entries[${i}].${key} must be a string`);
    }
    const { entityType } = entry;
    if (entityType !== undefined && entityType !== 'USER' && entityType !== 'GROUP') {
      throw new HttpError(400, `entries[${i}].entityType must be USER or GROUP, got ${JSON.stringify(entityType)}`);
    }
    const kept = { entityId: entry.entityId as string, grant: entry.grant as string, pass: entry.pass as string };
    return entityType === undefined ? kept : { entityType: entityType as PrincipalType, ...kept };
  });
  return { publicAccess: body.publicAccess, entries };
}

export function tagsBody(raw: string): string[] {
  const body = parseJson(raw);
  if (!Array.isArray(body) || !body.every((t) => typeof t === 'string')) {
    throw new HttpError(400, 'Body must be a JSON array of tag strings');
  }
  return body as string[];
}
