// One request as the transport sends it, and the state of one operation's attempts (shared
// between the limiter-wrapped fetch, ofetch's hooks and the failure that ends them).
import type { Host, HttpMethod, OperationId } from './operations.js';

export interface RequestSpec {
  operation: OperationId;
  method: HttpMethod;
  /** Which host and auth scheme (default the instance). */
  host?: Host;
  /** Path below the base URL with `{name}` placeholders (an operation's `path` in the table). */
  path: string;
  /** Values of the placeholders; each is URL-encoded into exactly one segment. */
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A read sent as POST (a search): retried and memoised like a GET. */
  read?: boolean;
}

/** One operation's attempts, shared between the limiter-wrapped fetch and ofetch's hooks. */
export interface CallState {
  attempts: number;
  lastTimedOut: boolean;
  /** The last answer was over the body cap: not retried. */
  tooLarge?: boolean;
  /** The run's deadline ended the last attempt: not retried. */
  pastDeadline?: boolean;
  /** The retry wait was cut to end at the deadline: the next attempt is not sent, even if its timer fires a hair early. */
  waitEndsAtDeadline?: boolean;
  /** The last answer's body, read once here (ofetch sees the status and headers only). */
  text?: string;
}
