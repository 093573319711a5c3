// The history's two SQLite drivers (src/history/sqlite-drivers.ts): which one a Node gets, rows
// read as the driver holds them, what reaches the file and when, one file written by each in
// turn, the temporary copies a killed sql.js writer left, and a hot journal sql.js refuses.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHistory, openRunHistory, recordReport } from '../../src/history/index.js';
import { hasHotJournal, nodeSqliteQuiet, SQLITE_DRIVERS, type SqliteDriver, sqliteDriver } from '../../src/history/sqlite-drivers.js';
import { tempDir } from '../cli/helpers.js';
import { DRIVER_NAMES } from './drivers.js';
import { problemOf, runsOf } from './helpers.js';
import { sampleReport } from './sample-report.js';

describe('the two SQLite drivers', () => {
  it('Node 24.15 and later, and 26 on, open histories with node:sqlite; every other Node with sql.js', () => {
    const versions = ['20.20.2', '22.22.0', '24.0.0', '24.14.1', '24.15.0', '24.21.0', '25.9.0', '26.0.0', '27.1.0'];
    expect(versions.filter(nodeSqliteQuiet)).toEqual(['24.15.0', '24.21.0', '26.0.0', '27.1.0']);
  });

  it.runIf(sqliteDriver().name === 'node:sqlite')('on this Node node:sqlite loads and opens a database without a word on stderr', () => {
    const r = spawnSync(process.execPath, ['-e', "new (require('node:sqlite').DatabaseSync)(':memory:').exec('SELECT 1')"], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it.each(DRIVER_NAMES)("%s: the integrity check answers 'ok' for a sound file, and leaves no part of it mapped", async (name) => {
    const file = path.join(tempDir(), 'h.sqlite');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(30), 'hash');
    await h.close();
    const db = await SQLITE_DRIVERS[name as SqliteDriver['name']].open(file, 'h.sqlite', true);
    try {
      expect(await db.quickCheck()).toBe('ok');
      // The mapping is for the check alone (QUICK_CHECK_MMAP_BYTES): a read after it meets an I/O error as an error, not a signal.
      expect(await db.all('PRAGMA mmap_size')).toEqual([{ mmap_size: 0 }]);
    } finally {
      await db.close();
    }
  });

  it.each(DRIVER_NAMES)('%s: a row read holds exactly its columns, by name, each of its type', async (name) => {
    const db = await SQLITE_DRIVERS[name as SqliteDriver['name']].memory('m.sqlite');
    try {
      const rows = await db.all("SELECT 1 AS one, 'two' AS two, NULL AS none, x'0304' AS bytes UNION ALL SELECT 5, 'six', NULL, x'07'");
      expect(rows.map((r) => Object.keys(r))).toEqual([
        ['one', 'two', 'none', 'bytes'],
        ['one', 'two', 'none', 'bytes'],
      ]);
      expect(rows.map((r) => [r.one, r.two, r.none, [...(r.bytes as Uint8Array)]])).toEqual([
        [1, 'two', null, [3, 4]],
        [5, 'six', null, [7]],
      ]);
    } finally {
      await db.close();
    }
  });

  it.each(DRIVER_NAMES)('%s: a history opened and not saved leaves no file; a new one is private to its user', async (name) => {
    const driver = SQLITE_DRIVERS[name as SqliteDriver['name']];
    const file = path.join(tempDir(), 'h.sqlite');
    const dropped = await openHistory(file, 'h.sqlite', { create: true, driver });
    // Its schema was written when it opened (the migrations), and one more write here: none is saved.
    await dropped.write(() => dropped.run('DELETE FROM runs'));
    await dropped.close();
    expect(existsSync(file)).toBe(false);
    const kept = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(kept, sampleReport(1), 'hash');
    await kept.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each(DRIVER_NAMES)('%s: a failed write leaves nothing; writes reach the file at save, not before; what is not saved never does', async (name) => {
    const driver = SQLITE_DRIVERS[name as SqliteDriver['name']];
    const file = path.join(tempDir(), 'h.sqlite');
    const text = (fingerprint: string, message = 'm') =>
      `INSERT INTO texts (fingerprint, policy, resource_kind, resource_id, severity, message) VALUES ('${fingerprint}', 'p', 'dataset', 'ds', 'low', '${message}')`;
    const inFile = async () => {
      const reader = await openHistory(file, 'h.sqlite', { create: false, driver });
      try {
        return (await reader.all('SELECT fingerprint FROM texts ORDER BY id')).map((r) => r.fingerprint);
      } finally {
        await reader.close();
      }
    };
    const db = await openHistory(file, 'h.sqlite', { create: true, driver });
    await db.save();
    await expect(
      db.write(async () => {
        await db.run(text('failed'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // 1.5 MiB in one text: sql.js writes the file in 1 MiB pieces.
    await db.write(() => db.run(text('big', 'x'.repeat(1.5 * 2 ** 20))));
    await db.write(() => db.run(text('second')));
    expect((await db.all('SELECT fingerprint FROM texts ORDER BY id')).map((r) => r.fingerprint)).toEqual(['big', 'second']);
    expect(await inFile()).toEqual([]);
    await db.save();
    await db.save();
    expect(await inFile()).toEqual(['big', 'second']);
    // A span naming no text: no foreign key is enforced under either driver (SQLite's default).
    await db.write(() => db.run("INSERT INTO spans (instance, text_id, status, lifecycle, first_seen, first_run, last_run) VALUES ('i', 999, 'violation', 'new', 't', 1, 1)"));
    await db.write(() => db.run(text('unsaved')));
    await db.close();
    expect(await inFile()).toEqual(['big', 'second']);
  });

  it.runIf(sqliteDriver().name === 'node:sqlite')('one file, written by each in turn, reads the same under both', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    for (const [i, name] of (['node:sqlite', 'sql.js', 'node:sqlite'] as const).entries()) {
      const db = await openHistory(file, 'h.sqlite', { create: true, driver: SQLITE_DRIVERS[name] });
      await recordReport({ db, shown: 'h.sqlite', locks: null, close: () => db.close() }, sampleReport(i + 1, undefined, `2026-11-0${i + 1}T00:00:00.000Z`), 'hash');
      await db.close();
    }
    const expected = [
      [1, 1],
      [2, 2],
      [3, 3],
    ];
    expect(await runsOf(file, SQLITE_DRIVERS['sql.js'])).toEqual(expected);
    expect(await runsOf(file, SQLITE_DRIVERS['node:sqlite'])).toEqual(expected);
  });

  it("a run's open removes the temporary copies a killed sql.js writer left beside its history, and nothing else", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'h.sqlite');
    const leftovers = ['.h.sqlite.4242.tmp', '.h.sqlite.17.tmp'];
    const others = ['.h.sqlite.4242.partial', '.other.sqlite.4242.tmp', 'h.sqlite.4242.tmp'];
    for (const name of [...leftovers, ...others]) writeFileSync(path.join(dir, name), 'x');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(1), 'hash');
    await h.close();
    expect(readdirSync(dir).sort()).toEqual(['h.sqlite', ...others].sort());
    // A read takes no lock, so it removes nothing: a writer's copy may be live.
    writeFileSync(path.join(dir, leftovers[0]!), 'x');
    expect(await runsOf(file)).toEqual([[1, 1]]);
    expect(existsSync(path.join(dir, leftovers[0]!))).toBe(true);
  });

  it('sql.js refuses a file beside a hot journal, and leaves both as they were', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(1), 'hash');
    await h.close();
    const journal = Buffer.concat([Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]), Buffer.alloc(504)]);
    writeFileSync(`${file}-journal`, journal);
    const before = readFileSync(file);
    expect(await problemOf(() => openHistory(file, 'h.sqlite', { create: true, driver: SQLITE_DRIVERS['sql.js'] }))).toMatch(
      /^h\.sqlite: h\.sqlite-journal beside it holds a save that did not finish/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readFileSync(`${file}-journal`).equals(journal)).toBe(true);
    // A journal whose header is still zero (a run killed before it committed) is none, and so is
    // one shorter than the header (a run killed as it began one).
    writeFileSync(`${file}-journal`, Buffer.alloc(512));
    expect(await runsOf(file, SQLITE_DRIVERS['sql.js'])).toEqual([[1, 1]]);
    writeFileSync(`${file}-journal`, journal.subarray(0, 7));
    expect(hasHotJournal(file)).toBe(false);
    expect(await runsOf(file, SQLITE_DRIVERS['sql.js'])).toEqual([[1, 1]]);
  });
});
