// Which fields have closed values, and the words of a value that are none of them.
import { describe, expect, it } from 'vitest';
import { closedValues, strayWords, valueList } from '../../src/policy/closed-words.js';
import { fromSchema } from '../../src/policy/schema-types.js';

describe('closed values', () => {
  it('a schema listing words (and null) has them; one listing anything else, or nothing, has none', () => {
    expect(closedValues(fromSchema({ enum: ['ACTIVE', 'EXPIRED', null] }))).toEqual(['ACTIVE', 'EXPIRED', null]);
    expect(closedValues(fromSchema({ type: 'string', enum: ['USER', 'GROUP'] }))).toEqual(['USER', 'GROUP']);
    // A number among them: equality with a word says nothing certain of the others.
    expect(closedValues(fromSchema({ enum: ['a', 1] }))).toBeNull();
    expect(closedValues(fromSchema({ enum: [1, 2] }))).toBeNull();
    expect(closedValues(fromSchema({ type: 'string' }))).toBeNull();
    expect(closedValues(undefined)).toBeNull();
  });

  it('the stray words of a word or a list of them; other values are not words', () => {
    const values = ['ACTIVE', 'EXPIRED', null];
    expect(strayWords('CERTIFIED', values)).toEqual(['CERTIFIED']);
    expect(strayWords(['ACTIVE', 'Expired', 'X', null, 3], values)).toEqual(['Expired', 'X']);
    expect(strayWords(['ACTIVE'], values)).toEqual([]);
    expect(valueList(values)).toBe('ACTIVE, EXPIRED, null');
  });
});
