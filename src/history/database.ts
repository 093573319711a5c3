// The run history file: an SQLite database, opened by the driver of the Node that runs
// (sqlite-drivers.ts: `node:sqlite` on the file, or sql.js on a copy in memory). Whichever it is,
// the file is checked before anything is written (integrity, schema version, exactly steward's
// schema objects), migrated forward, and changed only by a run's `save()`, so a run killed while
// writing leaves the previous file whole. Runs on one file are serialised by the caller's lock.
import { existsSync, statSync } from 'node:fs';
import { canonicalJson } from '../core/canonical-json.js';
import { sha256 } from '../core/digest.js';
import { InputError } from '../core/problem.js';
import { HISTORY_SCHEMA_VERSION, SQLITE_MIGRATIONS } from './migrations.js';
import { removeLeftovers, type SqliteDriver, type SqliteHistory, sqliteDriver } from './sqlite-drivers.js';
import type { HistoryDatabase } from './types.js';

export type { HistoryDatabase, Row, SqlValue } from './types.js';

export { HISTORY_SCHEMA_VERSION } from './migrations.js';

export function notAHistory(shown: string, why: string): InputError {
  return new InputError([{ file: shown, line: 0, column: 0, message: `not a steward run history: ${why}` }]);
}

type SchemaObject = { type: string; name: string; sql: string };

const schemaOf = async (db: SqliteHistory): Promise<SchemaObject[]> =>
  (await db.all("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")).map(({ type, name, sql }) => ({
    type: String(type),
    name: String(name),
    sql: String(sql),
  }));

/**
 * The digest of the schema objects a fresh history at HISTORY_SCHEMA_VERSION holds (schemaDigest
 * of what `expectedAt` makes by running every migration in memory, ~15 ms of each recording on
 * Node 20). A file whose objects hash to it holds exactly them; any other (an older version, a
 * changed or planted object) is compared object by object, which names what differs. A stale
 * value only costs that time: test/history/database.test.ts keeps it current.
 */
export const CURRENT_SCHEMA_DIGEST = '0ae2caa5a78c7aae1b856f7223ac8201ac655ce85f6850852b9990abed45ccee';

/** One digest of a history's schema objects, as schemaOf lists them. */
export const schemaDigest = (objects: readonly SchemaObject[]): string => sha256(canonicalJson(objects));

/** The schema objects of a fresh history at `version`, made by the migrations themselves (none at 0). */
export async function expectedAt(driver: SqliteDriver, version: number, shown: string): Promise<SchemaObject[]> {
  if (version === 0) return [];
  const fresh = await driver.memory(shown);
  try {
    await migrate(fresh, 0, version);
    return await schemaOf(fresh);
  } finally {
    await fresh.close();
  }
}

/**
 * A history holds exactly steward's schema objects of its version: a trigger, view or virtual
 * table planted in the file would run (or be read) on every later recording, or during a
 * migration, so anything else is refused, before and after migrating.
 */
async function checkSchema(driver: SqliteDriver, db: SqliteHistory, shown: string, version: number): Promise<void> {
  const objects = await schemaOf(db);
  if (version === HISTORY_SCHEMA_VERSION && schemaDigest(objects) === CURRENT_SCHEMA_DIGEST) return;
  const expected = new Map((await expectedAt(driver, version, shown)).map((o) => [`${o.type} ${o.name}`, o.sql]));
  for (const o of objects) {
    const sql = expected.get(`${o.type} ${o.name}`);
    if (sql === undefined) throw notAHistory(shown, `it holds ${o.type === 'index' ? 'an' : 'a'} ${o.type} "${o.name}" that is not steward's (a history holds only steward's tables and indexes)`);
    if (sql !== o.sql) throw notAHistory(shown, `steward's ${o.type} "${o.name}" was changed`);
    expected.delete(`${o.type} ${o.name}`);
  }
  const [missing] = expected.keys();
  if (missing !== undefined) throw notAHistory(shown, `steward's ${missing} is missing`);
}

// Stryker disable next-line OptionalChaining: SQLite answers the pragma with one row, always
const versionOf = async (db: SqliteHistory): Promise<number> => Number((await db.all('PRAGMA user_version'))[0]?.user_version ?? 0);

/** Brings `db` from `from` up to `target` one step at a time, each in its own transaction. */
async function migrate(db: SqliteHistory, from: number, target = HISTORY_SCHEMA_VERSION): Promise<void> {
  for (let v = from; v < target; v++) {
    const step = SQLITE_MIGRATIONS[v]!;
    await db.write(async () => {
      await db.exec(step.sql);
      await step.convert?.(db);
      if (step.after) await db.exec(step.after);
      await db.run(`PRAGMA user_version = ${v + 1}`);
    });
  }
}

/**
 * Opens (or, when it does not exist and `create` is set, starts) the history at `file`. A file
 * that is not an SQLite database of this schema is bad input (exit 2), never overwritten.
 * `driver` is the Node's (sqlite-drivers.ts) unless a caller names one (tests of both).
 */
export async function openHistory(file: string, shown: string, options: { create: boolean; driver?: SqliteDriver }): Promise<HistoryDatabase> {
  const driver = options.driver ?? sqliteDriver();
  if (options.create) removeLeftovers(file);
  const exists = existsSync(file);
  if (!exists && !options.create) throw new InputError([{ file: shown, line: 0, column: 0, message: 'history file not found' }]);
  if (exists && statSync(file).isDirectory()) throw new InputError([{ file: shown, line: 0, column: 0, message: 'is a directory, not a history file' }]);
  let db: SqliteHistory | undefined;
  try {
    db = await driver.open(file, shown, exists);
    // Stryker disable next-line ConditionalExpression: a database just made checks as ok; this spares the check
    if (exists) {
      const check = await db.quickCheck();
      if (check !== 'ok') throw notAHistory(shown, `integrity check failed: ${check}`);
    }
    const version = await versionOf(db);
    if (version > HISTORY_SCHEMA_VERSION) throw notAHistory(shown, `schema version ${version} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`);
    if (version === 0 && (await db.all("SELECT name FROM sqlite_master WHERE type = 'table'")).length > 0) throw notAHistory(shown, 'the database has tables but no steward schema version');
    await checkSchema(driver, db, shown, version);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a current file has no step to take and checks by its digest again: time only
    if (version < HISTORY_SCHEMA_VERSION) {
      await migrate(db, version);
      await checkSchema(driver, db, shown, HISTORY_SCHEMA_VERSION);
    }
  } catch (e) {
    await db?.close();
    if (e instanceof InputError) throw e;
    throw notAHistory(shown, (e as Error).message);
  }
  return db;
}
