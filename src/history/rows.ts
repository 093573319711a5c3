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

/** Reads one row of `table`; `key` names the row in messages (`id 3`, `run 3`). */
export function rowReader(db: Pick<HistoryDatabase, 'shown'>, table: string, row: Row, key: string) {
  const bad = (column: string, why: string) =>
    new InputError([{ file: db.shown, line: 0, column: 0, message: `history table ${table}, row ${key}: ${column} ${why} (a history holds only what steward writes)` }]);
  const text = (column: string): string => {
    const v = row[column];
    if (typeof v !== 'string') throw bad(column, `is ${v === null ? 'null' : typeof v}, not text`);
    return v;
  };
  return {
    text,
    nullableText: (column: string): string | null => (row[column] === null ? null : text(column)),
    count: (column: string): number => {
      const v = row[column];
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw bad(column, `is ${JSON.stringify(v)}, not a count`);
      return v;
    },
    oneOf: <T extends string>(column: string, values: readonly T[]): T => {
      const v = text(column);
      if (!(values as readonly string[]).includes(v)) throw bad(column, `is ${JSON.stringify(v)}, not one of ${values.join(', ')}`);
      return v as T;
    },
    severityCounts: (column: string): Record<Severity, number> => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text(column));
      } catch {
        throw bad(column, 'is not JSON');
      }
      const counts = parsed as Record<string, unknown>;
      const ok =
        parsed !== null &&
        typeof parsed === 'object' &&
        !Array.isArray(parsed) &&
        Object.keys(counts).every((k) => (SEVERITIES as readonly string[]).includes(k)) &&
        Object.values(counts).every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0);
      if (!ok) throw bad(column, 'is not a count per severity');
      return Object.fromEntries(SEVERITIES.map((s) => [s, (counts[s] as number | undefined) ?? 0])) as Record<Severity, number>;
    },
  };
}
