// The circuit breaker's counting (src/api/breaker.ts): failures in a row per operation open its
// circuit at the threshold, naming the count and the last failure; an answer counts again; the
// first reason is kept; operations count apart. (test/hostile/storms.test.ts drives it over HTTP.)
import { describe, expect, it } from 'vitest';
import { BREAKER_THRESHOLD, createBreaker } from '../../src/api/breaker.js';

describe('breaker', () => {
  it('opens at the threshold of failures in a row, not one before, naming the count and the last failure', () => {
    const b = createBreaker(3);
    b.failed('op', '503 Service Unavailable');
    b.failed('op', '503 Service Unavailable');
    expect(b.openedBy('op')).toBeUndefined();
    b.failed('op', 'timeout');
    expect(b.openedBy('op')).toBe('3 requests of op in a row failed (the last: timeout)');
  });

  it('an answer in between counts again; other operations count apart; the first reason stays', () => {
    const b = createBreaker(2);
    b.failed('op', 'a');
    b.answered('op');
    b.failed('op', 'b');
    expect(b.openedBy('op')).toBeUndefined();
    b.failed('other', 'c');
    expect(b.openedBy('op')).toBeUndefined();
    b.failed('op', 'd');
    expect(b.openedBy('op')).toBe('2 requests of op in a row failed (the last: d)');
    b.failed('op', 'e');
    expect(b.openedBy('op')).toBe('2 requests of op in a row failed (the last: d)');
    expect(b.openedBy('other')).toBeUndefined();
  });

  it('defaults to BREAKER_THRESHOLD (20)', () => {
    const b = createBreaker();
    for (let i = 1; i < BREAKER_THRESHOLD; i++) b.failed('op', 'x');
    expect(b.openedBy('op')).toBeUndefined();
    b.failed('op', 'x');
    expect(b.openedBy('op')).toBe('20 requests of op in a row failed (the last: x)');
    expect(BREAKER_THRESHOLD).toBe(20);
  });
});
