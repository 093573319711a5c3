import { describe as group, expect, it } from 'vitest';
import { DYN, of } from '../../src/policy/schema-types.js';
import { arithmeticResult, compatible, describe, equalable, orderable, union, withoutNull } from '../../src/policy/type-rules.js';

group('arithmeticResult', () => {
  it('keeps a number kind, or both when two numbers differ (CEL has no implicit conversion)', () => {
    expect(arithmeticResult('+', 'int', 'int')).toEqual(['int']);
    expect(arithmeticResult('*', 'int', 'double')).toEqual(['int', 'double']);
  });

  it('knows the time and concatenation pairs and refuses the rest', () => {
    expect(arithmeticResult('+', 'string', 'string')).toEqual(['string']);
    expect(arithmeticResult('+', 'list', 'list')).toEqual(['list']);
    expect(arithmeticResult('-', 'timestamp', 'timestamp')).toEqual(['duration']);
    expect(arithmeticResult('+', 'duration', 'timestamp')).toEqual(['timestamp']);
    expect(arithmeticResult('-', 'duration', 'timestamp')).toEqual([]);
    expect(arithmeticResult('-', 'string', 'string')).toEqual([]);
    expect(arithmeticResult('+', 'string', 'int')).toEqual([]);
  });
});

group('equalable and orderable', () => {
  it('compares numbers with numbers and null with anything', () => {
    expect(equalable('int', 'double')).toBe(true);
    expect(equalable('string', 'null')).toBe(true);
    expect(equalable('null', 'list')).toBe(true);
    expect(equalable('string', 'int')).toBe(false);
    expect(orderable('uint', 'int')).toBe(true);
    expect(orderable('null', 'list')).toBe(true);
    expect(orderable('map', 'null')).toBe(true);
  });

  it('orders only ordered kinds with their own kind', () => {
    expect(orderable('timestamp', 'timestamp')).toBe(true);
    expect(orderable('list', 'list')).toBe(false);
    expect(orderable('string', 'bytes')).toBe(false);
    expect(equalable('list', 'list')).toBe(true);
  });
});

group('compatible', () => {
  it('passes dyn, a side that can only be null, and any working pair of kinds', () => {
    expect(compatible(DYN, of('int'), equalable)).toBe(true);
    expect(compatible(undefined, of('int'), equalable)).toBe(true);
    expect(compatible(of('null'), of('int'), orderable)).toBe(true);
    expect(compatible(of('string', 'int'), of('int'), orderable)).toBe(true);
  });

  it('checks a nullable side against what it holds when not null', () => {
    expect(compatible(of('string', 'null'), of('int'), equalable)).toBe(false);
    expect(compatible(of('int'), of('string', 'null'), equalable)).toBe(false);
    expect(compatible(of('list'), of('list'), orderable)).toBe(false);
  });
});

group('union and withoutNull', () => {
  it('unites the kinds, dyn when any side is dyn', () => {
    expect([...union([of('int'), of('string', 'null')]).kinds!]).toEqual(['int', 'string', 'null']);
    expect(union([of('int'), DYN])).toBe(DYN);
  });

  it('takes null out and leaves a type without null as it is', () => {
    const t = of('string', 'null');
    expect([...withoutNull(t).kinds!]).toEqual(['string']);
    expect([...t.kinds!]).toEqual(['string', 'null']);
    const plain = of('int');
    expect(withoutNull(plain)).toBe(plain);
    expect(withoutNull(DYN)).toBe(DYN);
  });
});

group('describe', () => {
  it('names the kinds as a message says them', () => {
    expect(describe(DYN)).toBe('dyn');
    expect(describe(of('string', 'null'))).toBe('string or null');
    expect(describe(of('int', 'double'))).toBe('int or double');
  });

  it('says "a number" for numbers alone when asked to speak plainly', () => {
    expect(describe(of('int', 'double'), true)).toBe('a number');
    expect(describe(of('int', 'null'), true)).toBe('a number or null');
    expect(describe(of('int', 'string'), true)).toBe('int or string');
    expect(describe(of('null'), true)).toBe('null');
  });
});
