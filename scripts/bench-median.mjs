// The one statistic the benchmarks quote for repeated timings: the median.

/** The middle of `values` (the upper one of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Median milliseconds of `runs` calls of `fn` (awaited when it returns a promise). */
export async function medianMs(runs, fn) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    all.push(performance.now() - t0);
  }
  return median(all);
}
