// The route table: method, path pattern, operation (for counters), auth scheme, handler.
import type { OperationId } from '../api/types.js';
import { createDatasetTags, getDataset, getDatasetPermissions, indexDataset } from './api-datasets.js';
import { duplicateDataFile, updateFilePermissions } from './api-data-files.js';
import { getCalculatedFieldStatistics, getCertificationStatus, getFileByPath } from './api-metadata.js';
import { updateQueuePermissions } from './api-queues.js';
import { getMisconfiguredReports, listReportSchedules } from './api-schedules.js';
import { getWorkflow, listWorkflowModels, listWorkflows } from './api-workflows.js';
import type { Handler } from './context.js';

/** Path prefix of the workflow API: the sandbox's workflow URL is `${baseUrl}${WORKFLOW_PREFIX}`. */
export const WORKFLOW_PREFIX = '/workflow';

export interface Route {
  method: 'GET' | 'POST' | 'PUT';
  /** Path segments; `:name` is a parameter matching exactly one segment. */
  segments: string[];
  /** Unset: not one of the 12 operations, counted nowhere. */
  operation?: OperationId;
  auth: 'developer' | 'workflow';
  handler: Handler;
}

function route(
  method: Route['method'],
  path: string,
  operation: OperationId | undefined,
  handler: Handler,
  auth: Route['auth'] = 'developer',
): Route {
  return { method, segments: path.split('/').slice(1), operation, auth, handler };
}

export const ROUTES: readonly Route[] = [
  route('GET', '/api/content/v1/reportschedules', 'listReportSchedules', listReportSchedules),
  route('GET', '/api/content/v1/reportschedules/misconfigured', 'getMisconfiguredReports', getMisconfiguredReports),
  route('POST', '/api/data/ui/v3/datasources/:datasetId/tags', 'createDatasetTags', createDatasetTags),
  route('POST', '/api/queues/v1/:queueId/permissions', 'updateQueuePermissions', updateQueuePermissions),
  route('PUT', '/api/data/v1/data-files/:dataFileId/permissions', 'updateFilePermissions', updateFilePermissions),
  route('GET', '/api/data/v3/datasources/:datasetId/permissions', 'getDatasetPermissions', getDatasetPermissions),
  route('GET', '/api/query/v1/functions/statistics', 'getCalculatedFieldStatistics', getCalculatedFieldStatistics),
  route('GET', '/api/files/v1/filesets/:filesetId/path', 'getFileByPath', getFileByPath),
  route('POST', '/api/query/v1/datasources/:datasetId', 'indexDataset', indexDataset),
  route('POST', '/api/data/v1/data-files/:dataFileId/duplicate', 'duplicateDataFile', duplicateDataFile),
  route(
    'GET',
    '/api/tags/v3/:entityType/:entityId/system/CERTIFIED/state',
    'getCertificationStatus',
    getCertificationStatus,
  ),
  route('GET', `${WORKFLOW_PREFIX}/v1/workflows`, 'listWorkflows', listWorkflows, 'workflow'),
  route('GET', `${WORKFLOW_PREFIX}/v1/workflows/:workflowId`, undefined, getWorkflow, 'workflow'),
  // Beyond the spec (README "Beyond the spec").
  route('GET', '/api/data/v3/datasources/:datasetId', 'getDataset', getDataset),
  route('GET', '/api/workflow/v1/models', 'listWorkflowModels', listWorkflowModels),
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
