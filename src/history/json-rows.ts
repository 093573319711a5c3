// A read of many rows from an SQLite history as one JSON text: SQLite writes the rows with its
// own JSON functions and V8 parses them, where a row at a time costs a call out of the database
// per column of every row (sql.js's WebAssembly; node:sqlite's objects made value by value). A
// run at 10,000 findings reads 10,052 open spans of 14 columns so, in about two thirds of the CPU
// with node:sqlite and five sixths with sql.js (its first read). The rows, their values and
// their types are the same: only texts, nulls and integers a double holds exactly go into the
// JSON; any other value (a real, which SQLite's JSON writes to 15 digits, a larger integer, a
// blob) is made a blob JSON cannot hold, and the caller reads the rows one by one, so what a
// damaged file says is said the same way.
import type { Row, SqlValue } from './types.js';

/** What bulkRows reads with: a driver's `all`. */
type All = (sql: string, params: SqlValue[]) => Promise<Row[]>;

/**
 * The rows of `sql` (whose columns are `names`) read as one JSON text, or, where that cannot hold
 * them (a blob, a name twice), one by one: the same rows either way.
 */
export async function bulkRows(all: All, sql: string, params: SqlValue[], names: readonly string[]): Promise<Row[]> {
  const wrapped = jsonRowsSql(sql, names);
  if (wrapped !== null) {
    try {
      const rows = rowsOfJson((await all(wrapped, params))[0]?.rows, names);
      if (rows) return rows;
    } catch {
      // A value JSON would not hold exactly: read below, row by row, as `all` reads it.
    }
  }
  return all(sql, params);
}

/** An SQLite identifier as SQL writes it, quoted. */
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Column `c` where JSON holds its value exactly, else a blob, which json_array refuses. */
const exact = (c: string): string =>
  `CASE WHEN typeof(${c}) IN ('text', 'null') OR (typeof(${c}) = 'integer' AND ${c} BETWEEN ${-Number.MAX_SAFE_INTEGER} AND ${Number.MAX_SAFE_INTEGER}) THEN ${c} ELSE x'' END`;

/**
 * The one-row query that answers the rows of `sql` (whose columns are `names`) as a JSON array
 * of arrays; null where `names` repeats one (the subquery could not name it).
 */
export function jsonRowsSql(sql: string, names: readonly string[]): string | null {
  if (new Set(names).size !== names.length) return null;
  return `SELECT json_group_array(json_array(${names.map((n) => exact(quoted(n))).join(', ')})) AS rows FROM (${sql})`;
}

/** `text` (jsonRowsSql's answer) as the rows `all` would answer; null where it is not such an answer. */
export function rowsOfJson(text: SqlValue | undefined, names: readonly string[]): Row[] | null {
  if (typeof text !== 'string') return null;
  const arrays: unknown = JSON.parse(text);
  if (!Array.isArray(arrays)) return null;
  const rows: Row[] = [];
  for (const values of arrays) {
    if (!Array.isArray(values) || values.length !== names.length) return null;
    const row: Row = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i] as SqlValue;
    rows.push(row);
  }
  return rows;
}
