// The two ways an SQLite history file is opened. On a Node whose `node:sqlite` is no longer
// experimental, the file itself: a run changes only the pages it touches, under SQLite's own
// journal. Elsewhere (Node 20 has no `node:sqlite`), sql.js: the file read whole into memory and
// written back whole, atomically. Both hold every change of a run until `save()`: what is not
// saved (a run that fails, a command that only reads) never reaches the file.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { InputError } from '../core/problem.js';
import { isLeftoverOf, writeWholeSync } from '../io/write-whole.js';
import type { HistoryDatabase, Row, SqlValue } from './types.js';
import { bulkRows } from './json-rows.js';
import { beforeWasmCompiles } from './wasm-tier.js';

/** An open SQLite history as database.ts checks and migrates it. */
export interface SqliteHistory extends HistoryDatabase {
  /** Runs `sql`, one statement or several, with no parameters (the migrations). */
  exec(sql: string): Promise<void>;
  /** SQLite's `PRAGMA quick_check` of the whole file: 'ok', or the first problem it found. */
  quickCheck(): Promise<string>;
}

/** What `PRAGMA quick_check` answers: its one row's one column, 'ok' for a sound file. */
const quickCheckOf = (rows: Row[]): string => String(rows[0]?.quick_check);

export interface SqliteDriver {
  readonly name: 'node:sqlite' | 'sql.js';
  /** The history at `file`; `exists` says whether it is there (a new one is kept only if a run saves into it). */
  open(file: string, shown: string, exists: boolean): Promise<SqliteHistory>;
  /** An empty database that is never saved (the schema a fresh history gets). */
  memory(shown: string): Promise<SqliteHistory>;
}

/**
 * Where `node:sqlite` loads without a warning: from 24.15.0, which marked it a release candidate
 * (nodejs/node#61262, "remove the experimental warning"), and every major from 26 on. Before, each
 * run with a history would print `ExperimentalWarning: SQLite is an experimental feature` on
 * stderr. Node 22 prints it still; Node 25 reached its end of life, and keeps sql.js with 20 and 22.
 */
export const NODE_SQLITE_FROM = { release: { major: 24, minor: 15 }, everyMajorFrom: 26 } as const;

/** Whether the Node of `version` (`process.versions.node`) opens histories with `node:sqlite`. */
export function nodeSqliteQuiet(version: string): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  const { release, everyMajorFrom } = NODE_SQLITE_FROM;
  return major >= everyMajorFrom || (major === release.major && minor >= release.minor);
}

/** The driver this process opens SQLite histories with. */
export const sqliteDriver = (): SqliteDriver => SQLITE_DRIVERS[nodeSqliteQuiet(process.versions.node) ? 'node:sqlite' : 'sql.js'];

// --- sql.js --------------------------------------------------------------------------------

let sqlJsEngine: Promise<SqlJsStatic> | undefined;
// Loaded when a history is opened: the WASM is no cost to the runs without one. Compiled as the
// process chose (wasm-tier.ts).
// Stryker disable next-line StringLiteral: esbuild resolves every import literal (the tests' recorder bundles this file), an emptied one too
const sqlJsStatic = () => (sqlJsEngine ??= beforeWasmCompiles().then(async () => (await import('sql.js/dist/sql-wasm-inline.js')).default()));

/**
 * The temporary copies a killed sql.js writer left beside `file` removed (a history another Node
 * wrote with sql.js may have one, whichever driver opens it now). Only under the caller's lock:
 * then none of them is live.
 */
export function removeLeftovers(file: string): void {
  const dir = path.dirname(file);
  // Stryker disable next-line ConditionalExpression: a run's folder exists (its lock file is in it); only a bare open of a file in no folder reaches this
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (isLeftoverOf(file, name)) unlinkSync(path.join(dir, name));
  }
}

class SqlJsHistory implements SqliteHistory {
  constructor(
    readonly file: string,
    readonly shown: string,
    private readonly db: Database,
  ) {}

  async all(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      // The column names read once: sql.js's getAsObject reads them again for every row.
      const names = stmt.getColumnNames();
      const rows: Row[] = [];
      while (stmt.step()) {
        const values = stmt.get();
        const row: Row = {};
        for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i] as SqlValue;
        rows.push(row);
      }
      return rows;
    } finally {
      stmt.free();
    }
  }

  async bulk(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    const stmt = this.db.prepare(sql);
    let names: string[];
    try {
      names = stmt.getColumnNames();
    } finally {
      stmt.free();
    }
    return bulkRows((q, p) => this.all(q, p), sql, params, names);
  }

  async run(sql: string, params: SqlValue[] = []): Promise<void> {
    this.db.run(sql, params);
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  /** The file is in memory already: the check reads the copy. */
  async quickCheck(): Promise<string> {
    return quickCheckOf(await this.all('PRAGMA quick_check'));
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

  /** The whole database written to a temporary file beside the history, synced, renamed over it. */
  async save(): Promise<void> {
    writeWholeSync(this.file, this.db.export(), { mode: 0o600 });
  }

  // Stryker disable next-line BlockStatement: sql.js's memory freed; nothing of the file depends on it
  async close(): Promise<void> {
    this.db.close();
  }
}

/**
 * The first bytes of a rollback journal SQLite has synced to commit from (sqlite.org/fileformat.html,
 * "The Rollback Journal"): until then they are zeros and the journal is no "hot" journal.
 */
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/**
 * Whether `file` has a hot journal beside it: a run of `node:sqlite` killed while it committed
 * left the file half-written, and only the journal puts it back. SQLite does that at its next
 * open; sql.js reads the file alone, so it would read, and save, a torn history.
 */
export function hasHotJournal(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(`${file}-journal`, 'r');
  } catch {
    return false;
  }
  try {
    // Its header only (a journal holds a copy of every page a run changed); a shorter file leaves
    // zeros, which the magic's last byte is not.
    const head = Buffer.alloc(JOURNAL_MAGIC.length);
    readSync(fd, head, 0, head.length, 0);
    return head.equals(JOURNAL_MAGIC);
  } finally {
    closeSync(fd);
  }
}

const sqlJs: SqliteDriver = {
  name: 'sql.js',
  async open(file, shown, exists) {
    if (exists && hasHotJournal(file)) {
      const why = `${path.basename(file)}-journal beside it holds a save that did not finish (a run killed while it committed on a Node that opens histories with node:sqlite); open the history once with that Node, or the sqlite3 shell, to roll it back`;
      throw new InputError([{ file: shown, line: 0, column: 0, message: why }]);
    }
    const SQL = await sqlJsStatic();
    return new SqlJsHistory(file, shown, exists ? new SQL.Database(readFileSync(file)) : new SQL.Database());
  },
  async memory(shown) {
    // Stryker disable next-line StringLiteral: a database never saved names no file
    return new SqlJsHistory('', shown, new (await sqlJsStatic()).Database());
  },
};

// --- node:sqlite ---------------------------------------------------------------------------

/** The part of `node:sqlite` used here (@types/node of Node 20 has none). */
interface NodeSqliteModule {
  DatabaseSync: new (location: string, options: { enableForeignKeyConstraints: boolean; timeout: number }) => NodeSqliteDatabase;
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
}
interface NodeSqliteStatement {
  all(...params: SqlValue[]): Row[];
  columns(): { name: string }[];
  run(...params: SqlValue[]): unknown;
}

/**
 * How long a write waits for a reader of the same file (`steward history` while a run saves)
 * before SQLite answers "database is locked": runs on one file are serialised by steward's lock,
 * so only a reader can be in the way, and it holds the file for one query at a time.
 */
export const NODE_SQLITE_BUSY_MS = 5000;

/**
 * How much of the file the integrity check at open maps into memory (`PRAGMA mmap_size`), and
 * only for the check: it reads every page once, and mapped pages are read without a copy into
 * SQLite's cache. Measured on Node 24 (BENCHMARKS.md §10, 2026-12-04): 0.55 → 0.43 ms on a
 * history of 340 KB, 1.99 → 1.21 ms on one of 1.4 MB. Off again after it: for a whole run it
 * saved nothing (a `check --history` of 10,000 findings, 810 against 815 ms of CPU), and a
 * mapped file meets an I/O error as a signal, not as an error SQLite reports. 256 MiB: beyond
 * any history a year of runs writes (1.4 MiB at 1,000 findings a run).
 */
export const QUICK_CHECK_MMAP_BYTES = 256 * 2 ** 20;

/** The name of the savepoint each `write` is inside the run's one transaction. */
const WRITE_SAVEPOINT = 'steward_write';

class NodeSqliteHistory implements SqliteHistory {
  /** Whether the run's transaction is open: from the first `write` to `save` (or `close`, which drops it). */
  private pending = false;
  private saved = false;
  private readonly statements = new Map<string, NodeSqliteStatement>();

  constructor(
    readonly file: string,
    readonly shown: string,
    private readonly db: NodeSqliteDatabase,
    /** A file this open made: removed again when nothing was saved into it, as sql.js never writes it. */
    private readonly created: boolean,
  ) {}

  async all(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    return this.statement(sql).all(...params);
  }

  async bulk(sql: string, params: SqlValue[] = []): Promise<Row[]> {
    return bulkRows((q, p) => this.all(q, p), sql, params, this.statement(sql).columns().map((c) => c.name));
  }

  async run(sql: string, params: SqlValue[] = []): Promise<void> {
    this.statement(sql).run(...params);
  }

  /** Each statement is prepared once: a recording runs the same few thousands of times. */
  private statement(sql: string): NodeSqliteStatement {
    let prepared = this.statements.get(sql);
    // Stryker disable next-line ConditionalExpression: preparing again each time is slower, not different
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  /** The file mapped while the check reads it (QUICK_CHECK_MMAP_BYTES), unmapped after. */
  async quickCheck(): Promise<string> {
    this.db.exec(`PRAGMA mmap_size = ${QUICK_CHECK_MMAP_BYTES}`);
    try {
      return quickCheckOf(this.statement('PRAGMA quick_check').all());
    } finally {
      this.db.exec('PRAGMA mmap_size = 0');
    }
  }

  /**
   * `fn` inside the run's one transaction (begun at the first write, holding the file's write
   * lock), as a savepoint: all of it or none, and none of it in the file before `save`.
   */
  async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      if (!this.pending) {
        this.db.exec('BEGIN IMMEDIATE');
        this.pending = true;
      }
      this.db.exec(`SAVEPOINT ${WRITE_SAVEPOINT}`);
    } catch (e) {
      throw writeFailure(e, this.shown);
    }
    // A savepoint left open is ended by the COMMIT with the rest, so each RELEASE only keeps them balanced.
    try {
      const out = await fn();
      // Stryker disable next-line StringLiteral: balance only (above)
      this.db.exec(`RELEASE ${WRITE_SAVEPOINT}`);
      return out;
    } catch (e) {
      this.db.exec(`ROLLBACK TO ${WRITE_SAVEPOINT}`);
      // Stryker disable next-line StringLiteral: balance only (above)
      this.db.exec(`RELEASE ${WRITE_SAVEPOINT}`);
      throw writeFailure(e, this.shown);
    }
  }

  /** Commits the run's transaction: SQLite's journal makes it whole or absent after a crash. */
  async save(): Promise<void> {
    if (this.pending) {
      try {
        this.db.exec('COMMIT');
      } catch (e) {
        throw writeFailure(e, this.shown);
      }
      this.pending = false;
    }
    this.saved = true;
  }

  /** Closing rolls back what was not saved (SQLite's close ends an open transaction so). */
  async close(): Promise<void> {
    this.db.close();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the file this open made is there to remove (the caller's lock keeps others out)
    if (this.created && !this.saved) rmSync(this.file, { force: true });
  }
}

/** SQLite's primary result codes for a file it could not write (sqlite.org/rescode.html): an I/O error, a full disk. */
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;

/** node:sqlite's failure to write the file (a full disk, a file-size limit), said as the history's; any other error as it is. */
function writeFailure(error: unknown, shown: string): unknown {
  const e = error as { code?: unknown; errcode?: unknown; errstr?: unknown };
  if (e?.code !== 'ERR_SQLITE_ERROR' || typeof e.errcode !== 'number') return error;
  if (![SQLITE_IOERR, SQLITE_FULL].includes(e.errcode & 0xff)) return error;
  return new Error(`could not write ${shown} (${String(e.errstr)}): the run was not recorded, the history is as it was`, { cause: error });
}

const connect = (location: string): NodeSqliteDatabase => {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as NodeSqliteModule;
  // Foreign keys as SQLite and sql.js have them by default (not enforced), so a history behaves
  // the same under either driver.
  return new DatabaseSync(location, { enableForeignKeyConstraints: false, timeout: NODE_SQLITE_BUSY_MS });
};

const nodeSqlite: SqliteDriver = {
  name: 'node:sqlite',
  async open(file, shown, exists) {
    // Made private first (SQLite gives its journal the file's mode): a history is the user's alone.
    // Stryker disable next-line StringLiteral: no file is there to refuse (the caller looked, under its lock)
    if (!exists) writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
    return new NodeSqliteHistory(file, shown, connect(file), !exists);
  },
  async memory(shown) {
    // Stryker disable next-line StringLiteral,BooleanLiteral: a database never saved names no file, and made none to remove
    return new NodeSqliteHistory('', shown, connect(':memory:'), false);
  },
};

/** Both drivers by name (a test opens one file with each). */
export const SQLITE_DRIVERS: Readonly<Record<SqliteDriver['name'], SqliteDriver>> = { 'node:sqlite': nodeSqlite, 'sql.js': sqlJs };
