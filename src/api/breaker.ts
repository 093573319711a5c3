// A circuit breaker per operation: when requests of one operation keep failing (the server is
// down, or throttles without end), the rest of the run's requests of it fail at once, not sent,
// naming the cause, so a run ends in seconds rather than retrying every resource in turn.

/**
 * Requests of one operation failing in a row with a transient failure (timeout, network error,
 * a retryable status) that open its circuit: five calls' worth of the default 4 attempts. A
 * fault rate of 10% reaches it with odds of 1 in 10^20; a server that is down, in 20 requests.
 */
export const BREAKER_THRESHOLD = 20;

export interface Breaker {
  /** Why the operation's circuit is open, or undefined while it is closed. */
  openedBy(operation: string): string | undefined;
  /** The server answered a request of the operation (any non-transient status): count again. */
  answered(operation: string): void;
  /** A request of the operation failed transiently; `reason` names how (`429 Too Many Requests`). */
  failed(operation: string, reason: string): void;
}

export function createBreaker(threshold = BREAKER_THRESHOLD): Breaker {
  const inARow = new Map<string, number>();
  const opened = new Map<string, string>();
  return {
    openedBy: (operation) => opened.get(operation),
    answered: (operation) => void inARow.set(operation, 0),
    failed(operation, reason) {
      const count = (inARow.get(operation) ?? 0) + 1;
      inARow.set(operation, count);
      if (count >= threshold && !opened.has(operation)) {
        opened.set(operation, `${count} requests of ${operation} in a row failed (the last: ${reason})`);
      }
    },
  };
}
