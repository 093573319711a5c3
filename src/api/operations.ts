// Every API operation steward calls, in one table: its method, host, path template, query,
// how it pages, the schema its answer is checked against, and whether it reads or writes.
// The typed client (client.ts), snapshot record/replay and the sandbox's router are built
// from this table; no other file names an operation's path. Adding an operation is one row
// here (its parameter and answer types follow from `args` and the schema, answers.ts) and its
// sandbox handler. A row is two lines where it needs no comment: where, then how it answers.
import {
  FILE_PATH_QUERY_PARAM,
  USER_SEARCH_BODY,
  SCHEDULE_ASCENDING_DEFAULT,
  SCHEDULE_FILTER_DEFAULT,
  SCHEDULE_ORDER_BY_DEFAULT,
  SCHEDULE_QUERY_PARAMS as Q,
} from './assumptions.js';
import * as S from './schemas.js';
import type { OperationSpec } from './operation-spec.js';
import type { ScheduleQuery } from './schedule-query.js';

export type { Host, HttpMethod, OperationSpec, Paging, QueryDefaults } from './operation-spec.js';

const arrayOf = <const I extends S.Schema>(items: I) => ({ type: 'array', items }) as const;

/** A paged listing's answer and item, from one item schema: every item is checked, live and replayed. */
const listedIn = <const I extends S.Schema>(keys: readonly string[], item: I, options: { nullable?: boolean } = {}) =>
  ({ response: S.listingSchema(keys, item, options), item }) as const;
const listedAsArrayOf = <const I extends S.Schema>(item: I) => ({ response: arrayOf(item), item }) as const;

/** A read beyond the spec answered in one piece by the instance host (most of §8's reads). */
const instanceRead = <const A extends readonly string[], const R extends S.Schema>(path: string, args: A, response: R) =>
  ({ method: 'GET', host: 'instance', path, args, paging: 'none', response, access: 'read', spec: null }) as const;

export const OPERATIONS = {
  listReportSchedules: {
    method: 'GET',
    host: 'instance',
    path: '/api/content/v1/reportschedules',
    args: ['query'],
    paging: 'limit-skip',
    response: arrayOf(S.reportScheduleSchema),
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
    method: 'GET', host: 'instance', path: '/api/content/v1/reportschedules/misconfigured', args: [],
    paging: 'limit-skip', response: arrayOf(S.misconfiguredReportSchema), access: 'read', spec: 2,
  },
  createDatasetTags: {
    method: 'POST', host: 'instance', path: '/api/data/ui/v3/datasources/{datasetId}/tags', args: ['datasetId', 'body'],
    paging: 'none', response: null, access: 'write', spec: 3,
  },
  updateQueuePermissions: {
    method: 'POST', host: 'instance', path: '/api/queues/v1/{queueId}/permissions', args: ['queueId', 'body'],
    paging: 'none', response: null, access: 'write', spec: 4,
  },
  updateFilePermissions: {
    method: 'PUT', host: 'instance', path: '/api/data/v1/data-files/{dataFileId}/permissions', args: ['dataFileId', 'body'],
    paging: 'none', response: null, access: 'write', spec: 5,
  },
  getDatasetPermissions: {
    method: 'GET', host: 'instance', path: '/api/data/v3/datasources/{datasetId}/permissions', args: ['datasetId'],
    paging: 'none', response: S.datasetAccessListSchema, access: 'read', spec: 6,
  },
  getCalculatedFieldStatistics: {
    method: 'GET', host: 'instance', path: '/api/query/v1/functions/statistics', args: [],
    paging: 'none', response: S.calculatedFieldStatisticsSchema, access: 'read', spec: 7,
  },
  getFileByPath: {
    method: 'GET', host: 'instance', path: '/api/files/v1/filesets/{filesetId}/path',
    args: ['filesetId', `query:${FILE_PATH_QUERY_PARAM}`],
    paging: 'none', response: S.filesetFileSchema, access: 'read', spec: 8,
  },
  indexDataset: {
    method: 'POST', host: 'instance', path: '/api/query/v1/datasources/{datasetId}', args: ['datasetId'],
    paging: 'none', response: null, access: 'write', spec: 9,
  },
  duplicateDataFile: {
    method: 'POST', host: 'instance', path: '/api/data/v1/data-files/{dataFileId}/duplicate', args: ['dataFileId'],
    paging: 'none', response: S.dataFileSchema, access: 'write', spec: 10,
  },
  getCertificationStatus: {
    method: 'GET', host: 'instance', path: '/api/tags/v3/{entityType}/{entityId}/system/CERTIFIED/state',
    args: ['entityType', 'entityId'],
    paging: 'none', response: S.certificationStatusSchema, access: 'read', spec: 11,
  },
  // The list body is not shown: assumed a bare array of objects with a string `id`
  // (WORKFLOW_LIST_SHAPE). Without a workflow URL the instance host's model list answers.
  listWorkflows: {
    method: 'GET', host: 'workflow', path: '/v1/workflows', args: [],
    paging: 'none', response: arrayOf(S.workflowSchema), access: 'read', spec: 12, fallback: 'listWorkflowModels',
  },
  // Beyond the spec: the dataset object, whose `tags` is a JSON-encoded array of strings (a
  // community library's printed live answer). The tag POST replaces the list, so the `tag` fix
  // reads this first and sends the union.
  getDataset: instanceRead('/api/data/v3/datasources/{datasetId}', ['datasetId'], S.datasetDetailsSchema),
  // Beyond the spec: the instance host's documented workflow list (developer token; a captured
  // answer is a bare array of models with a UUID `id`). Paged with limit/skip like the schedule
  // list: a server that ignores skip repeats its first page, which ends the read as incomplete.
  listWorkflowModels: {
    method: 'GET', host: 'instance', path: '/api/workflow/v1/models', args: [],
    paging: 'limit-skip', response: arrayOf(S.workflowSchema), access: 'read', spec: null,
  },
  // --- Discovery and live permissions, beyond the spec (README "Beyond the spec") ---
  // Datasets: offset paging until `_metadata.totalCount` (the key's case varies between captures).
  listDatasets: {
    method: 'GET', host: 'instance', path: '/api/data/v3/datasources', args: [],
    paging: 'offset-total', ...listedIn(['dataSources'], S.datasetListItemSchema), access: 'read', spec: null,
    query: () => ({ part: 'core,certification' }),
    page: { items: ['dataSources'], total: ['_metadata.totalCount', '_metaData.totalCount'], size: 50, in: 'query', limitName: 'limit', offsetName: 'offset' },
  },
  // Cards: the search API (count ≤ 100 a page, at most 10,000 records in all; ~120 requests a minute).
  searchCards: {
    method: 'POST', host: 'instance', path: '/api/search/v1/query', args: [],
    paging: 'offset-total', ...listedIn(['searchObjects'], S.searchObjectSchema), access: 'read', spec: null,
    body: { query: '*', entityList: [['card']] },
    page: { items: ['searchObjects'], id: 'databaseId', total: ['totalResultCount'], size: 100, in: 'body', limitName: 'count', offsetName: 'offset', maxTotal: 10_000 },
  },
  // Queues the token's user can access: a bare array, no paging documented.
  listQueues: {
    method: 'GET', host: 'instance', path: '/api/queues/v1/', args: [],
    paging: 'none', response: arrayOf(S.queueSchema), access: 'read', spec: null,
    query: () => ({ combineAttributes: true, archived: false }),
  },
  // A queue's permissions: `{USER: [...], GROUP: [...]}` (a captured answer).
  getQueuePermissions: instanceRead('/api/queues/v1/{queueId}/permissions', ['queueId'], S.queuePermissionsReadSchema),
  // Data files the token's user can access: a bare array of file objects, no paging documented.
  listDataFiles: instanceRead('/api/data/v1/data-files/details', [], arrayOf(S.dataFileListItemSchema)),
  // A data file's permissions, in the PUT body's shape with `entityType` (the Files reference).
  getDataFilePermissions: instanceRead('/api/data/v1/data-files/{dataFileId}/permissions', ['dataFileId'], S.dataFilePermissionsReadSchema),
  // File sets: a search with offset paging; the list key and the total's key vary between samples.
  searchFilesets: {
    method: 'POST',
    host: 'instance',
    path: '/api/files/v1/filesets/search',
    args: [],
    paging: 'offset-total',
    ...listedIn(['fileSets', 'filesets'], S.filesetSchema),
    access: 'read',
    spec: null,
    body: {},
    // The official FileSetPage has no total; a captured answer has `pageContext {count, offset, totalCount}`.
    page: { items: ['fileSets', 'filesets'], total: ['pageContext.total', 'pageContext.totalCount'], totalOptional: true, size: 100, in: 'query', limitName: 'limit', offsetName: 'offset' },
  },
  // A file set's files: cursor paging (`pageContext.next`); entries include directories.
  searchFilesetFiles: {
    method: 'POST',
    host: 'instance',
    path: '/api/files/v1/filesets/{filesetId}/files/search',
    args: ['filesetId'],
    paging: 'cursor',
    // The official FilePage types `files` and `pageContext` nullable (an empty set).
    ...listedIn(['files'], S.filesetFileSchema, { nullable: true }),
    access: 'read',
    spec: null,
    body: {},
    query: () => ({ directoryPath: '', immediateChildren: false }),
    page: { items: ['files'], nullItems: true, next: 'pageContext.next', size: 100, in: 'query', limitName: 'limit', cursorName: 'next' },
  },
  // --- Identity (PLATFORM.md §8), beyond the spec ---
  // Users: a search with limit/offset in the body and `count` when showCount is sent (clients
  // page at 200). The criteria are the caller's (the deleted users' listing), by default the live users.
  // Read once a run, into the user directory: its pages are not memoised (100,000 users kept
  // 270 MB of answers alive for a directory of a tenth of that).
  searchUsers: {
    method: 'POST', host: 'instance', path: '/api/identity/v1/users/search', args: ['body'],
    paging: 'offset-total', ...listedIn(['users'], S.identityUserSchema), body: USER_SEARCH_BODY,
    access: 'read', spec: null,
    page: { items: ['users'], total: ['count'], size: 200, in: 'body', limitName: 'limit', offsetName: 'offset', readOnce: true },
  },
  // Groups: a bare array paged by limit/offset with no total; a short page ends it.
  listGroups: {
    method: 'GET', host: 'instance', path: '/api/content/v2/groups/grouplist', args: [],
    paging: 'offset-total', ...listedAsArrayOf(S.groupSchema), access: 'read', spec: null,
    page: { items: [''], id: 'groupId', totalOptional: true, size: 100, in: 'query', limitName: 'limit', offsetName: 'offset' },
  },
  // One group's members (USER entries; no paging seen).
  getGroupUsers: instanceRead('/api/content/v2/groups/users', ['query:group'], S.groupUsersSchema),
  // One group, deleted ones included (`active: false`); a group owner's state comes from here.
  // After the two literal paths above: the sandbox routes in this order, as the platform does.
  getGroup: instanceRead('/api/content/v2/groups/{groupId}', ['groupId'], S.groupGetSchema),
  // Roles: a bare array, no paging.
  listRoles: instanceRead('/api/authorization/v1/roles', [], arrayOf(S.roleSchema)),
  // A role's grants: a bare array of authority names.
  getRoleAuthorities: instanceRead('/api/authorization/v1/roles/{roleId}/authorities', ['roleId'], S.roleAuthoritiesSchema),
  // Every authority (grant) of the instance with its admin level: a bare array, no paging.
  listAuthorities: instanceRead('/api/authorization/v1/authorities', [], arrayOf(S.authoritySchema)),
  // A role's holders: offset/limit in the query with `totalCount` (the captured example pages at 50).
  listRoleUsers: {
    method: 'GET', host: 'instance', path: '/api/authorization/v1/roles/{roleId}/users', args: ['roleId'],
    paging: 'offset-total', ...listedIn(['users'], S.roleUserSchema), access: 'read', spec: null,
    page: { items: ['users'], id: 'userId', total: ['totalCount'], size: 50, in: 'query', limitName: 'limit', offsetName: 'offset' },
  },
  // Access tokens: a bare array, no paging; the owner is an id (ownerName/ownerEmail null).
  listAccessTokens: instanceRead('/api/data/v1/accesstokens', [], arrayOf(S.accessTokenSchema)),
  // --- Sharing and row-level security (PLATFORM.md §8), beyond the spec ---
  // Pages: the admin summary, skip/limit in the query, items in `pageAdminSummaries`, no total.
  listPages: {
    method: 'POST', host: 'instance', path: '/api/content/v1/pages/adminsummary', args: [],
    paging: 'offset-total', ...listedIn(['pageAdminSummaries'], S.pageSummarySchema), access: 'read',
    spec: null, body: { orderBy: 'pageTitle', ascending: true },
    page: { items: ['pageAdminSummaries'], id: 'pageId', totalOptional: true, size: 100, in: 'query', limitName: 'limit', offsetName: 'skip' },
  },
  // A page's access list: direct users, groups with their users (expandUsers), distinct people reached.
  getPageAccessList: { ...instanceRead('/api/content/v1/share/accesslist/page/{pageId}', ['pageId'], S.contentAccessListSchema), query: () => ({ expandUsers: true }) },
  // Cards: the admin summary, skip/limit in the query (limit ≤ 100), items in `cardAdminSummaries`.
  listCardSummaries: {
    method: 'POST', host: 'instance', path: '/api/content/v2/cards/adminsummary', args: [],
    paging: 'offset-total', ...listedIn(['cardAdminSummaries'], S.cardSummarySchema), access: 'read',
    spec: null, body: {},
    page: { items: ['cardAdminSummaries'], totalOptional: true, size: 100, in: 'query', limitName: 'limit', offsetName: 'skip' },
  },
  // A card's access list: not shown publicly; the page's form is assumed (CARD_ACCESS_LIST_FORM).
  getCardAccessList: { ...instanceRead('/api/content/v1/share/accesslist/badge/{cardId}', ['cardId'], S.contentAccessListSchema), query: () => ({ expandUsers: true }) },
  // Connector accounts the token's user can see (all of them with account.admin): a bare array.
  listAccounts: instanceRead('/api/data/v1/accounts', [], arrayOf(S.accountSchema)),
  // An account's share list: `{list: [{type, id, accessLevel, name}], totalUserCount}`.
  getAccountShares: instanceRead('/api/data/v2/accounts/share/{accountId}', ['accountId'], S.accountSharesSchema),
  // A file set's access: `{fileSetId, fileSetAccess: [{entityId, entityType, permission}]}`.
  getFilesetAccess: instanceRead('/api/files/v1/filesets/{filesetId}/access', ['filesetId'], S.filesetAccessSchema),
  // A workflow's permissions on the instance host: grouped by USER/GROUP, no type field.
  getWorkflowPermissions: instanceRead('/api/workflow/v1/models/{workflowId}/permissions', ['workflowId'], S.workflowPermissionsSchema),
  // A dataset's PDP policies, the open "All Rows" one included, with their principals and filters.
  getPdpPolicies: {
    ...instanceRead('/api/query/v1/data-control/{datasetId}/filter-groups', ['datasetId'], S.pdpPoliciesSchema),
    query: () => ({ options: 'load_associations,include_open_policy,load_filters,sort' }),
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
