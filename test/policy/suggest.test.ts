// "Did you mean …?" (src/policy/suggest.ts): the edit distance with a swap of neighbours costing
// 1, case-insensitive, and the closest candidate within a third of the name's length.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../src/policy/suggest.js';

/** The whole table, as the distance is defined: what the three-row version must agree with. */
function reference(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[s.length]![t.length]!;
}

describe('editDistance', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['ab', 'ba', 1],
    ['queue-no-admin-for-userz', 'queue-no-admin-for-users', 1],
    ['ABC', 'abc', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['ca', 'abc', 3],
  ])('%s → %s: %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('agrees with the whole table on 2,000 pairs of short random names', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const word = () => Array.from({ length: Math.floor(next() * 9) }, () => 'abcAB-'[Math.floor(next() * 6)]).join('');
    for (let k = 0; k < 2000; k++) {
      const [a, b] = [word(), word()];
      expect([a, b, editDistance(a, b)]).toEqual([a, b, reference(a, b)]);
    }
  });
});

describe('closest', () => {
  const ids = ['queue-no-admin-for-users', 'datasets-have-an-owner', 'queue-entries-grant-something'];

  it('names the nearest candidate within a third of the name, the first of equals', () => {
    expect(closest('queue-no-admin-for-userz', ids)).toBe('queue-no-admin-for-users');
    expect(closest('datasets-have-a-owner', ids)).toBe('datasets-have-an-owner');
    expect(closest('something-else-entirely', ids)).toBeNull();
    expect(closest('ab', ['ba', 'ac'])).toBe('ba');
    // The name itself is no suggestion.
    expect(closest('datasets-have-an-owner', ids)).toBeNull();
    expect(didYouMean('Queue-No-Admin-For-Users', ids)).toBe(" (did you mean 'queue-no-admin-for-users'?)");
  });

  it('a candidate far longer or shorter is never nearer than one the same length', () => {
    expect(closest('abcdefghi', ['abcdefghijklmnop', 'abcdefgxy', 'abcdefgh'])).toBe('abcdefgh');
    expect(closest('abcdefghi', ['abcdefgxy', 'abcdefgh'])).toBe('abcdefgh');
    expect(closest('abcdefghi', ['abcdefgxy'])).toBe('abcdefgxy');
  });
});
