// The writes a fix plan can carry, in one table: a planned request names its operation, method,
// encoded path and body, and `send` puts exactly that on the wire after checking that the
// method and path are the operation's own (a plan file edited by hand cannot reach another
// endpoint with the token).
import type { HttpMethod, Transport } from './http.js';
import type { WriteOperationId, WriteRequest } from './types.js';

export const WRITES: Readonly<Record<WriteOperationId, { method: Exclude<HttpMethod, 'GET'>; path: string }>> = {
  createDatasetTags: { method: 'POST', path: '/api/data/ui/v3/datasources/{datasetId}/tags' },
  updateQueuePermissions: { method: 'POST', path: '/api/queues/v1/{queueId}/permissions' },
  updateFilePermissions: { method: 'PUT', path: '/api/data/v1/data-files/{dataFileId}/permissions' },
  indexDataset: { method: 'POST', path: '/api/query/v1/datasources/{datasetId}' },
};

const isWriteOperation = (op: string): op is WriteOperationId => Object.hasOwn(WRITES, op);

/** The request that `send` accepts: the path with each `{param}` as one encoded segment. */
export function writeRequest(
  operation: WriteOperationId,
  params: Record<string, string>,
  body: unknown,
): WriteRequest {
  const { method, path } = WRITES[operation];
  const encoded = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return { operation, method, path: encoded, body };
}

/** Why `request` is not one of WRITES as `writeRequest` builds it (null when it is). */
export function badWriteRequest(request: WriteRequest): string | null {
  if (!isWriteOperation(request.operation)) return `unknown write operation ${JSON.stringify(request.operation)}`;
  const route = WRITES[request.operation];
  if (request.method !== route.method) return `${request.operation} is ${route.method}, not ${request.method}`;
  const pattern = route.path.split('/');
  const given = request.path.split('/');
  const fits =
    pattern.length === given.length &&
    pattern.every((p, i) => (p.startsWith('{') ? segmentOk(given[i]) : p === given[i]));
  return fits ? null : `path ${JSON.stringify(request.path)} is not ${route.path}`;
}

/** One encoded, non-empty segment that is no dot segment. */
function segmentOk(segment: string): boolean {
  if (segment === '' || /[?#]/.test(segment)) return false;
  try {
    const decoded = decodeURIComponent(segment);
    return decoded !== '.' && decoded !== '..' && encodeURIComponent(decoded) === segment;
  } catch {
    return false;
  }
}

export function sendWrite(transport: Transport, request: WriteRequest): Promise<void> {
  const bad = badWriteRequest(request);
  if (bad !== null) {
    const operation = isWriteOperation(request.operation) ? request.operation : 'updateQueuePermissions';
    throw transport.fail(
      { operation, method: request.method, path: '' },
      { kind: 'input', detail: `refused to send a planned write: ${bad}` },
    );
  }
  return transport.write({
    operation: request.operation as WriteOperationId,
    method: request.method,
    path: request.path,
    body: request.body ?? undefined,
  });
}
