// The shape of one row of the operations table (operations.ts): what an operation declares.
import type { PageShape } from './page-shape.js';
import type { Schema } from './schemas.js';
import type { ScheduleFilter } from './schedule-query.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** Which host and auth scheme: the instance (developer token) or the workflow API (Bearer). */
export type Host = 'instance' | 'workflow';

/**
 * How a read pages. `none`: one answer. `limit-skip`: pages of `limit` items read at growing
 * `skip` until a short page (an async iterable of pages).
 */
export type Paging = 'none' | 'limit-skip' | 'offset-total' | 'cursor';

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
  /** offset-total and cursor listings: where the items, the total or cursor and the paging parameters are. */
  page?: PageShape;
  /** Paged reads: the schema of one item (snapshots hold the items of each page). */
  item?: Schema;
  /** A fixed JSON body of a read sent as POST (a search's criteria). */
  body?: unknown;
}
