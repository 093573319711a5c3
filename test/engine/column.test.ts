// Column: one value per resource in fixed blocks, read and written by index across blocks.
import { describe, expect, it } from 'vitest';
import { COLUMN_BLOCK, Column } from '../../src/engine/column.js';

describe('Column', () => {
  it('pushes across block boundaries and reads each value back at its index', () => {
    const column = new Column<string>();
    const n = COLUMN_BLOCK * 2 + 5;
    for (let i = 0; i < n; i++) column.push(`id-${i}`);
    expect(column.length).toBe(n);
    expect([0, COLUMN_BLOCK - 1, COLUMN_BLOCK, 2 * COLUMN_BLOCK + 4].map((i) => column.get(i))).toEqual([
      'id-0',
      `id-${COLUMN_BLOCK - 1}`,
      `id-${COLUMN_BLOCK}`,
      `id-${2 * COLUMN_BLOCK + 4}`,
    ]);
    expect(column.toArray()).toEqual(Array.from({ length: n }, (_, i) => `id-${i}`));
  });

  it('takes values out of order (verdicts arrive as their parts do) and grows to the highest index', () => {
    const column = new Column<number>();
    column.set(COLUMN_BLOCK + 3, 7);
    expect(column.length).toBe(COLUMN_BLOCK + 4);
    column.set(2, 1);
    expect(column.length).toBe(COLUMN_BLOCK + 4);
    expect([column.get(2), column.get(COLUMN_BLOCK + 3), column.get(5)]).toEqual([1, 7, undefined]);
  });

  it('reads unset slots of the first block, written past, as undefined (the block is filled, not left with a gap)', () => {
    const column = new Column<string>();
    column.set(3, 'd');
    column.set(1, 'b');
    expect(column.toArray()).toEqual([undefined, 'b', undefined, 'd']);
    expect(column.length).toBe(4);
  });

  it('hands out the first values as an array of exactly that length', () => {
    const column = new Column<string>();
    for (const v of ['a', 'b', 'c', 'd']) column.push(v);
    expect(column.toArray(2)).toEqual(['a', 'b']);
    expect(column.toArray(0)).toEqual([]);
    expect(new Column<string>().toArray()).toEqual([]);
  });
});
