// SeenIds against the Map it replaced: for any sequence of ids (whole numbers kept in typed
// arrays, anything else in a Map), the page each id was first on, and undefined the first time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../src/api/seen-ids.js';

/** What the Map of every id gave: the page an id was first on, or undefined (then noted). */
function mapModel() {
  const first = new Map<unknown, number>();
  return (id: unknown, page: number) => {
    const was = first.get(id);
    if (was === undefined) first.set(id, page);
    return was;
  };
}

describe('SeenIds', () => {
  it('answers as a Map of every id would, whatever the ids and however often they repeat', () => {
    const id = fc.oneof(
      fc.nat({ max: 5000 }),
      fc.constantFrom(0, -0, 2 ** 32, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER, -3, 1.5, Number.MAX_SAFE_INTEGER + 2),
      fc.nat({ max: 50 }).map((n) => n * 1024),
      fc.nat({ max: 50 }).map(String),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(id, fc.nat({ max: 30 })), { minLength: 100, maxLength: 3000 }), (calls) => {
        const seen = new SeenIds();
        const model = mapModel();
        for (const [value, page] of calls) expect(seen.firstOn(value, page)).toBe(model(value, page));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps every id through its growth: 100,000 sequential ids and 20,000 multiples of 2^20', () => {
    const seen = new SeenIds();
    const ids = [...Array.from({ length: 100_000 }, (_, i) => 200_000 + i), ...Array.from({ length: 20_000 }, (_, i) => (i + 1) * 2 ** 20)];
    let fresh = 0;
    let repeats = 0;
    ids.forEach((value, i) => {
      if (seen.firstOn(value, i % 1000) === undefined) fresh++;
    });
    ids.forEach((value, i) => {
      if (seen.firstOn(value, 9999) === i % 1000) repeats++;
    });
    expect([fresh, repeats]).toEqual([ids.length, ids.length]);
  });

  it('tells a number from the string of its digits, as the Map did, and keeps the first page of a third sighting', () => {
    const seen = new SeenIds();
    expect(seen.firstOn(5, 1)).toBeUndefined();
    expect(seen.firstOn('5', 2)).toBeUndefined();
    expect(seen.firstOn(5, 3)).toBe(1);
    expect(seen.firstOn('5', 4)).toBe(2);
    expect([seen.firstOn(5, 13), seen.firstOn('5', 14)]).toEqual([1, 2]);
    expect(seen.firstOn(0, 5)).toBeUndefined();
    expect(seen.firstOn(-0, 6)).toBe(5);
    // 1 and 2 are ids like any other (no value is taken to mean an empty slot).
    expect([seen.firstOn(1, 9), seen.firstOn(2, 10), seen.firstOn(1, 11), seen.firstOn(2, 12)]).toEqual([undefined, undefined, 9, 10]);
    expect(seen.firstOn(-1, 7)).toBeUndefined();
    expect(seen.firstOn(-1, 8)).toBe(7);
  });
});
