// The request core shared by every API area, as stages around one limiter: the token latch (a 401
// stops that token's later requests), the run's deadline (deadline.ts), the per-operation breaker
// (breaker.ts), retries (ofetch runs the loop, retry.ts decides), the 429 throttle (throttle.ts);
// each attempt goes through the keep-alive connection pool with its timeout. Also here: the run's
// GET memo, the counters and the request log. Paths are built in request-path.ts; failures are
// worded in failure.ts and answer-text.ts.
import type { FetchContext, FetchError } from 'ofetch';
import PQueue from 'p-queue';
import { CLIENT_DEFAULTS, DEVELOPER_TOKEN_HEADER, MAX_RESPONSE_BYTES, RETRY_STATUS_CODES } from './assumptions.js';
import { SecretSet } from '../core/redact.js';
import { describeNetworkError, excerpt } from './answer-text.js';
import { failureOf } from './failure.js';
import type { CallState, RequestSpec } from './request-spec.js';
import { createBreaker } from './breaker.js';
import { createDeadlineStage, DeadlineError } from './deadline.js';
import { describePath } from './request-path.js';
import type { ConnectionPool } from './connection-pool.js';
import {
  ApiError,
  type ApiErrorInit,
  developerToken401,
  requestLabel,
  WORKFLOW_STATUS_MEANING,
} from './errors.js';
import { errorCodes, isRetryableStatus, neverReachedServer, parseRetryAfter, retryDelayMs } from './retry.js';
import { UNREACHABLE_HOST_CODES } from './run-wide.js';
import type { Host } from './operations.js';
import { checkResponse } from './drift.js';
import type { Schema } from './schemas.js';
import { createThrottle } from './throttle.js';
import type { ClientOptions, HttpStats } from './types.js';
import { answerFor, headersOf, WireHeaders } from './wire-headers.js';
import { monotonicMs } from '../core/monotonic.js';

export type { RequestSpec } from './request-spec.js';

export interface Transport {
  /**
   * A GET whose body is checked against `schema`; memoised for the client's lifetime (one run)
   * unless `memo` is false (a limit/skip page: its listing is read once a run and judged page by
   * page, so a memo would only keep every page alive).
   */
  getJson<T>(spec: RequestSpec, schema: Schema, memo?: boolean): Promise<T>;
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


class AttemptTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * ofetch, loaded by the first request: a command that sends nothing (`validate`, `check --from`)
 * needs none. Only its `createFetch` is used, given this client's fetch and Headers: the built
 * program's ofetch is that alone (scripts/on-use.mjs, ofetchCreateOnly), without the module's
 * instance made from the global fetch and Headers, whose first read loads Node's undici.
 */
let ofetchLoaded: Promise<typeof import('ofetch')> | undefined;
const ofetchModule = () => (ofetchLoaded ??= import('ofetch'));

/**
 * The wire, loaded by the first request too: node:https loads TLS (~9 ms of CPU on Node 24, ~4
 * on Node 20), and the proxy agent its own dependencies.
 */
type Wire = typeof import('./connection-pool.js');
let wireLoaded: Promise<Wire> | undefined;
const wireModule = () => (wireLoaded ??= import('./connection-pool.js'));

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
  // Made by the first exchange, once the wire is loaded; every attempt comes after one.
  let wire: { module: Wire; pool: ConnectionPool } | undefined;

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

  // A host that cannot be reached at all (run-wide.ts: refused, unresolvable, TLS failed): later
  // requests to it fail at once, not sent, instead of each retrying its own way to the same answer.
  const unreachable: Partial<Record<'instance' | 'workflow', { code: string; text: string }>> = {};
  function unreachableError(spec: RequestSpec, attempts: number): ApiError | undefined {
    const seen = unreachable[latchOf(spec)];
    if (!seen) return undefined;
    const cause = Object.assign(new Error(seen.text), { code: seen.code });
    return fail(spec, { kind: 'network', attempts, cause, detail: `${requestLabel(spec.method, redact(describePath(spec)))}: not sent: an earlier request found the host unreachable (${seen.text})` });
  }

  const deadline = options.deadline;
  const stage = createDeadlineStage(deadline, limiter, Boolean(rps && rps > 0));
  const remainingMs = stage.remainingMs;

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

  function fail(spec: RequestSpec, init: Omit<ApiErrorInit, 'operation' | 'method' | 'path'>): ApiError {
    counters.failed += 1;
    return new ApiError({
      ...init,
      host: spec.host ?? 'instance',
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
    return (input, init) => stage.wrap(sendAttempt(spec, call, input, init), () => {
      call.pastDeadline = true;
    });
  }

  function sendAttempt(spec: RequestSpec, call: CallState, input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
    return limiter.add(async () => {
        const notSent = pastDeadlineError(spec, call.attempts, call.waitEndsAtDeadline) ?? refusedTokenError(spec, call.attempts) ?? unreachableError(spec, call.attempts) ?? openCircuitError(spec, call.attempts);
        if (notSent) throw notSent;
        call.attempts += 1;
        counters.requests += 1;
        const attempt = call.attempts;
        // The URL exchange() gave ofetch, handed on as it is.
        const target = String(input);
        const attemptOnWire = wire!.pool.send(
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
        const started = monotonicMs();
        const log = (extra: { status?: number; error?: string }) =>
          options.onRequest?.({
            operation: spec.operation,
            method: spec.method,
            url: redact(target),
            attempt,
            durationMs: Math.round(monotonicMs() - started),
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
          return answerFor(status, statusText, headers);
        } catch (error) {
          call.lastTimedOut = timedOut;
          call.tooLarge = error instanceof wire!.module.BodyTooLargeError;
          const reason = timedOut ? new AttemptTimeoutError(timeoutMs) : call.pastDeadline ? new DeadlineError(deadline!.label) : error;
          log({ error: redact(describeNetworkError(reason)) });
          const code = errorCodes(reason).find((c) => c in UNREACHABLE_HOST_CODES);
          if (code && !timedOut && !call.pastDeadline) unreachable[latchOf(spec)] ??= { code, text: redact(describeNetworkError(reason)) };
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
    const notSent = pastDeadlineError(spec, 0) ?? refusedTokenError(spec, 0) ?? unreachableError(spec, 0) ?? openCircuitError(spec, 0);
    if (notSent) throw notSent;
    const isWrite = spec.method !== 'GET' && !spec.read;
    const call: CallState = { attempts: 0, lastTimedOut: false };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.host === 'workflow') headers.authorization = `Bearer ${workflowToken}`;
    else headers[tokenHeader] = options.token;
    const [{ createFetch }, wireAt] = await Promise.all([ofetchModule(), wireModule()]);
    wire ??= { module: wireAt, pool: wireAt.createConnectionPool(concurrency) };
    const $fetch = createFetch({ fetch: attemptFetch(spec, call), Headers: WireHeaders as unknown as typeof Headers });
    try {
      const response = await $fetch.raw<string, 'text'>(url, {
        method: spec.method,
        headers,
        // No redirect is followed (the pool's node:http never does): the developer-token header
        // would go wherever it points. A 3xx is reported below.
        // An object written as JSON here, as ofetch would: its own test of an object body reads
        // the global FormData, which loads undici. The text gets ofetch's JSON content type the same.
        body: (typeof spec.body === 'object' && spec.body !== null ? JSON.stringify(spec.body) : spec.body) as RequestInit['body'] | undefined,
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
          const remaining = remainingMs();
          if (delayMs >= remaining) call.waitEndsAtDeadline = true;
          return Math.max(0, Math.min(delayMs, remaining));
        },
        // Writes are not idempotent: retried only when the request provably never left.
        onRequestError: (context) => {
          if (context.error instanceof ApiError) context.options.retry = false; // refused token: not sent
          if (call.tooLarge) context.options.retry = false; // the same answer would come again
          if (call.pastDeadline) context.options.retry = false;
          if (unreachable[latchOf(spec)]) context.options.retry = false; // no request can reach the host
          if (isWrite && !neverReachedServer(context.error)) context.options.retry = false;
        },
        onResponseError: (context) => {
          if (isWrite) context.options.retry = false;
        },
      });
      if (response.status >= 200 && response.status < 300) {
        // Taken off `call`, not read: `call` lives from the moment a page is asked for (read-ahead
        // waits behind the limiter), so V8 has often moved it to the old generation, and a field
        // of an old object keeps its young value alive through every scavenge until a full GC.
        // Every page's text (58 KB) was promoted so: 366 -> 300 MB peak RSS at 300,000
        // schedules on Node 24 (BENCHMARKS.md §11).
        const text = call.text ?? '';
        // Stryker disable next-line all: memory only (peak RSS, measured by the bench), same answers
        call.text = undefined;
        return { status: response.status, text };
      }
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

  const failure = (spec: RequestSpec, error: FetchError, call: CallState) =>
    failureOf(spec, error, call, { fail, redact, tokenHeader, maxBodyBytes, timeoutMs, pastDeadline: (attempts) => pastDeadlineError(spec, attempts, true)! });

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
    getJson<T>(spec: RequestSpec, schema: Schema, memoised = true): Promise<T> {
      if (!memoised) return readJson<T>(spec, schema);
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
