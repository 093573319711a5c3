// Values read back from a history file, checked against what steward writes: a file edited by
// hand or by an attacker reaches reports (the HTML page, diffs, lifecycles) only as the values
// its schema allows. One malformed value is bad input naming the history, the table and the row
// (exit 2), never a crash or a verdict built on it.
import { type Severity, SEVERITIES } from '../core/model.js';
export { LIFECYCLES } from '../core/model.js';
import { InputError } from '../core/problem.js';
import type { HistoryDatabase, Row } from './types.js';

export const GATES = ['pass', 'fail', 'error'] as const;
export const STORED_STATUSES = ['violation', 'waived'] as const;

/**
 * Reads one row of `table`; `key` names the row in messages (`id 3`, `run 3`), written only for
 * one. A run reads every finding it holds: a name written for each row and a reader made of
 * closures cost 13 ms for 10,000 rows, this 4 (Node 24, a first pass).
 */
export const rowReader = (db: Pick<HistoryDatabase, 'shown'>, table: string, row: Row, key: () => string): RowReader => new RowReader(db.shown, table, row, key);

class RowReader {
  constructor(
    private readonly shown: string,
    private readonly table: string,
    private readonly row: Row,
    private readonly key: () => string,
  ) {}

  private bad(column: string, why: string): InputError {
    return new InputError([{ file: this.shown, line: 0, column: 0, message: `history table ${this.table}, row ${this.key()}: ${column} ${why} (a history holds only what steward writes)` }]);
  }

  text(column: string): string {
    const v = this.row[column];
    if (typeof v !== 'string') throw this.bad(column, `is ${v === null ? 'null' : typeof v}, not text`);
    return v;
  }

  nullableText(column: string): string | null {
    return this.row[column] === null ? null : this.text(column);
  }

  count(column: string): number {
    const v = this.row[column];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw this.bad(column, `is ${JSON.stringify(v)}, not a count`);
    return v;
  }

  oneOf<T extends string>(column: string, values: readonly T[]): T {
    const v = this.text(column);
    if (!(values as readonly string[]).includes(v)) throw this.bad(column, `is ${JSON.stringify(v)}, not one of ${values.join(', ')}`);
    return v as T;
  }

  severityCounts(column: string): Record<Severity, number> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.text(column));
    } catch {
      throw this.bad(column, 'is not JSON');
    }
    const counts = parsed as Record<string, unknown>;
    const ok =
      parsed !== null &&
      typeof parsed === 'object' &&
      !Array.isArray(parsed) &&
      Object.keys(counts).every((k) => (SEVERITIES as readonly string[]).includes(k)) &&
      Object.values(counts).every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0);
    if (!ok) throw this.bad(column, 'is not a count per severity');
    return Object.fromEntries(SEVERITIES.map((s) => [s, (counts[s] as number | undefined) ?? 0])) as Record<Severity, number>;
  }
}
