// Types of the instance API, from ../shared/api-spec.md tables. Extra fields may appear in
// responses; only the documented ones are typed (and validated, see schemas.ts).
import type { SecretSet } from '../core/redact.js';
import type { OperationId } from './operations.js';
import type { OperationMethods } from './answers.js';
import type { ScheduleFilter } from './schedule-query.js';
import type { QUEUE_PERMISSIONS } from './vocabularies.js';

export type { OperationId, WriteOperationId } from './operations.js';

export type PrincipalType = 'USER' | 'GROUP';

/** A write as planned and sent: the operation, its method, the encoded path and the body. */
export interface WriteRequest {
  operation: string;
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

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

export type CertifiableEntityType = 'CARD' | 'DATA_SOURCE';

export type { ScheduleFilter, ScheduleOrderBy, ScheduleQuery } from './schedule-query.js';
export type {
  AccessToken,
  Account,
  Answer,
  Authority,
  CalculatedFieldStatistics,
  CertificationStatus,
  ContentAccessList,
  DataFile,
  DataFileRevision,
  DatasetAccessEntry,
  DatasetAccessList,
  FilesetFile,
  GroupListItem,
  GroupPrincipal,
  IdentityUser,
  MisconfiguredReport,
  PageSummary,
  PdpPolicy,
  QueuePermissionsRead,
  ReportSchedule,
  Role,
  Workflow,
} from './schemas.js';

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

/** The client: one method per operation of the table (answers.ts derives them), plus the write sender. */
export interface InstanceApi extends OperationMethods {
  /** Sends a planned write exactly as planned, after checking it is one of the table's writes (writes.ts). */
  send(request: WriteRequest): Promise<void>;
  /** Counters so far in this run. */
  stats(): HttpStats;
}
