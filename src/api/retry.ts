// Retry policy: which failures are retried and how long to wait. ofetch runs the loop; these
// pure functions decide.
import { RETRY_STATUS_CODES } from './assumptions.js';

/**
 * Error codes that prove the request never reached the server (no connection was made), so
 * even a non-idempotent write may be sent again.
 */
export const NEVER_SENT_ERROR_CODES: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
];

export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUS_CODES.includes(status);
}

/** Every `code` in an error's cause chain (a wrapped socket error, sometimes in an AggregateError). */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown): void => {
    if (e === null || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') codes.push(code);
    visit(cause);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner);
  };
  visit(error);
  return codes;
}

/** True only when the request provably never reached the server. */
export function neverReachedServer(error: unknown): boolean {
  return errorCodes(error).some((code) => NEVER_SENT_ERROR_CODES.includes(code));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent/invalid. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface DelayInput {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** From Retry-After, when the server sent one. */
  retryAfterMs?: number;
  /** [0, 1): injectable for tests. */
  random?: () => number;
}

/**
 * Exponential backoff with "equal jitter" (half fixed, half random), raised to what the
 * server asked in Retry-After, and capped at maxDelayMs.
 */
export function retryDelayMs(input: DelayInput): number {
  const random = input.random ?? Math.random;
  const exponential = Math.min(input.maxDelayMs, input.baseDelayMs * 2 ** (input.attempt - 1));
  const backoff = exponential / 2 + (random() * exponential) / 2;
  const wanted = Math.max(backoff, input.retryAfterMs ?? 0);
  return Math.round(Math.min(input.maxDelayMs, wanted));
}
