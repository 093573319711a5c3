// The history's database as its stores see it (an SQLite file, database.ts; PostgreSQL, postgres.ts).

/** A value SQLite hands back or takes (sql.js's SqlValue, kept out of the published types). */
export type SqlValue = number | string | Uint8Array | null;
export type Row = Record<string, SqlValue>;

/**
 * An open history, an SQLite file or a PostgreSQL database (postgres.ts): query it, change it in
 * `write`, then `save` it. Statements use `?` placeholders; the PostgreSQL side numbers them.
 */
export interface HistoryDatabase {
  /** The file (SQLite), or the label a database is named by (never its URL). */
  readonly file: string;
  /** How the history is named in messages. */
  readonly shown: string;
  all(sql: string, params?: SqlValue[]): Promise<Row[]>;
  /**
   * The rows `all` answers for a read of many (a run's open spans), in no order that callers may
   * rely on: an SQLite file hands them over as one JSON text (sqlite-drivers.ts).
   */
  bulk(sql: string, params?: SqlValue[]): Promise<Row[]>;
  run(sql: string, params?: SqlValue[]): Promise<void>;
  /**
   * Runs `fn` in one transaction: all of it lands or none. `lock` (PostgreSQL) serialises the
   * writers that name the same key across processes, so each computes what changed since the
   * last one committed; an SQLite file is serialised by its file lock.
   */
  write<T>(fn: () => Promise<T>, lock?: string): Promise<T>;
  /** Makes the writes durable: the SQLite file is rewritten atomically (a crash leaves the old file or the new one). */
  save(): Promise<void>;
  close(): Promise<void>;
}
