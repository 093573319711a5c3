// The run memo: one read per key, its failure tagged as shared, and its value readable without
// waiting once it has settled (what lets a part joined from a shared list cost no promise).
import { describe, expect, it } from 'vitest';
import { createPartMemo, createRunMemo } from '../../src/engine/memo.js';

describe('run memo', () => {
  it('reads each key once and gives its value without waiting only after success', async () => {
    const { once, isShared } = createRunMemo();
    let reads = 0;
    const read = () => once('list', async () => ++reads);
    expect(once.settled?.('list')).toBeUndefined();
    const [a, b] = await Promise.all([read(), read()]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    expect(once.settled?.('list')).toEqual({ value: 1 });

    const failure = new Error('403');
    await expect(once('refused', async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(isShared(failure)).toBe(true);
    expect(once.settled?.('refused')).toBeUndefined();
  });

  it('keeps a part per resource object: the same resource loads once, another loads again', async () => {
    const memo = createPartMemo();
    let loads = 0;
    const first = { id: '1' };
    const second = { id: '1' };
    await Promise.all([memo(first, 'access', async () => ++loads), memo(first, 'access', async () => ++loads)]);
    expect(await memo(second, 'access', async () => ++loads)).toBe(2);
    expect(loads).toBe(2);
  });
});
