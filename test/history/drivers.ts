// The SQLite drivers a test can open histories with on this Node: sql.js everywhere, node:sqlite
// where this Node opens histories with it (Node 20 has none; Node 22 warns).
import { SQLITE_DRIVERS, type SqliteDriver, sqliteDriver } from '../../src/history/sqlite-drivers.js';

export const DRIVER_NAMES = (Object.keys(SQLITE_DRIVERS) as SqliteDriver['name'][]).filter((name) => name === 'sql.js' || sqliteDriver().name === 'node:sqlite');
