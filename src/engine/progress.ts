// Progress of a run per resource kind, counted where it is known: the engine collects each
// kind and judges each resource, so it knows how many there are and how many are done. It
// only calls back; showing it (a terminal line) is the caller's business.
import type { ProgressEvent } from '../core/progress.js';

export type { ProgressEvent } from '../core/progress.js';

export interface KindProgress {
  /** The kind is collected: `total` resources, `readNow` of them already fully read. */
  collected(total: number, readNow: number): void;
  /** One more resource of the kind is fully read. */
  resourceRead(): void;
}

export function kindProgress(kind: string, onProgress: ((e: ProgressEvent) => void) | undefined): KindProgress {
  let read = 0;
  let total = 0;
  const emit = () => onProgress?.({ kind, read, total });
  return {
    collected(n, readNow) {
      total = n;
      read = readNow;
      emit();
    },
    resourceRead() {
      read += 1;
      emit();
    },
  };
}
