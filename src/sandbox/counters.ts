// Requests received per operation, including rejected (401/403/400/404) and faulted ones, so
// tests and benchmarks can assert how many calls a run made. Unknown routes count nowhere.
import { OPERATION_IDS, type OperationId } from '../api/operations.js';

export function zeroCounts(): Record<OperationId, number> {
  return Object.fromEntries(OPERATION_IDS.map((op) => [op, 0])) as Record<OperationId, number>;
}

/** Zeroes the same object in place, so references held by tests stay live. */
export function resetCounts(counts: Record<OperationId, number>): void {
  for (const op of OPERATION_IDS) counts[op] = 0;
}

export function totalRequests(counts: Record<OperationId, number>): number {
  return OPERATION_IDS.reduce((sum, op) => sum + counts[op], 0);
}
