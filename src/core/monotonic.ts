// Elapsed time for durations: the global `performance` loads node:perf_hooks and ten of Node's
// modules with it at its first use, for a clock process.hrtime reads without them. Both are
// monotonic: a wall clock set back during a run changes neither.

/** Milliseconds on a monotonic clock (an arbitrary origin: only differences mean anything). */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
