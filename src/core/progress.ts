// The one progress line a terminal shows during a run, built from the engine's per-kind events
// (engine/progress.ts): `reading  reportSchedule 46/46 · dataset 12/25 · card 3/12`.

/**
 * One kind's progress. `total` is the number of resources of the kind, known once the kind is
 * collected (a listed kind such as schedules or workflows: when its list is complete; a failed
 * collection counts as 0 of 0). `read` counts those whose reads are all answered, successfully
 * or not: a resource is read when every selected policy of its kind has been judged on it, so
 * the lazily loaded parts it needed (access, certification, …) have come back. Resources that
 * need no part request count as read as soon as they are collected. A kind is judged as its
 * list arrives, so the first event (the total) may already count some resources read. Totals
 * never change once sent, and `read` only grows up to `total`.
 */
export interface ProgressEvent {
  kind: string;
  read: number;
  total: number;
}

const PREFIX = 'reading  ';
const SEPARATOR = ' · ';

/** The latest state of each kind that reported, shown in `order` (others after, as they came). */
export class ProgressState {
  readonly #kinds = new Map<string, ProgressEvent>();
  readonly #order: readonly string[];

  /** `order`: kind names in the order to show them (kinds collect concurrently, so report in any order). */
  constructor(order: readonly string[] = []) {
    this.#order = order;
  }

  update(e: ProgressEvent): void {
    this.#kinds.set(e.kind, e);
  }

  /** The line, at most `width` characters (cut with … when the terminal is narrower). */
  line(width: number): string {
    const rank = (kind: string) => {
      const i = this.#order.indexOf(kind);
      return i === -1 ? this.#order.length : i;
    };
    // Array sort is stable: kinds outside `order` keep the order they reported in.
    const parts = [...this.#kinds.values()]
      .sort((a, b) => rank(a.kind) - rank(b.kind))
      .map((e) => `${e.kind} ${e.read}/${e.total}`);
    const text = PREFIX + parts.join(SEPARATOR);
    const max = Math.max(1, width);
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
  }
}
