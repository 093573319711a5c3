// Progress of a run per resource kind, counted where it is known: the engine collects each
// kind and judges each resource, so it knows how many there are and how many are done. It
// only calls back; showing it (a terminal line) is the caller's business.

/**
 * One kind's progress. `total` is the number of resources of the kind, known once the kind is
 * collected (a listed kind such as schedules or workflows: when its list is complete; a failed
 * collection counts as 0 of 0). `read` counts those whose reads are all answered, successfully
 * or not: a resource is read when every selected policy of its kind has been judged on it, so
 * the lazily loaded parts it needed (access, certification, …) have come back. Resources that
 * need no part request count as read as soon as they are collected. Totals never change once
 * sent, and `read` only grows up to `total`.
 */
export interface ProgressEvent {
  kind: string;
  read: number;
  total: number;
}

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
