// Planned writes: a planned request names its operation, method, encoded path and body (all
// from the operations table), and `send` puts exactly that on the wire after checking that the
// method and path are the operation's own (a plan file edited by hand cannot reach another
// endpoint with the token).
import type { Transport } from './http.js';
import { OPERATIONS, type WriteOperationId } from './operations.js';
import type { WriteRequest } from './types.js';

/** The writes a fix can plan: their answer is success or failure, nothing to read. */
export const PLANNABLE_WRITES = ['createDatasetTags', 'updateQueuePermissions', 'updateFilePermissions', 'indexDataset'] as const;
export type PlannableWrite = (typeof PLANNABLE_WRITES)[number];

const isPlannable = (op: string): op is PlannableWrite => (PLANNABLE_WRITES as readonly string[]).includes(op);

/** The request that `send` accepts: the path with each `{param}` as one encoded segment. */
export function writeRequest(operation: PlannableWrite, params: Record<string, string>, body: unknown): WriteRequest {
  const { method, path } = OPERATIONS[operation];
  const encoded = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return { operation, method, path: encoded, body };
}

/** Why `request` is not one of WRITES as `writeRequest` builds it (null when it is). */
export function badWriteRequest(request: WriteRequest): string | null {
  if (!isPlannable(request.operation)) return `unknown write operation ${JSON.stringify(request.operation)}`;
  const route = OPERATIONS[request.operation];
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
    const operation: WriteOperationId = isPlannable(request.operation) ? request.operation : 'updateQueuePermissions';
    throw transport.fail(
      { operation, method: request.method, path: '' },
      { kind: 'input', detail: `refused to send a planned write: ${bad}` },
    );
  }
  return transport.write({
    operation: request.operation as PlannableWrite,
    method: request.method,
    path: request.path,
    body: request.body ?? undefined,
  });
}
