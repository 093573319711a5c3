// Adaptive concurrency for a shared SaaS: a 429 halves the requests in flight (never below
// one); RECOVERY_ANSWERS answers in a row without one add one back, up to the configured
// concurrency (additive increase, multiplicative decrease). Retry-After is honoured by the retry
// delay; this only keeps the run from going straight back to the rate that was refused.
import type PQueue from 'p-queue';

/** Calm answers in a row before one more request may be in flight again. */
export const RECOVERY_ANSWERS = 20;

export interface Throttle {
  /** Every answer's status (429 throttles, anything else counts toward recovery). */
  answered(status: number): void;
  /** 429 answers so far, and the lowest concurrency the run was cut to. */
  stats(): { throttled: number; lowestConcurrency: number };
}

export function createThrottle(limiter: PQueue, max: number): Throttle {
  let throttled = 0;
  let calm = 0;
  let lowest = max;
  return {
    answered(status) {
      if (status === 429) {
        throttled += 1;
        calm = 0;
        limiter.concurrency = Math.max(1, Math.floor(limiter.concurrency / 2));
        lowest = Math.min(lowest, limiter.concurrency);
        return;
      }
      if (limiter.concurrency >= max) return;
      calm += 1;
      if (calm >= RECOVERY_ANSWERS) {
        calm = 0;
        limiter.concurrency += 1;
      }
    },
    stats: () => ({ throttled, lowestConcurrency: lowest }),
  };
}
