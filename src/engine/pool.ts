// Bounded fan-out over resources: at most `concurrency` tasks in flight, results in input
// order. HTTP concurrency itself is bounded by the client's limiter.
export async function mapPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  // Stryker disable next-line ArrayDeclaration: every index is assigned; the length only spares the array's growth
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  const n = Math.max(1, Math.min(concurrency, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

/**
 * Runs `fn` on each item of `source` as it arrives (pages judged as they come, none kept), with
 * at most `concurrency` results unsettled at once: a full pool stops taking items, so a listing
 * reads ahead no further than its own window. The source may give items one by one or a page at
 * a time (an array, so an item is never one; its items take no promise each), and a synchronous
 * result costs no promise. `ended` gets the count once the source is exhausted, before the last
 * results settle. The first failure (of the source or of `fn`) is thrown once every started call
 * has settled.
 */
export async function eachPooled<T>(
  source: Iterable<T | readonly T[]> | AsyncIterable<T | readonly T[]>,
  concurrency: number,
  fn: (item: T, index: number) => void | Promise<void>,
  ended?: (count: number) => void,
): Promise<void> {
  const pending = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let count = 0;
  const take = (item: T): boolean => {
    const out = fn(item, count++);
    // Stryker disable next-line BooleanLiteral: waitForRoom waits only when the pool is full; saying so here spares its call
    if (!(out instanceof Promise)) return false;
    const settled: Promise<void> = out.then(
      () => void pending.delete(settled),
      (error: unknown) => {
        pending.delete(settled);
        failure ??= { error };
      },
    );
    pending.add(settled);
    // Stryker disable next-line ConditionalExpression,MethodExpression: as above, waitForRoom checks the bound itself
    return pending.size >= Math.max(1, concurrency);
  };
  try {
    for await (const got of source) {
      if (!Array.isArray(got)) {
        if (take(got as T) || failure) await waitForRoom();
        continue;
      }
      for (const item of got as readonly T[]) if (take(item) || failure) await waitForRoom();
    }
    ended?.(count);
    await Promise.all(pending);
    if (failure) throw failure.error;
  } finally {
    await Promise.allSettled(pending);
  }

  /** Until a slot frees when the pool is full; throws the first failure. */
  async function waitForRoom(): Promise<void> {
    // Stryker disable next-line MethodExpression: reached only with the pool full or a failure, which waiting for one call first throws the same
    if (pending.size >= Math.max(1, concurrency)) await Promise.race(pending);
    if (failure) throw failure.error;
  }
}
