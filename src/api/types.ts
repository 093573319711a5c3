// Types of the instance API, from ../shared/api-spec.md tables. Extra fields may appear in
// responses; only the documented ones are typed (and validated, see schemas.ts).
import type { SecretSet } from '../core/redact.js';
import type { OperationId } from './operations.js';
import type { AccessToken, GroupListItem, GroupUsers, IdentityUser, Role, RoleUser } from './identity-types.js';
import type { ScheduleFilter, ScheduleQuery } from './schedule-query.js';
import type { Account, AccountShares, CardSummary, ContentAccessList, FilesetAccess, PageSummary, PdpPolicy, WorkflowPermissions } from './sharing-types.js';

export type { OperationId, WriteOperationId } from './operations.js';

export interface ScheduleSettings {
  frequency: string;
  daysToRun?: string | null;
  hourOfDay?: number | null;
  minOfHour?: number | null;
  timezone?: string | null;
  enabled: boolean;
  [extra: string]: unknown;
}

/** `id` joins the misconfigured list and `cardId` the cards: both are checked; the rest may be null. */
export interface ReportSchedule {
  id: number;
  reportViewId?: number | null;
  pageId?: number | null;
  title: string | null;
  viewName?: string | null;
  type?: string | null;
  ownerId?: number | null;
  embedViewId?: number | null;
  owner?: boolean | null;
  cardCount?: number | null;
  recipientCount?: number | null;
  cardId?: number | null;
  schedule: ScheduleSettings;
  [extra: string]: unknown;
}

export interface MisconfiguredReport {
  id: number;
  title?: string | null;
  schedule?: { frequency?: string | null; enabled?: boolean | null; [extra: string]: unknown } | null;
  active?: boolean | null;
  [extra: string]: unknown;
}

export type PrincipalType = 'USER' | 'GROUP';

/** A write as planned and sent: the operation, its method, the encoded path and the body. */
export interface WriteRequest {
  operation: string;
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

export const QUEUE_PERMISSIONS = [
  'ADMIN',
  'SHARE',
  'DELETE',
  'WRITE',
  'READ',
  'CREATE_CONTENT',
  'READ_CONTENT',
  'UPDATE_CONTENT',
  'DELETE_CONTENT',
  'EXPORT',
  'EXECUTE',
] as const;
export type QueuePermission = (typeof QUEUE_PERMISSIONS)[number];

export interface QueuePermissionEntry {
  id: string;
  name: string;
  type: PrincipalType;
  permissions: QueuePermission[];
}

export interface DataFilePermissionEntry {
  /** Sent by the platform's own reads and writes; optional in manifests. */
  entityType?: PrincipalType;
  entityId: string;
  grant: string;
  pass: string;
}

export interface DataFilePermissions {
  publicAccess: boolean;
  entries: DataFilePermissionEntry[];
}

export interface DatasetAccessEntry {
  type: PrincipalType;
  id: string;
  accessLevel: string;
  name?: string | null;
  [extra: string]: unknown;
}

export interface DatasetAccessList {
  list: DatasetAccessEntry[];
  totalUserCount?: number | null;
  totalGroupCount?: number | null;
  [extra: string]: unknown;
}

/** The dataset object (beyond the spec); only `tags` is read: a JSON-encoded array of strings. */
export interface DatasetDetails {
  id: string;
  tags?: string | string[] | null;
  [extra: string]: unknown;
}

export interface CalculatedFieldStatistics {
  total: number;
  onDatasets: number;
  onCards: number;
  inVisualizations: number;
  locked: number;
  invalid: number;
  invalidLink: number;
  archived: number;
  [extra: string]: unknown;
}

/** Nullable where the platform's reference types them so (downloadUrl, connectorKey, index*). */
export interface FilesetFile {
  id: string;
  path: string;
  name?: string | null;
  fileType?: string | null;
  contentType?: string | null;
  size?: number | null;
  created?: string | number | null;
  createdBy?: number | string | null;
  hash?: string | null;
  hashAlgorithm?: string | null;
  downloadUrl?: string | null;
  connectorKey?: string | null;
  indexStatus?: string | null;
  indexReason?: string | null;
  [extra: string]: unknown;
}

export interface DataFileRevision {
  dataFileRevisionId: number;
  dataFileId: number;
  contentType: string;
  uploadUserId: number;
  sizeBytes: number;
  uploadTimeMillis: number;
  md5Hash: string;
  datetimeUploaded: number;
  scanState: string;
  sha256HashValue: string;
  [extra: string]: unknown;
}

export interface DataFile {
  dataFileId: number;
  name?: string | null;
  responsibleUserId?: number | null;
  currentRevision?: DataFileRevision | null;
  datetimeCreated?: number | null;
  revisions?: DataFileRevision[] | null;
  existing?: boolean | null;
  [extra: string]: unknown;
}

export type CertifiableEntityType = 'CARD' | 'DATA_SOURCE';

export interface CertificationStatus {
  tag: string;
  state: string | null;
  metadata: unknown;
  updated: unknown;
  [extra: string]: unknown;
}

/** The workflow list body is "not shown" in the spec: see WORKFLOW_LIST_SHAPE in the README. */
export interface Workflow {
  id: string;
  name?: string | null;
  [extra: string]: unknown;
}

export type { ScheduleFilter, ScheduleOrderBy, ScheduleQuery } from './schedule-query.js';
export type { Account, AccountShares, CardSummary, ContentAccessList, FilesetAccess, PageSummary, PdpPolicy, SharedUser, SummaryOwner, WorkflowPermissions } from './sharing-types.js';
export type { AccessToken, GroupListItem, GroupPrincipal, GroupUsers, IdentityUser, Role, RoleUser, UserAttribute } from './identity-types.js';

/** Request/retry/failure counters, reported as `http` in the JSON report. */
export interface HttpStats {
  requests: number;
  retries: number;
  failed: number;
  /** 429 answers (present once there was one), and the lowest concurrency the run was cut to. */
  throttled?: number;
  lowestConcurrency?: number;
}

/** One line of the --verbose request log. Never carries the token or any header. */
export interface RequestLogEvent {
  operation: OperationId;
  method: string;
  url: string;
  status?: number;
  attempt: number;
  durationMs: number;
  error?: string;
}

/** One retry about to be waited for (tests and --verbose logs). Never carries the token or any header. */
export interface RetryEvent {
  operation: OperationId;
  method: string;
  url: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  /** The wait before the next attempt: backoff with jitter, raised to Retry-After, capped. */
  delayMs: number;
  /** Status of the failed attempt; undefined for network errors and timeouts. */
  status?: number;
}

export interface ClientOptions {
  baseUrl: string;
  /** The workflow API host (DESIGN §2). Unset: workflow calls fail with a clear ApiError. */
  workflowUrl?: string;
  token: string;
  /** Defaults to token. */
  workflowToken?: string;
  /** Max concurrent requests, default 8. */
  concurrency?: number;
  /** Optional requests/second cap. */
  requestsPerSecond?: number;
  /** Per-request timeout, default 30 000 ms. */
  timeoutMs?: number;
  /** Largest answer read (decompressed), default MAX_RESPONSE_BYTES. */
  maxBodyBytes?: number;
  /** Transient request failures in a row that stop an operation's requests (default BREAKER_THRESHOLD). */
  breakerThreshold?: number;
  /**
   * The whole run's deadline: when it passes, requests in flight are aborted, retry waits end
   * and nothing more is sent (kind `deadline`, never retried). `label` names it in messages.
   */
  deadline?: { at: number; label: string };
  /** Attempts in all (first try + retries), default 4. */
  maxAttempts?: number;
  /** Base of the exponential backoff, default 200 ms (tests set it low). */
  retryBaseDelayMs?: number;
  /** Cap of one backoff/Retry-After wait, default 30 000 ms. */
  retryMaxDelayMs?: number;
  /** Page size of limit/skip reads, default PAGE_SIZE_DEFAULT. */
  pageSize?: number;
  /** The run's secrets (config.secrets): what errors and logs never carry; the tokens are added. */
  secrets?: SecretSet;
  /** Header carrying the developer token, default DEVELOPER_TOKEN_HEADER (the real platform's differs). */
  tokenHeader?: string;
  /** `filter` of the schedule list, default SCHEDULE_FILTER_DEFAULT. */
  scheduleFilter?: ScheduleFilter;
  onRequest?: (event: RequestLogEvent) => void;
  /** Called before each retry wait. */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * The typed signature of each operation of the table (operations.ts): the path parameters,
 * then the body or query, in the order of the row's `args`; limit/skip reads answer an async
 * iterable of pages. The engine, snapshot recorder/replayer and fixes depend on this interface
 * only, so a recorded snapshot can stand in for the live client.
 */
export interface OperationSignatures {
  /** 1. Pages of schedules, always sorted (orderBy sent). */
  listReportSchedules(query?: ScheduleQuery): AsyncIterable<ReportSchedule[]>;
  /** 2. Pages of misconfigured reports. */
  getMisconfiguredReports(): AsyncIterable<MisconfiguredReport[]>;
  /** 3. Replaces the dataset's tag list. */
  createDatasetTags(datasetId: string, tags: string[]): Promise<void>;
  /** 4. Sets each entry's permissions; an empty list removes the entity's. */
  updateQueuePermissions(queueId: string, entries: QueuePermissionEntry[]): Promise<void>;
  /** 5. Replaces the data file's permissions. */
  updateFilePermissions(dataFileId: string, body: DataFilePermissions): Promise<void>;
  /** 6. */
  getDatasetPermissions(datasetId: string): Promise<DatasetAccessList>;
  /** 7. */
  getCalculatedFieldStatistics(): Promise<CalculatedFieldStatistics>;
  /** 8. */
  getFileByPath(filesetId: string, path: string): Promise<FilesetFile>;
  /** 9. */
  indexDataset(datasetId: string): Promise<void>;
  /** 10. */
  duplicateDataFile(dataFileId: string): Promise<DataFile>;
  /** 11. */
  getCertificationStatus(entityType: CertifiableEntityType, entityId: string): Promise<CertificationStatus>;
  /** 12. From the instance host's model list when no workflow URL is configured (its fallback). */
  listWorkflows(): Promise<Workflow[]>;
  /** Beyond the spec: the dataset object, read for its tags. */
  getDataset(datasetId: string): Promise<DatasetDetails>;
  /** Beyond the spec: pages of workflow models on the instance host. */
  listWorkflowModels(): AsyncIterable<Workflow[]>;
  /** Beyond the spec: pages of the instance's datasets. */
  listDatasets(): AsyncIterable<DatasetListItem[]>;
  /** Beyond the spec: pages of the instance's cards (the search API). */
  searchCards(): AsyncIterable<SearchObject[]>;
  /** Beyond the spec: the queues the token's user can access. */
  listQueues(): Promise<QueueListItem[]>;
  /** Beyond the spec: a queue's permissions by principal type. */
  getQueuePermissions(queueId: string): Promise<QueuePermissionsRead>;
  /** Beyond the spec: the data files the token's user can access. */
  listDataFiles(): Promise<DataFileListItem[]>;
  /** Beyond the spec: a data file's permissions (the PUT body's shape). */
  getDataFilePermissions(dataFileId: string): Promise<DataFilePermissions>;
  /** Beyond the spec: pages of the instance's file sets. */
  searchFilesets(): AsyncIterable<Fileset[]>;
  /** Beyond the spec: pages of one file set's files (directories included). */
  searchFilesetFiles(filesetId: string): AsyncIterable<FilesetFile[]>;
  /** Beyond the spec: pages of the identity search's users matching `criteria` (default USER_SEARCH_BODY: the live users). */
  searchUsers(criteria?: Record<string, unknown>): AsyncIterable<IdentityUser[]>;
  /** Beyond the spec: pages of the instance's groups. */
  listGroups(): AsyncIterable<GroupListItem[]>;
  /** Beyond the spec: one group's members. */
  getGroupUsers(groupId: string): Promise<GroupUsers>;
  /** Beyond the spec: the instance's roles. */
  listRoles(): Promise<Role[]>;
  /** Beyond the spec: a role's grants (authority names). */
  getRoleAuthorities(roleId: string): Promise<string[]>;
  /** Beyond the spec: pages of a role's holders. */
  listRoleUsers(roleId: string): AsyncIterable<RoleUser[]>;
  /** Beyond the spec: the instance's access tokens. */
  listAccessTokens(): Promise<AccessToken[]>;
  /** Beyond the spec: pages of the page admin summary. */
  listPages(): AsyncIterable<PageSummary[]>;
  getPageAccessList(pageId: string): Promise<ContentAccessList>;
  /** Beyond the spec: pages of the card admin summary. */
  listCardSummaries(): AsyncIterable<CardSummary[]>;
  getCardAccessList(cardId: string): Promise<ContentAccessList>;
  listAccounts(): Promise<Account[]>;
  getAccountShares(accountId: string): Promise<AccountShares>;
  getFilesetAccess(filesetId: string): Promise<FilesetAccess>;
  getWorkflowPermissions(workflowId: string): Promise<WorkflowPermissions>;
  getPdpPolicies(datasetId: string): Promise<PdpPolicy[]>;
}

export interface DatasetListItem {
  id: string;
  name?: string | null;
  [extra: string]: unknown;
}

export interface SearchObject {
  databaseId: string | number;
  name?: string | null;
  entityType?: string | null;
  [extra: string]: unknown;
}

export interface QueueListItem {
  id: string;
  name?: string | null;
  [extra: string]: unknown;
}

export interface QueuePermissionsRead {
  USER?: { id: string; name?: string | null; type?: string | null; permissions: string[] }[];
  GROUP?: { id: string; name?: string | null; type?: string | null; permissions: string[] }[];
  [extra: string]: unknown;
}

export interface DataFileListItem {
  dataFileId: number;
  name?: string | null;
  [extra: string]: unknown;
}

export interface Fileset {
  id: string;
  name?: string | null;
  [extra: string]: unknown;
}

/** Every operation of the table has a signature here, and nothing else does (checked at compile time). */
type SameKeys<A, B> = [Exclude<keyof A, B>, Exclude<B, keyof A>] extends [never, never] ? true : never;
export const SIGNATURES_MATCH_TABLE: SameKeys<OperationSignatures, OperationId> = true;

export interface InstanceApi extends OperationSignatures {
  /** Sends a planned write exactly as planned, after checking it is one of the table's writes (writes.ts). */
  send(request: WriteRequest): Promise<void>;
  /** Counters so far in this run. */
  stats(): HttpStats;
}
