// The router, built from the operations table: each operation's method, host and path (with
// `{name}` as a one-segment parameter) routed to its handler, counted under the operation.
import { OPERATION_IDS, type OperationId, operation } from '../api/operations.js';
import { getWorkflow } from './api-workflows.js';
import type { Handler } from './context.js';
import { HANDLERS } from './handlers.js';

/** Path prefix of the workflow API: the sandbox's workflow URL is `${baseUrl}${WORKFLOW_PREFIX}`. */
export const WORKFLOW_PREFIX = '/workflow';

export interface Route {
  method: 'GET' | 'POST' | 'PUT';
  /** Path segments; `:name` is a parameter matching exactly one segment. */
  segments: string[];
  /** Unset: not an operation of the table, counted nowhere. */
  operation?: OperationId;
  auth: 'developer' | 'workflow';
  handler: Handler;
}

/** `/a/{id}/b` on the workflow host → segments of `/workflow/a/:id/b`. */
function segmentsOf(path: string, host: 'instance' | 'workflow'): string[] {
  const full = (host === 'workflow' ? WORKFLOW_PREFIX : '') + path;
  // A trailing slash matches with or without it.
  return full.replace(/\{(\w+)\}/g, ':$1').replace(/\/$/, '').split('/').slice(1);
}

function routeOf(id: OperationId): Route {
  const op = operation(id);
  // HANDLERS is complete by type: a row without a handler does not build.
  return { method: op.method, segments: segmentsOf(op.path, op.host), operation: id, auth: op.host === 'workflow' ? 'workflow' : 'developer', handler: HANDLERS[id] };
}

export const ROUTES: readonly Route[] = [
  ...OPERATION_IDS.map(routeOf),
  // Not an operation steward calls: gives the workflow API's "unknown or invisible id" its 404.
  { method: 'GET', segments: [...routeOf('listWorkflows').segments, ':workflowId'], auth: 'workflow', handler: getWorkflow },
];

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

/**
 * Matches raw (still encoded) segments, then decodes each parameter on its own, so `a%2Fb`
 * is the id `a/b` and never an extra path segment. A malformed escape matches nothing.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const raw = pathname.split('/').slice(1);
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  const allow: string[] = [];
  for (const r of ROUTES) {
    const params = matchSegments(r.segments, raw);
    if (!params) continue;
    if (r.method === method) return { kind: 'found', route: r, params };
    allow.push(r.method);
  }
  return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'none' };
}

function matchSegments(pattern: string[], raw: string[]): Record<string, string> | undefined {
  if (pattern.length !== raw.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith(':')) {
      if (raw[i] === '') return undefined;
      try {
        params[p.slice(1)] = decodeURIComponent(raw[i]);
      } catch {
        return undefined;
      }
    } else if (p !== raw[i]) {
      return undefined;
    }
  }
  return params;
}
