// The streamed pool: each item handled as it arrives, at most `concurrency` unsettled, the
// first failure thrown only once every started call has settled.
import { describe, expect, it } from 'vitest';
import { eachPooled, mapPool } from '../../src/engine/pool.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function* counted(n: number, taken: { count: number }, failAt = -1) {
  for (let i = 0; i < n; i++) {
    await tick();
    if (i === failAt) throw new Error(`source failed at ${i}`);
    taken.count++;
    yield i;
  }
}

describe('eachPooled', () => {
  it('takes an item only while fewer than `concurrency` are unsettled, and counts them when the source ends', async () => {
    const taken = { count: 0 };
    let unsettled = 0;
    let most = 0;
    const seen: number[] = [];
    const ended: [count: number, unsettled: number][] = [];
    await eachPooled(
      counted(20, taken),
      3,
      async (item, index) => {
        expect(index).toBe(item);
        unsettled++;
        most = Math.max(most, unsettled);
        for (let i = 0; i < 10; i++) await tick();
        seen.push(item);
        unsettled--;
      },
      (count) => ended.push([count, unsettled]),
    );
    expect(most).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    expect(ended).toHaveLength(1);
    expect(ended[0][0]).toBe(20);
    // Called before the last results settle.
    expect(ended[0][1]).toBeGreaterThan(0);
  });

  it('a synchronous result holds no slot: the source is drained as it comes', async () => {
    const taken = { count: 0 };
    const takenWhenHandled: number[] = [];
    await eachPooled(counted(50, taken), 1, () => {
      takenWhenHandled.push(taken.count);
    });
    expect(takenWhenHandled).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('a page the source gives at once is taken item by item, in order, the pool bound holding inside it', async () => {
    async function* pages() {
      for (let p = 0; p < 4; p++) {
        await tick();
        yield Array.from({ length: 10 }, (_, i) => p * 10 + i);
      }
    }
    let unsettled = 0;
    let most = 0;
    const order: [item: number, index: number][] = [];
    const ended: number[] = [];
    await eachPooled(
      pages(),
      3,
      (item, index) => {
        order.push([item, index]);
        // Every third item is synchronous: it holds no slot.
        if (item % 3 === 0) return;
        unsettled++;
        most = Math.max(most, unsettled);
        return tick().then(() => void unsettled--);
      },
      (count) => ended.push(count),
    );
    expect(order).toEqual(Array.from({ length: 40 }, (_, i) => [i, i]));
    expect(most).toBe(3);
    expect(ended).toEqual([40]);
  });

  it('a failing call is thrown after the calls already started have settled; no item is taken after it', async () => {
    const taken = { count: 0 };
    const finished: number[] = [];
    const run = eachPooled(counted(100, taken), 4, async (item) => {
      await tick();
      if (item === 5) throw new Error('item 5 failed');
      await tick();
      await tick();
      finished.push(item);
    });
    await expect(run).rejects.toThrow('item 5 failed');
    const afterwards = finished.length;
    await tick();
    await tick();
    expect(finished.length).toBe(afterwards);
    expect(taken.count).toBeLessThanOrEqual(10);
    expect(finished).toContain(6);
  });

  it("the source's failure is thrown once the started calls have settled", async () => {
    const taken = { count: 0 };
    const finished: number[] = [];
    let ended = false;
    const run = eachPooled(
      counted(10, taken, 4),
      8,
      async (item) => {
        for (let i = 0; i < 5; i++) await tick();
        finished.push(item);
      },
      () => {
        ended = true;
      },
    );
    await expect(run).rejects.toThrow('source failed at 4');
    expect(finished.sort()).toEqual([0, 1, 2, 3]);
    expect(ended).toBe(false);
  });

  it('takes a plain array', async () => {
    const out: string[] = [];
    await eachPooled(['a', 'b', 'c'], 2, (item, index) => {
      out.push(`${index}${item}`);
    });
    expect(out).toEqual(['0a', '1b', '2c']);
  });
});

describe('mapPool', () => {
  it('keeps input order whatever order the results settle in', async () => {
    const delays = [3, 1, 2, 0];
    const out = await mapPool(delays, 2, async (d, i) => {
      for (let k = 0; k < d; k++) await tick();
      return `${i}:${d}`;
    });
    expect(out).toEqual(['0:3', '1:1', '2:2', '3:0']);
  });
});

describe('mapPool, bounded', () => {
  it('runs at most `concurrency` calls at once, and as many as that when there are enough items', async () => {
    const most = async (items: number, concurrency: number) => {
      let running = 0;
      let peak = 0;
      await mapPool(Array.from({ length: items }, (_, i) => i), concurrency, async () => {
        running++;
        peak = Math.max(peak, running);
        for (let k = 0; k < 3; k++) await tick();
        running--;
      });
      return peak;
    };
    expect(await most(10, 3)).toBe(3);
    expect(await most(2, 8)).toBe(2);
    // A concurrency of 0 still makes progress, one at a time.
    expect(await most(4, 0)).toBe(1);
    expect(await mapPool([], 4, async () => 1)).toEqual([]);
  });
});

describe('eachPooled, a failure with nothing pending', () => {
  it('is thrown at the next item, though no call is left to wait for', async () => {
    const taken = { count: 0 };
    const run = eachPooled(counted(20, taken), 4, (item) => {
      // The first call fails at once and settles before the next item arrives; the rest are synchronous.
      if (item === 0) return Promise.reject(new Error('item 0 failed'));
    });
    await expect(run).rejects.toThrow('item 0 failed');
    expect(taken.count).toBe(2);
  });
});
