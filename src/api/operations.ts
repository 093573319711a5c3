// Every API operation steward calls, in one table: its method, host, path template, query,
// how it pages, the schema its answer is checked against, and whether it reads or writes.
// The typed client (client.ts), snapshot record/replay and the sandbox's router are built
// from this table; no other file names an operation's path. Adding a read operation is one
// row here, its argument and result types in OperationTypes (types.ts), a sandbox handler,
// and whatever kind uses it.
import {
  FILE_PATH_QUERY_PARAM,
  SCHEDULE_ASCENDING_DEFAULT,
  SCHEDULE_FILTER_DEFAULT,
  SCHEDULE_ORDER_BY_DEFAULT,
  SCHEDULE_QUERY_PARAMS as Q,
} from './assumptions.js';
import {
  calculatedFieldStatisticsSchema,
  certificationStatusSchema,
  dataFileSchema,
  datasetAccessListSchema,
  datasetDetailsSchema,
  filesetFileSchema,
  misconfiguredReportSchema,
  reportScheduleSchema,
  type Schema,
  workflowSchema,
} from './schemas.js';
import type { ScheduleFilter, ScheduleQuery } from './types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** Which host and auth scheme: the instance (developer token) or the workflow API (Bearer). */
export type Host = 'instance' | 'workflow';

/**
 * How a read pages. `none`: one answer. `limit-skip`: pages of `limit` items read at growing
 * `skip` until a short page (an async iterable of pages).
 */
export type Paging = 'none' | 'limit-skip';

/** What the client adds to a request from its options (the schedule filter, the page size). */
export interface QueryDefaults {
  scheduleFilter?: ScheduleFilter;
}

export interface OperationSpec {
  method: HttpMethod;
  host: Host;
  /** Path below the host's base URL; each `{name}` is one URL-encoded path segment. */
  path: string;
  /** The call's positional arguments: path parameters by name, then `body`, `query` (an object) or `query:<name>`. */
  args: readonly string[];
  paging: Paging;
  /** The answer's JSON Schema (checked: a mismatch is API drift); null: any 2xx answer is success. */
  response: Schema | null;
  access: 'read' | 'write';
  /** The operation's number in api-spec.md; null: beyond the spec (README "Beyond the spec"). */
  spec: number | null;
  /** Query built from the `query` argument and the client's defaults. */
  query?: (arg: unknown, defaults: QueryDefaults) => Record<string, string | number | boolean | undefined>;
  /** Without this host configured, the operation is answered by this one (the same result). */
  fallback?: string;
}

const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

export const OPERATIONS = {
  listReportSchedules: {
    method: 'GET',
    host: 'instance',
    path: '/api/content/v1/reportschedules',
    args: ['query'],
    paging: 'limit-skip',
    response: arrayOf(reportScheduleSchema),
    access: 'read',
    spec: 1,
    // orderBy is always sent: paging by skip without it repeats and drops rows.
    query: (arg, defaults) => {
      const q = (arg ?? {}) as ScheduleQuery;
      return {
        [Q.filter]: q.filter ?? defaults.scheduleFilter ?? SCHEDULE_FILTER_DEFAULT,
        [Q.title]: q.title,
        [Q.orderBy]: q.orderBy ?? SCHEDULE_ORDER_BY_DEFAULT,
        [Q.isAscending]: q.isAscending ?? SCHEDULE_ASCENDING_DEFAULT,
      };
    },
  },
  getMisconfiguredReports: {
    method: 'GET',
    host: 'instance',
    path: '/api/content/v1/reportschedules/misconfigured',
    args: [],
    paging: 'limit-skip',
    response: arrayOf(misconfiguredReportSchema),
    access: 'read',
    spec: 2,
  },
  createDatasetTags: {
    method: 'POST',
    host: 'instance',
    path: '/api/data/ui/v3/datasources/{datasetId}/tags',
    args: ['datasetId', 'body'],
    paging: 'none',
    response: null,
    access: 'write',
    spec: 3,
  },
  updateQueuePermissions: {
    method: 'POST',
    host: 'instance',
    path: '/api/queues/v1/{queueId}/permissions',
    args: ['queueId', 'body'],
    paging: 'none',
    response: null,
    access: 'write',
    spec: 4,
  },
  updateFilePermissions: {
    method: 'PUT',
    host: 'instance',
    path: '/api/data/v1/data-files/{dataFileId}/permissions',
    args: ['dataFileId', 'body'],
    paging: 'none',
    response: null,
    access: 'write',
    spec: 5,
  },
  getDatasetPermissions: {
    method: 'GET',
    host: 'instance',
    path: '/api/data/v3/datasources/{datasetId}/permissions',
    args: ['datasetId'],
    paging: 'none',
    response: datasetAccessListSchema,
    access: 'read',
    spec: 6,
  },
  getCalculatedFieldStatistics: {
    method: 'GET',
    host: 'instance',
    path: '/api/query/v1/functions/statistics',
    args: [],
    paging: 'none',
    response: calculatedFieldStatisticsSchema,
    access: 'read',
    spec: 7,
  },
  getFileByPath: {
    method: 'GET',
    host: 'instance',
    path: '/api/files/v1/filesets/{filesetId}/path',
    args: ['filesetId', `query:${FILE_PATH_QUERY_PARAM}`],
    paging: 'none',
    response: filesetFileSchema,
    access: 'read',
    spec: 8,
  },
  indexDataset: {
    method: 'POST',
    host: 'instance',
    path: '/api/query/v1/datasources/{datasetId}',
    args: ['datasetId'],
    paging: 'none',
    response: null,
    access: 'write',
    spec: 9,
  },
  duplicateDataFile: {
    method: 'POST',
    host: 'instance',
    path: '/api/data/v1/data-files/{dataFileId}/duplicate',
    args: ['dataFileId'],
    paging: 'none',
    response: dataFileSchema,
    access: 'write',
    spec: 10,
  },
  getCertificationStatus: {
    method: 'GET',
    host: 'instance',
    path: '/api/tags/v3/{entityType}/{entityId}/system/CERTIFIED/state',
    args: ['entityType', 'entityId'],
    paging: 'none',
    response: certificationStatusSchema,
    access: 'read',
    spec: 11,
  },
  // The list body is not shown: assumed a bare array of objects with a string `id`
  // (WORKFLOW_LIST_SHAPE). Without a workflow URL the instance host's model list answers.
  listWorkflows: {
    method: 'GET',
    host: 'workflow',
    path: '/v1/workflows',
    args: [],
    paging: 'none',
    response: arrayOf(workflowSchema),
    access: 'read',
    spec: 12,
    fallback: 'listWorkflowModels',
  },
  // Beyond the spec: the dataset object, whose `tags` is a JSON-encoded array of strings (a
  // community library's printed live answer). The tag POST replaces the list, so the `tag` fix
  // reads this first and sends the union.
  getDataset: {
    method: 'GET',
    host: 'instance',
    path: '/api/data/v3/datasources/{datasetId}',
    args: ['datasetId'],
    paging: 'none',
    response: datasetDetailsSchema,
    access: 'read',
    spec: null,
  },
  // Beyond the spec: the instance host's documented workflow list (developer token; a captured
  // answer is a bare array of models with a UUID `id`). Paged with limit/skip like the schedule
  // list: a server that ignores skip repeats its first page, which ends the read as incomplete.
  listWorkflowModels: {
    method: 'GET',
    host: 'instance',
    path: '/api/workflow/v1/models',
    args: [],
    paging: 'limit-skip',
    response: arrayOf(workflowSchema),
    access: 'read',
    spec: null,
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATIONS;

export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** The row of `id` with the table's common type (the `as const` literal types widened). */
export function operation(id: OperationId): OperationSpec {
  return OPERATIONS[id];
}

export type ReadOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]['access'] extends 'read' ? K : never }[OperationId];
export type WriteOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]['access'] extends 'write' ? K : never }[OperationId];
