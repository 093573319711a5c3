// The ApiError one operation's attempts end in: the status with its documented meaning and the
// server's message, an answer over the size cap, the run's deadline, a timeout, or a network
// error, each saying whether it was retried (a write that may have reached the server is not).
import type { FetchError } from 'ofetch';
import { describeNetworkError, messageOf, sanitizedCause, statusMeaning } from './answer-text.js';
import { ApiError, type ApiErrorInit, requestLabel } from './errors.js';
import { describePath } from './request-path.js';
import type { CallState, RequestSpec } from './request-spec.js';
import { errorCodes, isRetryableStatus, neverReachedServer } from './retry.js';
import { UNREACHABLE_HOST_CODES } from './run-wide.js';

export interface FailureContext {
  fail(spec: RequestSpec, init: Omit<ApiErrorInit, 'operation' | 'method' | 'path'>): ApiError;
  redact(text: string): string;
  tokenHeader: string;
  maxBodyBytes: number;
  timeoutMs: number;
  /** The error of an attempt the run's deadline cut short. */
  pastDeadline(attempts: number): ApiError;
}

export function failureOf(spec: RequestSpec, error: FetchError, call: CallState, ctx: FailureContext): ApiError {
const { fail, redact, tokenHeader, maxBodyBytes, timeoutMs } = ctx;
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
  if (call.pastDeadline) return ctx.pastDeadline(attempts);
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
    // A host no request can reach (run-wide.ts) is not retried: the next attempt would meet the same.
    detail: `${label}: network error: ${describeNetworkError(cause)}${errorCodes(cause).some((c) => c in UNREACHABLE_HOST_CODES) ? ' (not retried: the host cannot be reached)' : retryNote(true, !neverReachedServer(cause))}`,
  });
}
