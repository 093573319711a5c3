// The pure retry decisions: Retry-After parsing, the backoff/jitter/cap formula, and which
// network errors prove a request never reached the server.
import { describe, expect, it } from 'vitest';
import { errorCodes, neverReachedServer, parseRetryAfter, retryDelayMs } from '../../src/api/retry.js';

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
  it('trims the value, and reads only a whole string of digits as seconds', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(' 2 ', now)).toBe(2000);
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter('x2', now)).toBeUndefined();
    expect(parseRetryAfter('2x', now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  const fixed = (r: number) => () => r;
  it('doubles per attempt with half of it jittered', () => {
    const delays = [1, 2, 3].map((attempt) =>
      retryDelayMs({ attempt, baseDelayMs: 200, maxDelayMs: 30_000, random: fixed(0) }),
    );
    expect(delays).toEqual([100, 200, 400]);
    expect(retryDelayMs({ attempt: 3, baseDelayMs: 200, maxDelayMs: 30_000, random: fixed(0.999999) })).toBe(800);
  });
  it('waits at least what Retry-After asks, never more than the cap', () => {
    expect(retryDelayMs({ attempt: 1, baseDelayMs: 200, maxDelayMs: 30_000, retryAfterMs: 2000, random: fixed(0.5) })).toBe(2000);
    expect(retryDelayMs({ attempt: 1, baseDelayMs: 200, maxDelayMs: 1500, retryAfterMs: 2000, random: fixed(0.5) })).toBe(1500);
    expect(retryDelayMs({ attempt: 10, baseDelayMs: 200, maxDelayMs: 5000, random: fixed(0.999999) })).toBe(5000);
  });
});

describe('neverReachedServer', () => {
  const wrapped = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
  it('is true for connection refused and DNS failures, also inside an AggregateError', () => {
    expect(neverReachedServer(wrapped('ECONNREFUSED'))).toBe(true);
    expect(neverReachedServer(wrapped('ENOTFOUND'))).toBe(true);
    // A DNS server that did not answer, and no route to the host or its network.
    for (const code of ['EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) expect(neverReachedServer(wrapped(code)), code).toBe(true);
    const aggregate = new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]);
    expect(neverReachedServer(new TypeError('fetch failed', { cause: aggregate }))).toBe(true);
  });
  it('is false for resets, closed sockets and timeouts', () => {
    expect(neverReachedServer(wrapped('ECONNRESET'))).toBe(false);
    expect(neverReachedServer(wrapped('UND_ERR_SOCKET'))).toBe(false);
    expect(neverReachedServer(new Error('timed out'))).toBe(false);
  });
  it('lists every code of the chain, outermost first, and nothing else', () => {
    const inner = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    const chain = Object.assign(new TypeError('fetch failed', { cause: inner }), { errors: [{ code: 'ETIMEDOUT' }, { code: 5 }] });
    expect(errorCodes(chain)).toEqual(['ECONNRESET', 'ETIMEDOUT']);
    expect(errorCodes(new Error('plain'))).toEqual([]);
  });
  it('ends on a cause chain that loops back, or holds null', () => {
    const looped: Error & { cause?: unknown } = new Error('loop');
    looped.cause = looped;
    expect(neverReachedServer(looped)).toBe(false);
    expect(neverReachedServer(new Error('x', { cause: null }))).toBe(false);
    expect(neverReachedServer(Object.assign(new Error('x', { cause: looped }), { errors: [null, { code: 'ENOTFOUND' }] }))).toBe(true);
  });
});
