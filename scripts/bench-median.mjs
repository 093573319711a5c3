// The one statistic the benchmarks quote for repeated timings: the median (of paired runs, with
// their range).

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

/**
 * Runs of each side of a live comparison (steward and the bare client), alternated: a slow or
 * busy moment of the shared machine falls on one pair, not on one side.
 */
export const LIVE_PAIRS = 3;

/** `1.20× (1.19–1.33)`: the median of the pairs' ratios, their lowest and highest beside it. */
export function pairedRatio(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b);
  return `${median(sorted).toFixed(2)}× (${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)})`;
}
