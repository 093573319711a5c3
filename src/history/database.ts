// The run history file: an SQLite database (sql.js, SQLite compiled to WASM: no native build,
// no download at install, bundles into the Action). The whole file is read into memory, changed
// in one transaction and written back atomically (a temporary file renamed over the old one), so
// a run killed while writing leaves the previous file whole. Runs on one file are serialised by
// the caller's lock.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import initSqlJs from 'sql.js/dist/sql-wasm-inline.js';
import { InputError } from '../core/problem.js';

/** The schema this steward writes; each entry of MIGRATIONS brings a file one version up. */
export const HISTORY_SCHEMA_VERSION = 1;

const MIGRATIONS: readonly string[] = [
  // 0 → 1
  `CREATE TABLE runs (
     id INTEGER PRIMARY KEY,
     started_at TEXT NOT NULL,
     instance TEXT NOT NULL,
     tool_version TEXT NOT NULL,
     policy_hash TEXT NOT NULL,
     gate TEXT NOT NULL,
     fail_on TEXT NOT NULL,
     policies INTEGER NOT NULL,
     resources INTEGER NOT NULL,
     violations INTEGER NOT NULL,
     waived INTEGER NOT NULL,
     errors INTEGER NOT NULL,
     by_severity TEXT NOT NULL,
     new_count INTEGER NOT NULL,
     reopened_count INTEGER NOT NULL,
     fixed_count INTEGER NOT NULL,
     requests INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL
   );
   CREATE INDEX runs_instance ON runs (instance, id);
   CREATE TABLE run_policies (
     run_id INTEGER NOT NULL REFERENCES runs (id),
     policy TEXT NOT NULL,
     status TEXT NOT NULL,
     PRIMARY KEY (run_id, policy)
   );
   CREATE TABLE findings (
     run_id INTEGER NOT NULL REFERENCES runs (id),
     fingerprint TEXT NOT NULL,
     policy TEXT NOT NULL,
     resource_kind TEXT NOT NULL,
     resource_id TEXT NOT NULL,
     resource_name TEXT,
     status TEXT NOT NULL,
     severity TEXT NOT NULL,
     message TEXT NOT NULL,
     first_seen TEXT NOT NULL,
     lifecycle TEXT NOT NULL
   );
   CREATE INDEX findings_run ON findings (run_id, policy);
   CREATE INDEX findings_fingerprint ON findings (fingerprint);`,
];

let sqlJs: Promise<SqlJsStatic> | undefined;
const engine = () => (sqlJs ??= initSqlJs());

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
  /** The column that orders a table's rows as inserted. */
  readonly rowOrder: string;
  all(sql: string, params?: SqlValue[]): Promise<Row[]>;
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

class SqlJsHistory implements HistoryDatabase {
  readonly rowOrder = 'rowid';
  constructor(
    readonly file: string,
    readonly shown: string,
    private readonly db: Database,
  ) {}

  async all(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      const rows: Row[] = [];
      while (stmt.step()) rows.push(stmt.getAsObject());
      return rows;
    } finally {
      stmt.free();
    }
  }

  async run(sql: string, params: SqlValue[] = []): Promise<void> {
    this.db.run(sql, params);
  }

  async write<T>(fn: () => Promise<T>): Promise<T> {
    this.db.run('BEGIN');
    try {
      const out = await fn();
      this.db.run('COMMIT');
      return out;
    } catch (e) {
      this.db.run('ROLLBACK');
      throw e;
    }
  }

  async save(): Promise<void> {
    const bytes = this.db.export();
    const temporary = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    const fd = openSync(temporary, 'w', 0o600);
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, Math.min(1 << 20, bytes.length - at));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Temporary files a killed writer left beside `file` (the caller holds the lock, so none is live). */
function removeLeftovers(file: string): void {
  const prefix = `.${path.basename(file)}.`;
  const dir = path.dirname(file);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) unlinkSync(path.join(dir, name));
  }
}

export function notAHistory(shown: string, why: string): InputError {
  return new InputError([{ file: shown, line: 0, column: 0, message: `not a steward run history: ${why}` }]);
}

type SchemaObject = { type: string; name: string; sql: string };

const schemaOf = (db: Database): SchemaObject[] =>
  (db.exec("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")[0]?.values ?? []).map(
    ([type, name, sql]) => ({ type: String(type), name: String(name), sql: String(sql) }),
  );

let expectedSchema: SchemaObject[] | undefined;

/**
 * A history holds exactly steward's schema objects: a trigger, view or virtual table planted in
 * the file would run (or be read) on every later recording, so anything else is refused.
 */
function checkSchema(SQL: SqlJsStatic, db: Database, shown: string): void {
  if (!expectedSchema) {
    const fresh = new SQL.Database();
    try {
      migrate(fresh, shown);
      expectedSchema = schemaOf(fresh);
    } finally {
      fresh.close();
    }
  }
  const expected = new Map(expectedSchema.map((o) => [`${o.type} ${o.name}`, o.sql]));
  for (const o of schemaOf(db)) {
    const sql = expected.get(`${o.type} ${o.name}`);
    if (sql === undefined) throw notAHistory(shown, `it holds a ${o.type} "${o.name}" that is not steward's (a history holds only steward's tables and indexes)`);
    if (sql !== o.sql) throw notAHistory(shown, `steward's ${o.type} "${o.name}" was changed`);
    expected.delete(`${o.type} ${o.name}`);
  }
  const [missing] = expected.keys();
  if (missing !== undefined) throw notAHistory(shown, `steward's ${missing} is missing`);
}

function migrate(db: Database, shown: string): void {
  const version = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
  if (version > HISTORY_SCHEMA_VERSION) {
    throw notAHistory(shown, `schema version ${version} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`);
  }
  if (version === 0 && db.exec("SELECT name FROM sqlite_master WHERE type = 'table'").length > 0) {
    throw notAHistory(shown, 'the database has tables but no steward schema version');
  }
  for (let v = version; v < HISTORY_SCHEMA_VERSION; v++) {
    db.run('BEGIN');
    db.run(MIGRATIONS[v]!);
    db.run(`PRAGMA user_version = ${v + 1}`);
    db.run('COMMIT');
  }
}

/**
 * Opens (or, when it does not exist and `create` is set, starts) the history at `file`. A file
 * that is not an SQLite database of this schema is bad input (exit 2), never overwritten.
 */
export async function openHistory(file: string, shown: string, options: { create: boolean }): Promise<HistoryDatabase> {
  const SQL = await engine();
  if (options.create) removeLeftovers(file);
  const exists = existsSync(file);
  if (!exists && !options.create) throw new InputError([{ file: shown, line: 0, column: 0, message: 'history file not found' }]);
  const db = exists ? new SQL.Database(readFileSync(file)) : new SQL.Database();
  try {
    if (exists) {
      const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
      if (check !== 'ok') throw notAHistory(shown, `integrity check failed: ${String(check)}`);
    }
    migrate(db, shown);
    checkSchema(SQL, db, shown);
  } catch (e) {
    db.close();
    if (e instanceof InputError) throw e;
    throw notAHistory(shown, (e as Error).message);
  }
  return new SqlJsHistory(file, shown, db);
}
