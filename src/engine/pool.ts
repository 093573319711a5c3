// Bounded fan-out over resources: at most `concurrency` tasks in flight, results in input
// order. HTTP concurrency itself is bounded by the client's limiter.
export async function mapPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
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
 * reads ahead no further than its own window. A synchronous result costs no promise. `ended`
 * gets the count once the source is exhausted, before the last results settle. The first
 * failure (of the source or of `fn`) is thrown once every started call has settled.
 */
export async function eachPooled<T>(
  source: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  fn: (item: T, index: number) => void | Promise<void>,
  ended?: (count: number) => void,
): Promise<void> {
  const pending = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let count = 0;
  try {
    for await (const item of source) {
      const out = fn(item, count++);
      if (!(out instanceof Promise)) continue;
      const settled: Promise<void> = out.then(
        () => void pending.delete(settled),
        (error: unknown) => {
          pending.delete(settled);
          failure ??= { error };
        },
      );
      pending.add(settled);
      if (pending.size >= Math.max(1, concurrency)) await Promise.race(pending);
      if (failure) throw failure.error;
    }
    ended?.(count);
    await Promise.all(pending);
    if (failure) throw failure.error;
  } finally {
    await Promise.allSettled(pending);
  }
}
