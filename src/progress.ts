// The one progress line a terminal shows during a run, built from the engine's per-kind events
// (engine/progress.ts): `reading  reportSchedule 46/46 · dataset 12/25 · card 3/12`.
import type { ProgressEvent } from './engine/progress.js';

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
