// The request core shared by every API area: URL building with encoded path segments, auth
// headers, one limiter, per-attempt timeout, retries (ofetch runs the loop, retry.ts decides),
// attempts sent through the keep-alive connection pool, the run's GET memo, counters, the
// request log, and failures turned into ApiError.
import { createFetch, type FetchContext, type FetchError } from 'ofetch';
import PQueue from 'p-queue';
import { BODY_EXCERPT_CHARS, CLIENT_DEFAULTS, DEVELOPER_TOKEN_HEADER, ERROR_TRACE_FIELD, MAX_RESPONSE_BYTES, RETRY_STATUS_CODES } from './assumptions.js';
import { SecretSet } from '../core/redact.js';
import { createBreaker } from './breaker.js';
import { BodyTooLargeError, createConnectionPool } from './connection-pool.js';
import {
  ApiError,
  type ApiErrorInit,
  developerToken401,
  requestLabel,
  WORKFLOW_STATUS_MEANING,
} from './errors.js';
import { isRetryableStatus, neverReachedServer, parseRetryAfter, retryDelayMs } from './retry.js';
import type { Host, HttpMethod, OperationId } from './operations.js';
import { checkResponse, type Schema } from './schemas.js';
import { createThrottle } from './throttle.js';
import type { ClientOptions, HttpStats } from './types.js';

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

export interface Transport {
  /** A GET whose body is checked against `schema`; memoised for the client's lifetime (one run). */
  getJson<T>(spec: RequestSpec, schema: Schema): Promise<T>;
  /** A write whose 2xx answer is success whatever its body (empty, `{}`, text). */
  write(spec: RequestSpec): Promise<void>;
  /** A write whose answer is a document checked against `schema` (duplicate). Never memoised. */
  writeJson<T>(spec: RequestSpec, schema: Schema): Promise<T>;
  /** Whether the host has a base URL (the workflow host is optional). */
  hasHost(host: Host): boolean;
  /** Builds an ApiError for `spec` (secrets redacted) and counts the operation as failed. */
  fail(spec: RequestSpec, init: Omit<ApiErrorInit, 'operation' | 'method' | 'path'>): ApiError;
  /** The path (and query) of `spec` as it appears in errors. */
  describePath(spec: RequestSpec): string;
  stats(): HttpStats;
}

/** One operation's attempts, shared between the limiter-wrapped fetch and ofetch's hooks. */
interface CallState {
  attempts: number;
  lastTimedOut: boolean;
  /** The last answer was over the body cap: not retried. */
  tooLarge?: boolean;
  /** The run's deadline ended the last attempt: not retried. */
  pastDeadline?: boolean;
  /** The last answer's body, read once here (ofetch sees the status and headers only). */
  text?: string;
}

class DeadlineError extends Error {
  constructor(label: string) {
    super(`the run's deadline (${label}) passed`);
    this.name = 'DeadlineError';
  }
}

class AttemptTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** ofetch hands a Headers or a plain record; node:http takes a record. */
function headersOf(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers);
  return Array.isArray(headers) ? Object.fromEntries(headers) : { ...(headers as Record<string, string>) };
}

export function createTransport(options: ClientOptions): Transport {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? CLIENT_DEFAULTS.concurrency));
  const timeoutMs = options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_RESPONSE_BYTES;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? CLIENT_DEFAULTS.maxAttempts));
  const baseDelayMs = options.retryBaseDelayMs ?? CLIENT_DEFAULTS.retryBaseDelayMs;
  const maxDelayMs = options.retryMaxDelayMs ?? CLIENT_DEFAULTS.retryMaxDelayMs;
  const workflowToken = options.workflowToken ?? options.token;
  const tokenHeader = options.tokenHeader ?? DEVELOPER_TOKEN_HEADER;
  // The run's secret set when the caller has one (the sandbox's token, configured secrets), with
  // this client's tokens in it either way.
  const secrets = (options.secrets ?? new SecretSet()).add(options.token, workflowToken);
  const redact = (text: string) => secrets.redact(text);
  // intervalCap 1 every 1000/rps ms spaces starts evenly (and allows fractional rates).
  const rps = options.requestsPerSecond;
  const limiter = new PQueue(
    rps && rps > 0 ? { concurrency, intervalCap: 1, interval: Math.max(1, Math.round(1000 / rps)) } : { concurrency },
  );
  const counters: HttpStats = { requests: 0, retries: 0, failed: 0 };
  const throttle = createThrottle(limiter, concurrency);
  const memo = new Map<string, Promise<unknown>>();
  const pool = createConnectionPool(concurrency);

  // A 401 says the token itself is wrong, for every endpoint that sends it: after the first one,
  // later requests with that token fail at once instead of each collecting its own 401 (one per
  // resource in a check run). Set when the 401 arrives and checked just before each attempt
  // leaves the limiter, so queued requests and pending retries are not sent either; requests
  // already sent finish as they will. One latch per token (developer header vs workflow Bearer). 403 does not latch:
  // grants differ per endpoint.
  const refused: Record<'instance' | 'workflow', boolean> = { instance: false, workflow: false };
  const latchOf = (spec: RequestSpec) => spec.host ?? 'instance';
  function refusedTokenError(spec: RequestSpec, attempts: number): ApiError | undefined {
    if (!refused[latchOf(spec)]) return undefined;
    const meaning = spec.host === 'workflow' ? WORKFLOW_STATUS_MEANING[401] : developerToken401(tokenHeader);
    return fail(spec, {
      kind: 'http',
      status: 401,
      attempts,
      detail: `${requestLabel(spec.method, redact(describePath(spec)))}: 401 Unauthorized — ${meaning} (not sent: an earlier request with the same token was refused with 401)`,
    });
  }

  const deadline = options.deadline;
  const remainingMs = () => (deadline ? deadline.at - Date.now() : Number.POSITIVE_INFINITY);
  // At the deadline, requests still queued behind a rate limit (at 2 a second, hours of them)
  // are dropped and the attempts waiting settle at once, instead of each waiting its turn to
  // fail. Without a rate limit the queue drains at once anyway (each attempt refuses to start
  // past the deadline), so attempts are not wrapped: the wrapper costs memory. Each
  // attempt is in `waiting` only until it settles: nothing an answer holds is kept alive until
  // the deadline (a promise chained to a long-lived one would keep every body).
  const waiting = new Set<() => void>();
  let deadlinePassed = false;
  const queueDrainsSlowly = Boolean(rps && rps > 0);
  if (deadline && queueDrainsSlowly) {
    const timer = setTimeout(() => {
      deadlinePassed = true;
      limiter.clear();
      for (const stop of waiting) stop();
      waiting.clear();
    }, Math.max(0, remainingMs()));
    timer.unref();
  }

  function pastDeadlineError(spec: RequestSpec, attempts: number, passed = false): ApiError | undefined {
    if (!deadline || (!passed && remainingMs() > 0)) return undefined;
    return fail(spec, {
      kind: 'deadline',
      attempts,
      detail: `${requestLabel(spec.method, redact(describePath(spec)))}: ${attempts ? `stopped after ${attempts} attempt${attempts === 1 ? '' : 's'}` : 'not sent'}: the run's deadline (${deadline.label}) passed`,
    });
  }

  const breaker = createBreaker(options.breakerThreshold);
  function openCircuitError(spec: RequestSpec, attempts: number): ApiError | undefined {
    const cause = breaker.openedBy(spec.operation);
    if (!cause) return undefined;
    return fail(spec, {
      kind: 'circuit-open',
      attempts,
      detail: `${requestLabel(spec.method, redact(describePath(spec)))}: ${attempts ? `stopped after ${attempts} attempt${attempts === 1 ? '' : 's'}` : 'not sent'}: ${redact(cause)}`,
    });
  }

  const baseOf = (spec: RequestSpec): string | undefined =>
    (spec.host === 'workflow' ? options.workflowUrl : options.baseUrl)?.replace(/\/+$/, '');

  function describePath(spec: RequestSpec): string {
    const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(spec.params?.[name] ?? ''));
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) query.set(key, String(value));
    }
    const search = query.toString();
    return search ? `${path}?${search}` : path;
  }

  function fail(spec: RequestSpec, init: Omit<ApiErrorInit, 'operation' | 'method' | 'path'>): ApiError {
    counters.failed += 1;
    return new ApiError({
      ...init,
      operation: spec.operation,
      method: spec.method,
      path: redact(describePath(spec)),
      detail: redact(init.detail),
      apiMessage: init.apiMessage === undefined ? undefined : redact(init.apiMessage),
    });
  }

  /** Checks what can be checked before sending; returns the full URL. */
  function resolve(spec: RequestSpec): string {
    const base = baseOf(spec);
    if (!base) {
      throw fail(spec, {
        kind: 'config',
        detail: 'no workflow URL configured (instance.workflowUrl in steward.yaml, or STEWARD_WORKFLOW_URL)',
      });
    }
    for (const [name, value] of Object.entries(spec.params ?? {})) {
      if (value === '' || value === '.' || value === '..') {
        throw fail(spec, {
          kind: 'input',
          detail: `${requestLabel(spec.method, spec.path)}: ${name} ${JSON.stringify(value)} cannot be sent as a path segment`,
        });
      }
    }
    return base + describePath(spec);
  }

  /** A fetch that runs one attempt inside the limiter, with the timeout covering headers and body. */
  function attemptFetch(spec: RequestSpec, call: CallState): typeof fetch {
    return (input, init) => {
      const attempt = sendAttempt(spec, call, input, init);
      if (!deadline || !queueDrainsSlowly) return attempt;
      return new Promise<Response>((resolve, reject) => {
        const onDeadline = () => {
          call.pastDeadline = true;
          reject(new DeadlineError(deadline.label));
        };
        if (deadlinePassed) return onDeadline();
        waiting.add(onDeadline);
        attempt.then(resolve, reject).finally(() => waiting.delete(onDeadline));
      });
    };
  }

  function sendAttempt(spec: RequestSpec, call: CallState, input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
    return limiter.add(async () => {
        const notSent = pastDeadlineError(spec, call.attempts) ?? refusedTokenError(spec, call.attempts) ?? openCircuitError(spec, call.attempts);
        if (notSent) throw notSent;
        call.attempts += 1;
        counters.requests += 1;
        const attempt = call.attempts;
        const target = String(input instanceof Request ? input.url : input);
        const attemptOnWire = pool.send(
          target,
          { method: init?.method ?? 'GET', headers: headersOf(init?.headers), body: init?.body as string | undefined },
          maxBodyBytes,
        );
        let timedOut = false;
        // One timer: the attempt's timeout, or the run's deadline when that comes first.
        const cutByDeadline = remainingMs() < timeoutMs;
        const timer = setTimeout(() => {
          timedOut = !cutByDeadline;
          call.pastDeadline = cutByDeadline;
          attemptOnWire.cancel(cutByDeadline ? new DeadlineError(deadline!.label) : new AttemptTimeoutError(timeoutMs));
        }, Math.max(0, Math.min(timeoutMs, remainingMs())));
        const started = performance.now();
        const log = (extra: { status?: number; error?: string }) =>
          options.onRequest?.({
            operation: spec.operation,
            method: spec.method,
            url: redact(target),
            attempt,
            durationMs: Math.round(performance.now() - started),
            ...extra,
          });
        try {
          const { status, statusText, headers, text } = await attemptOnWire.answer;
          call.text = text;
          call.lastTimedOut = false;
          // Latched here, before the limiter frees this slot, so no queued request slips out.
          if (status === 401) refused[latchOf(spec)] = true;
          throttle.answered(status);
          if (isRetryableStatus(status)) breaker.failed(spec.operation, `${status} ${statusText}`.trim());
          else breaker.answered(spec.operation);
          log({ status });
          return new Response(null, { status, statusText, headers });
        } catch (error) {
          call.lastTimedOut = timedOut;
          call.tooLarge = error instanceof BodyTooLargeError;
          const reason = timedOut ? new AttemptTimeoutError(timeoutMs) : call.pastDeadline ? new DeadlineError(deadline!.label) : error;
          log({ error: redact(describeNetworkError(reason)) });
          if (!call.tooLarge && !call.pastDeadline) breaker.failed(spec.operation, describeNetworkError(reason));
          throw reason;
        } finally {
          clearTimeout(timer);
        }
      });
  }

  /** Sends `spec` with retries; resolves with the final 2xx answer, or throws an ApiError. */
  async function exchange(spec: RequestSpec): Promise<{ status: number; text: string }> {
    const url = resolve(spec);
    const notSent = pastDeadlineError(spec, 0) ?? refusedTokenError(spec, 0) ?? openCircuitError(spec, 0);
    if (notSent) throw notSent;
    const isWrite = spec.method !== 'GET' && !spec.read;
    const call: CallState = { attempts: 0, lastTimedOut: false };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.host === 'workflow') headers.authorization = `Bearer ${workflowToken}`;
    else headers[tokenHeader] = options.token;
    const $fetch = createFetch({ fetch: attemptFetch(spec, call) });
    try {
      const response = await $fetch.raw<string, 'text'>(url, {
        method: spec.method,
        headers,
        // No redirect is followed (the pool's node:http never does): the developer-token header
        // would go wherever it points. A 3xx is reported below.
        body: spec.body as RequestInit['body'] | Record<string, unknown> | undefined,
        responseType: 'text',
        retry: maxAttempts - 1,
        retryStatusCodes: [...RETRY_STATUS_CODES],
        retryDelay: (context: FetchContext) => {
          counters.retries += 1;
          const delayMs = retryDelayMs({
            attempt: call.attempts,
            baseDelayMs,
            maxDelayMs,
            retryAfterMs: parseRetryAfter(context.response?.headers.get('retry-after')),
          });
          options.onRetry?.({
            operation: spec.operation,
            method: spec.method,
            url: redact(url),
            attempt: call.attempts,
            delayMs,
            status: context.response?.status,
          });
          // A wait never outlasts the run: past the deadline the next attempt is not sent.
          return Math.max(0, Math.min(delayMs, remainingMs()));
        },
        // Writes are not idempotent: retried only when the request provably never left.
        onRequestError: (context) => {
          if (context.error instanceof ApiError) context.options.retry = false; // refused token: not sent
          if (call.tooLarge) context.options.retry = false; // the same answer would come again
          if (call.pastDeadline) context.options.retry = false;
          if (isWrite && !neverReachedServer(context.error)) context.options.retry = false;
        },
        onResponseError: (context) => {
          if (isWrite) context.options.retry = false;
        },
      });
      if (response.status >= 200 && response.status < 300) return { status: response.status, text: call.text ?? '' };
      throw fail(spec, {
        kind: 'http',
        status: response.status,
        attempts: call.attempts,
        detail: `${requestLabel(spec.method, redact(describePath(spec)))}: ${response.status} ${response.statusText} — redirects are not followed (the token would be sent wherever they point); check the base URL`,
      });
    } catch (error) {
      throw failure(spec, error as FetchError, call);
    }
  }

  function failure(spec: RequestSpec, error: FetchError, call: CallState): ApiError {
    if (error instanceof ApiError) return error;
    if (error.cause instanceof ApiError) return error.cause; // thrown before sending (refused token)
    const label = requestLabel(spec.method, redact(describePath(spec)));
    const attempts = call.attempts;
    const response = error.response;
    const retryNote = (retryable: boolean, reached: boolean) => {
      if (spec.method !== 'GET' && !spec.read && retryable && reached) {
        return ` (not retried: the ${spec.method} may have reached the server)`;
      }
      return retryable ? ` (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})` : '';
    };
    if (response) {
      const status = response.status;
      // Redacted before the excerpt is cut, so no cut can leave a prefix of a secret behind.
      const apiMessage = messageOf(redact(call.text ?? ''));
      const meaning = statusMeaning(spec, status, tokenHeader);
      const said = meaning ? `${meaning}${apiMessage ? ` (server: ${apiMessage})` : ''}` : (apiMessage ?? '');
      const statusLine = `${status}${response.statusText ? ` ${response.statusText}` : ''}`;
      return fail(spec, {
        kind: 'http',
        status,
        apiMessage,
        attempts,
        detail: `${label}: ${statusLine}${said ? ` — ${said}` : ''}${retryNote(isRetryableStatus(status), true)}`,
      });
    }
    const cause = error.cause ?? error;
    if (call.tooLarge) {
      return fail(spec, {
        kind: 'too-large',
        attempts,
        detail: `${label}: the answer is larger than ${maxBodyBytes} bytes (decompressed): not read further, not retried`,
      });
    }
    if (call.pastDeadline) return pastDeadlineError(spec, attempts, true)!;
    if (call.lastTimedOut) {
      return fail(spec, {
        kind: 'timeout',
        attempts,
        detail: `${label}: timed out after ${timeoutMs} ms${retryNote(true, true)}`,
      });
    }
    return fail(spec, {
      kind: 'network',
      attempts,
      cause: sanitizedCause(cause),
      detail: `${label}: network error: ${describeNetworkError(cause)}${retryNote(true, !neverReachedServer(cause))}`,
    });
  }

  function parseBody(spec: RequestSpec, text: string, status: number): unknown {
    try {
      if (text.trim() === '') throw new SyntaxError('empty body');
      return JSON.parse(text);
    } catch {
      throw fail(spec, {
        kind: 'drift',
        status,
        field: '(body)',
        detail: `API drift at (body): expected JSON, got ${text.trim() === '' ? 'an empty body' : JSON.stringify(excerpt(redact(text)))} (${requestLabel(spec.method, describePath(spec))}: ${status})`,
      });
    }
  }

  async function readJson<T>(spec: RequestSpec, schema: Schema): Promise<T> {
    const { status, text } = await exchange(spec);
    const body = parseBody(spec, text, status);
    const drift = checkResponse(schema, body);
    if (drift) {
      throw fail(spec, {
        kind: 'drift',
        status,
        field: drift.field,
        detail: `API drift at ${drift.field}: ${drift.problem} (${requestLabel(spec.method, describePath(spec))})`,
      });
    }
    return body as T;
  }

  return {
    getJson<T>(spec: RequestSpec, schema: Schema): Promise<T> {
      const key = `${spec.host ?? 'instance'} ${spec.method} ${describePath(spec)} ${spec.body === undefined ? '' : JSON.stringify(spec.body)}`;
      let promise = memo.get(key);
      if (!promise) {
        promise = readJson<T>(spec, schema);
        memo.set(key, promise);
      }
      return promise as Promise<T>;
    },
    async write(spec: RequestSpec): Promise<void> {
      await exchange(spec);
    },
    writeJson: readJson,
    hasHost: (host) => Boolean(baseOf({ host } as RequestSpec)),
    fail,
    describePath,
    // The throttle's figures only once it acted: a calm run's stats are the three counters.
    stats: () => {
      const t = throttle.stats();
      return t.throttled > 0 ? { ...counters, ...t } : { ...counters };
    },
  };
}

/** What a status means for this request, where the platform documents it. */
function statusMeaning(spec: RequestSpec, status: number, tokenHeader: string): string | undefined {
  if (spec.host === 'workflow') return WORKFLOW_STATUS_MEANING[status];
  if (status === 401) return developerToken401(tokenHeader);
  // The instance host's workflow models need the same Workflow API grant.
  if (spec.operation === 'listWorkflowModels' && status === 403) return WORKFLOW_STATUS_MEANING[403];
  return undefined;
}

/** Encodes one path segment; `/` and `%` stay inside it. Dot segments are refused in resolve(). */
function encodeSegment(value: string): string {
  return encodeURIComponent(value);
}

/**
 * The body's `message` when it is JSON with one; else, for the instance host's
 * `{status, statusReason, toe}`, the status reason and the trace id; else a short excerpt.
 */
function messageOf(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      if (typeof body.message === 'string') return body.message;
      const trace = body[ERROR_TRACE_FIELD];
      if (typeof body.statusReason === 'string' || typeof trace === 'string') {
        const reason = typeof body.statusReason === 'string' ? body.statusReason : 'no message';
        return typeof trace === 'string' ? `${reason} (trace id ${ERROR_TRACE_FIELD}=${trace})` : reason;
      }
    }
  } catch {
    // not JSON: some 404s are HTML or plain text
  }
  return excerpt(text);
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}

/** The innermost error message of a network failure (wrapped errors are followed to their cause). */
function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  while (current instanceof Error && current.cause !== undefined) {
    current = current.cause;
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    if (current instanceof Error && current.message) message = current.message;
  }
  return message;
}

/** The network error without anything request-related attached (no options, no headers). */
function sanitizedCause(error: unknown): Error {
  const out = new Error(describeNetworkError(error));
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string') (out as Error & { code?: string }).code = code;
  return out;
}
