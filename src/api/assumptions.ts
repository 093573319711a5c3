// Every choice the API spec leaves open ("not shown") or that comes from the platform's public
// documentation rather than api-spec.md, each in one named constant. The README's
// "Assumptions" section lists these.
import type { ScheduleFilter, ScheduleOrderBy } from './schedule-query.js';

/**
 * The certification endpoint's states (op 11): `ACTIVE` is current (its docs: "e.g., 'ACTIVE' or
 * null"; null is never certified); EXPIRED, PENDING and REQUESTED, the dataset object's words
 * for a certification not in force (PLATFORM.md §2.2), are lapsed. Any other word is drift: read
 * as lapsed, a `CERTIFIED` would exempt a certified dataset from every policy about certified ones.
 */
export const CERTIFICATION_STATES = ['ACTIVE', 'EXPIRED', 'PENDING', 'REQUESTED'] as const;

/**
 * Header carrying the developer token on endpoints 1–11 (api-spec "Authentication"). The spec's
 * name stands in for the real platform's (`X-DOMO-Developer-Token` in its developer portal):
 * `instance.tokenHeader` in steward.yaml sets it.
 */
export const DEVELOPER_TOKEN_HEADER = 'X-SERVICE-Developer-Token';

/**
 * Items per limit/skip page. The misconfigured endpoint's documented default is 100; public
 * clients page report schedules with limit up to 2000, but the maximum is not documented, so
 * we stay at the documented default for both endpoints.
 */
export const PAGE_SIZE_DEFAULT = 100;

/**
 * How a limit/skip list ends (src/client/pagination.ts): the first page shorter than the limit
 * sent is the last, so 1,050 schedules are exactly 11 pages. This assumes the server honours
 * `limit` up to PAGE_SIZE_DEFAULT. A server that capped pages below it would look finished after
 * its first page and silently truncate the list; for report schedules the misconfigured-list
 * cross-check (src/resources/reportSchedule.ts) turns that into an error whenever a misconfigured
 * schedule falls outside the truncated list.
 */
export const SHORT_PAGE_IS_LAST =
  'a page shorter than the limit sent ends the list (the server honours limit up to PAGE_SIZE_DEFAULT)';

/** Query parameter names of "list report schedules" (from the platform's public docs). */
export const SCHEDULE_QUERY_PARAMS = {
  filter: 'filter',
  title: 'title',
  limit: 'limit',
  skip: 'skip',
  orderBy: 'orderBy',
  isAscending: 'isAscending',
} as const;

/**
 * ALL is what a compliance run wants. The platform's reference lists USER, RECIPIENT and OWNER
 * for this endpoint (documented default USER); ALL is a member of the same filter family gated
 * on the content admin grant (a public client asks for ALL and falls back to USER on 403). A
 * refusal (400/403) is an error naming the grant and `instance.scheduleFilter`, never a pass
 * over the caller's own schedules.
 */
export const SCHEDULE_FILTER_DEFAULT: ScheduleFilter = 'ALL';

/** The grant that separates ALL from the caller's own schedules (a public client's comment). */
export const SCHEDULE_ALL_GRANT = 'content admin (content.admin)';

/** Always sent: paging by skip without orderBy repeats and drops rows (DESIGN §2). */
export const SCHEDULE_ORDER_BY_DEFAULT: ScheduleOrderBy = 'title';

/** Sent with orderBy so the order is fully specified. */
export const SCHEDULE_ASCENDING_DEFAULT = true;

/**
 * Titles repeat and the platform's sort is not stable for equal keys across pages (a
 * practitioner's notes: a harvest returned totalHits rows but fewer distinct ids). Every listing
 * is read de-duplicated by id: an id seen on an earlier page ends it as incomplete (exit 3),
 * never a silent pass over rows it skipped.
 */
export const REPEATED_ID_ENDS_LISTING = 'an id repeated across pages makes the listing incomplete';

/** Query parameter carrying the file's path on "get file by path" (api-spec: name not shown). */
export const FILE_PATH_QUERY_PARAM = 'path';

/**
 * The id the platform sends for "none" in a schedule's `cardId` and `pageId`: a captured card
 * schedule carries `pageId: 0`, so a page schedule's `cardId: 0` is no card (card 0 would be
 * read and 404).
 */
export const NO_ID = 0;

/**
 * The workflow list body is not shown: we assume a bare JSON array of objects that carry at
 * least a string `id` (anything else is kept as is).
 */
export const WORKFLOW_LIST_SHAPE = 'JSON array of objects with at least a string `id`';

/** Statuses retried (DESIGN §2). 501 is never retried: the server will not learn the method. */
export const RETRY_STATUS_CODES: readonly number[] = [408, 429, 500, 502, 503, 504];

/**
 * Error bodies on the instance host often carry no `message`: `{status, statusReason, toe}`
 * (`toe` is the platform's trace id). Messages then say the status reason and the trace id.
 */
export const ERROR_TRACE_FIELD = 'toe';

/**
 * Requests per second toward a host that is not loopback when the config sets none. No rate
 * limit is documented for these endpoints; the platform's search API asks for at most ~120
 * requests a minute, and practitioners see 429s under sustained load and pace at 100–200 ms a
 * call. `requestsPerSecond` in steward.yaml raises (or lowers) it.
 */
export const REMOTE_REQUESTS_PER_SECOND = 2;

/**
 * The largest answer read (decompressed). The biggest legitimate ones are the unpaged lists (all
 * queues, all data files, all workflows) of a large instance, a few megabytes; a body past this
 * is an error of that read (a gzip bomb must not take the run's memory), not retried.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Defaults of ClientOptions. */
export const CLIENT_DEFAULTS = {
  concurrency: 8,
  timeoutMs: 30_000,
  maxAttempts: 4,
  retryBaseDelayMs: 200,
  retryMaxDelayMs: 30_000,
  pageSize: PAGE_SIZE_DEFAULT,
} as const;

/** Longest excerpt of a non-JSON error body quoted in an error message. */
export const BODY_EXCERPT_CHARS = 200;

/**
 * The identity search's criteria (PLATFORM.md §8, users-identity-search.json): the attributes a
 * policy reads (state, role, last login and activity come back only when named), the count, and
 * the captured sort. Deleted users are a second listing of the same search (`onlyDeleted`), so
 * a user's state never has to be guessed from a missing attribute.
 */
export const USER_SEARCH_ATTRIBUTES = [
  'id',
  'displayName',
  'userName',
  'emailAddress',
  'roleId',
  'isActive',
  'isPending',
  'isSystemUser',
  'created',
  'lastLogin',
  'lastActivity',
] as const;
export const USER_SEARCH_BODY = {
  attributes: USER_SEARCH_ATTRIBUTES,
  includeDeleted: false,
  onlyDeleted: false,
  showCount: true,
  count: false,
  sort: { field: 'displayName', order: 'ASC' },
} as const;
export const DELETED_USER_SEARCH_BODY = { ...USER_SEARCH_BODY, onlyDeleted: true } as const;
