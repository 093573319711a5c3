// The run history file: an SQLite database (sql.js, SQLite compiled to WASM: no native build,
// no download at install, bundles into the Action). The whole file is read into memory, changed
// in one transaction and written back atomically (a temporary file renamed over the old one), so
// a run killed while writing leaves the previous file whole. Runs on one file are serialised by
// the caller's lock.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { InputError } from '../core/problem.js';
import { HISTORY_SCHEMA_VERSION, SQLITE_MIGRATIONS } from './migrations.js';
import type { HistoryDatabase, Row, SqlValue } from './types.js';

export type { HistoryDatabase, Row, SqlValue } from './types.js';

export { HISTORY_SCHEMA_VERSION } from './migrations.js';

let sqlJs: Promise<SqlJsStatic> | undefined;
// Loaded when a history is opened: the WASM is no cost to the runs without one.
const engine = () => (sqlJs ??= import('sql.js/dist/sql-wasm-inline.js').then((m) => m.default()));

class SqlJsHistory implements HistoryDatabase {
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

const expectedSchemas = new Map<number, SchemaObject[]>();

/** The schema objects of a fresh history at `version` (made by the migrations themselves). */
async function expectedAt(SQL: SqlJsStatic, version: number, shown: string): Promise<SchemaObject[]> {
  let objects = expectedSchemas.get(version);
  if (!objects) {
    const fresh = new SQL.Database();
    try {
      await migrate(new SqlJsHistory('', shown, fresh), fresh, version);
      objects = schemaOf(fresh);
      expectedSchemas.set(version, objects);
    } finally {
      fresh.close();
    }
  }
  return objects;
}

/**
 * A history holds exactly steward's schema objects of its version: a trigger, view or virtual
 * table planted in the file would run (or be read) on every later recording, or during a
 * migration, so anything else is refused, before and after migrating.
 */
async function checkSchema(SQL: SqlJsStatic, db: Database, shown: string, version: number): Promise<void> {
  const expected = new Map((await expectedAt(SQL, version, shown)).map((o) => [`${o.type} ${o.name}`, o.sql]));
  for (const o of schemaOf(db)) {
    const sql = expected.get(`${o.type} ${o.name}`);
    if (sql === undefined) throw notAHistory(shown, `it holds a ${o.type} "${o.name}" that is not steward's (a history holds only steward's tables and indexes)`);
    if (sql !== o.sql) throw notAHistory(shown, `steward's ${o.type} "${o.name}" was changed`);
    expected.delete(`${o.type} ${o.name}`);
  }
  const [missing] = expected.keys();
  if (missing !== undefined) throw notAHistory(shown, `steward's ${missing} is missing`);
}

const versionOf = (db: Database): number => Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);

/** Brings `db` up to `target` one step at a time, each in its own transaction. */
async function migrate(history: HistoryDatabase, db: Database, target = HISTORY_SCHEMA_VERSION): Promise<void> {
  for (let v = versionOf(db); v < target; v++) {
    const step = SQLITE_MIGRATIONS[v]!;
    await history.write(async () => {
      db.exec(step.sql);
      await step.convert?.(history);
      if (step.after) db.exec(step.after);
      db.run(`PRAGMA user_version = ${v + 1}`);
    });
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
  if (exists && statSync(file).isDirectory()) throw new InputError([{ file: shown, line: 0, column: 0, message: 'is a directory, not a history file' }]);
  const db = exists ? new SQL.Database(readFileSync(file)) : new SQL.Database();
  const history = new SqlJsHistory(file, shown, db);
  try {
    if (exists) {
      const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
      if (check !== 'ok') throw notAHistory(shown, `integrity check failed: ${String(check)}`);
    }
    const version = versionOf(db);
    if (version > HISTORY_SCHEMA_VERSION) throw notAHistory(shown, `schema version ${version} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`);
    if (version === 0 && db.exec("SELECT name FROM sqlite_master WHERE type = 'table'").length > 0) throw notAHistory(shown, 'the database has tables but no steward schema version');
    await checkSchema(SQL, db, shown, version);
    await migrate(history, db);
    await checkSchema(SQL, db, shown, HISTORY_SCHEMA_VERSION);
  } catch (e) {
    db.close();
    if (e instanceof InputError) throw e;
    throw notAHistory(shown, (e as Error).message);
  }
  return history;
}
