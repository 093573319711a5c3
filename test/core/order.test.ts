// The orders shared by every layer. Text compares by code unit, never by the process's locale.
import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/core/order.js';

describe('compareText', () => {
  it('orders by code unit: capitals before small letters, - before _ before letters', () => {
    expect(['t', 'z', 'b', 'B', 'a_b', 'a-b', 'ab', 'a'].sort(compareText)).toEqual(['B', 'a', 'a-b', 'a_b', 'ab', 'b', 't', 'z']);
  });

  it('is 0 only for equal text, and antisymmetric', () => {
    expect(compareText('queue', 'queue')).toBe(0);
    expect(compareText('z', 't')).toBe(1);
    expect(compareText('t', 'z')).toBe(-1);
  });
});
