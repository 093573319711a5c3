// The run's deadline as a stage of the transport: at the deadline, requests still queued behind
// a rate limit (at 2 a second, hours of them) are dropped and the attempts waiting settle at
// once, instead of each waiting its turn to fail. Without a rate limit the queue drains at once
// anyway (each attempt refuses to start past the deadline), so attempts are not wrapped: the
// wrapper costs memory. Each attempt is in `waiting` only until it settles: nothing an answer
// holds is kept alive until the deadline (a promise chained to a long-lived one would keep every body).
import type PQueue from 'p-queue';

/** The reason an attempt cut short by the deadline settles with (never retried). */
export class DeadlineError extends Error {
  constructor(label: string) {
    super(`the run's deadline (${label}) passed`);
    this.name = 'DeadlineError';
  }
}

export interface DeadlineStage {
  /** Milliseconds until the deadline (infinite without one). */
  remainingMs(): number;
  /** The attempt, settled at once with a DeadlineError when the deadline passes first (`onPassed` runs then). */
  wrap(attempt: Promise<Response>, onPassed: () => void): Promise<Response>;
}

export function createDeadlineStage(deadline: { at: number; label: string } | undefined, limiter: PQueue, queueDrainsSlowly: boolean): DeadlineStage {
  const remainingMs = () => (deadline ? deadline.at - Date.now() : Number.POSITIVE_INFINITY);
  const waiting = new Set<() => void>();
  let passed = false;
  if (deadline && queueDrainsSlowly) {
    const timer = setTimeout(() => {
      passed = true;
      limiter.clear();
      for (const stop of waiting) stop();
      waiting.clear();
    }, Math.max(0, remainingMs()));
    timer.unref();
  }
  return {
    remainingMs,
    wrap(attempt, onPassed) {
      if (!deadline || !queueDrainsSlowly) return attempt;
      return new Promise<Response>((resolve, reject) => {
        const onDeadline = () => {
          onPassed();
          reject(new DeadlineError(deadline.label));
        };
        if (passed) return onDeadline();
        waiting.add(onDeadline);
        attempt.then(resolve, reject).finally(() => waiting.delete(onDeadline));
      });
    },
  };
}
