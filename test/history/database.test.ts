// The history file: created and versioned, refused when it is not ours or newer, locked
// against a second run, and whole after a writer is killed in the middle of saving (sql.js
// rewriting the file) or before it commits (node:sqlite, its journal left hot).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA_VERSION, listRuns, openHistory, openRunHistory, recordReport } from '../../src/history/index.js';
import { CURRENT_SCHEMA_DIGEST, expectedAt, schemaDigest } from '../../src/history/database.js';
import { OPEN_RUN } from '../../src/history/spans.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { hasHotJournal, SQLITE_DRIVERS, type SqliteDriver, sqliteDriver } from '../../src/history/sqlite-drivers.js';
import { DRIVER_NAMES } from './drivers.js';
import { CLI, PLANTED, sandboxEnv, tempDir } from '../cli/helpers.js';
import { sampleReport } from './sample-report.js';
import { problemOf, runsOf } from './helpers.js';

describe('history database', () => {
  it('a new file gets the current schema version; records survive a reopen', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(3), 'hash-1');
    await h.close();
    const db = await openHistory(file, 'h.sqlite', { create: false });
    expect((await db.all('PRAGMA user_version'))[0]!.user_version).toBe(HISTORY_SCHEMA_VERSION);
    expect((await listRuns(db)).map((r) => [r.run, r.violations, r.policyHash])).toEqual([[1, 3, 'hash-1']]);
    await db.close();
  });

  it('refuses a file that is not SQLite, a foreign database, a newer schema, and a missing file for reading', async () => {
    const dir = tempDir();
    const junk = path.join(dir, 'junk.sqlite');
    writeFileSync(junk, 'this is not a database, just text that is long enough to have a header'.repeat(20));
    expect(await problemOf(() => openHistory(junk, 'junk.sqlite', { create: true }))).toMatch(/^junk\.sqlite: not a steward run history: /);
    expect(readFileSync(junk, 'utf8')).toContain('this is not a database');

    const foreign = await openHistory(path.join(dir, 'f.sqlite'), 'f.sqlite', { create: true });
    foreign.run('PRAGMA user_version = 0');
    foreign.run('DROP TABLE runs');
    foreign.save();
    await foreign.close();
    expect(await problemOf(() => openHistory(path.join(dir, 'f.sqlite'), 'f.sqlite', { create: true }))).toBe(
      'f.sqlite: not a steward run history: the database has tables but no steward schema version',
    );

    const newer = await openHistory(path.join(dir, 'n.sqlite'), 'n.sqlite', { create: true });
    newer.run(`PRAGMA user_version = ${HISTORY_SCHEMA_VERSION + 1}`);
    newer.save();
    await newer.close();
    expect(await problemOf(() => openHistory(path.join(dir, 'n.sqlite'), 'n.sqlite', { create: true }))).toBe(
      `n.sqlite: not a steward run history: schema version ${HISTORY_SCHEMA_VERSION + 1} is newer than this steward's (${HISTORY_SCHEMA_VERSION}); upgrade steward`,
    );
    expect(await problemOf(() => openHistory(path.join(dir, 'none.sqlite'), 'none.sqlite', { create: false }))).toBe('none.sqlite: history file not found');
  });

  it('a schema-2 file (as steward wrote it before spans_text) gains the index on open, its runs intact', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(3), 'hash-1');
    await h.close();
    const v2 = await openHistory(file, 'h.sqlite', { create: false });
    await v2.write(async () => {
      await v2.run('DROP INDEX spans_text');
      await v2.run('PRAGMA user_version = 2');
    });
    await v2.save();
    await v2.close();
    const again = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(again, sampleReport(4, undefined, '2026-11-02T00:00:00.000Z'), 'hash-1');
    await again.close();
    const db = await openHistory(file, 'h.sqlite', { create: false });
    expect((await db.all('PRAGMA user_version'))[0]!.user_version).toBe(HISTORY_SCHEMA_VERSION);
    expect((await db.all("SELECT sql FROM sqlite_master WHERE name = 'spans_text'")).map((r) => r.sql)).toEqual(['CREATE INDEX spans_text ON spans (text_id)']);
    expect((await listRuns(db)).map((r) => [r.run, r.violations])).toEqual([
      [1, 3],
      [2, 4],
    ]);
    await db.close();
  });

  it('a schema-3 file (every span its last run) is opened with its open spans marked open: those its policy\'s last evaluating run held', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const h = await openRunHistory(file, 'h.sqlite', 'test');
    await recordReport(h, sampleReport(2), 'hash-1');
    await recordReport(h, sampleReport(1, undefined, '2026-11-02T00:00:00.000Z', 2), 'hash-1');
    await h.close();
    // As schema 3 wrote it: ds-0's span ends at run 2, p-one's last evaluating run, ds-1's at run 1.
    // And p-two, evaluated at run 1 and in error at run 2, whose finding's span reached into run 2:
    // not open (its policy's last evaluating run is 1).
    const v3 = await openHistory(file, 'h.sqlite', { create: false });
    await v3.write(async () => {
      const [{ instance }] = (await v3.all('SELECT instance FROM runs WHERE id = 1')) as [{ instance: string }];
      await v3.run(`UPDATE spans SET last_run = 2 WHERE last_run = ${OPEN_RUN}`);
      await v3.run("INSERT INTO policy_spans (instance, policy, status, first_run, last_run) VALUES (?, 'p-two', 'fail', 1, 1), (?, 'p-two', 'error', 2, 2)", [instance, instance]);
      const [text] = await v3.all("INSERT INTO texts (fingerprint, policy, resource_kind, resource_id, resource_name, severity, message) VALUES ('fp-p-two-9', 'p-two', 'dataset', 'ds-9', NULL, 'high', 'violation 9') RETURNING id");
      await v3.run("INSERT INTO spans (instance, text_id, status, lifecycle, first_seen, first_run, last_run) VALUES (?, ?, 'violation', 'new', '2026-11-01T00:00:00.000Z', 1, 2)", [instance, text!.id!]);
      await v3.run('PRAGMA user_version = 3');
    });
    await v3.save();
    await v3.close();
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      expect((await db.all('PRAGMA user_version'))[0]!.user_version).toBe(HISTORY_SCHEMA_VERSION);
      const spans = await db.all('SELECT t.fingerprint, s.first_run, s.last_run FROM spans s JOIN texts t ON t.id = s.text_id ORDER BY t.fingerprint');
      expect(spans.map((r) => [r.fingerprint, r.first_run, r.last_run])).toEqual([
        ['fp-p-one-0', 1, OPEN_RUN],
        ['fp-p-one-1', 1, 1],
        ['fp-p-two-9', 1, 2],
      ]);
      await db.save();
    } finally {
      await db.close();
    }
    // Run 3 holds ds-0 (open: no span written) and ds-1 again (reopened, a span of its own).
    const again = await openRunHistory(file, 'h.sqlite', 'test');
    const third = await recordReport(again, sampleReport(2, undefined, '2026-11-03T00:00:00.000Z'), 'hash-1');
    await again.close();
    expect(third.findings.map((f) => [f.fingerprint, f.lifecycle])).toEqual([
      ['fp-p-one-0', 'open'],
      ['fp-p-one-1', 'reopened'],
    ]);
  });

  it.each(DRIVER_NAMES)('%s: CURRENT_SCHEMA_DIGEST is the digest of the schema every migration makes in a fresh database', async (name) => {
    const objects = await expectedAt(SQLITE_DRIVERS[name as SqliteDriver['name']], HISTORY_SCHEMA_VERSION, 'm.sqlite');
    expect(objects.map((o) => `${o.type} ${o.name}`)).toEqual([
      'index policy_spans_last', 'index runs_instance', 'index spans_last', 'index spans_text', 'index texts_fingerprint', 'table policy_spans', 'table runs', 'table spans', 'table texts',
    ]);
    expect(schemaDigest(objects)).toBe(CURRENT_SCHEMA_DIGEST);
  });

  it.each(DRIVER_NAMES)('%s: a file of the current schema opens without making the expected schema; an older or altered one is compared object by object', async (name) => {
    const driver = SQLITE_DRIVERS[name as SqliteDriver['name']];
    let made = 0;
    let closed = 0;
    const counting: SqliteDriver = {
      name: driver.name,
      open: (...a) => driver.open(...a),
      memory: async (shown) => {
        made++;
        const db = await driver.memory(shown);
        const close = db.close.bind(db);
        db.close = () => {
          closed++;
          return close();
        };
        return db;
      },
    };
    const file = path.join(tempDir(), 'h.sqlite');
    const opened = async () => {
      made = 0;
      const db = await openHistory(file, 'h.sqlite', { create: true, driver: counting });
      await db.save();
      await db.close();
      return made;
    };
    // New (nothing to compare at version 0), then current: no fresh database made.
    expect(await opened()).toBe(0);
    expect(await opened()).toBe(0);
    const altered = async (sql: string[]) => {
      const db = await openHistory(file, 'h.sqlite', { create: false, driver });
      await db.write(async () => {
        for (const statement of sql) await db.run(statement);
      });
      await db.save();
      await db.close();
    };
    // Schema 3: its schema made once, to compare before migrating; current after, by its digest.
    await altered(['DROP INDEX spans_text', 'CREATE INDEX spans_text ON spans (text_id)', 'PRAGMA user_version = 3']);
    expect(await opened()).toBe(1);
    expect(closed).toBe(1);
    expect(await opened()).toBe(0);
    // An index planted at the current version: compared, named, refused.
    await altered(['CREATE INDEX planted ON runs (gate)']);
    expect(await problemOf(opened)).toBe('h.sqlite: not a steward run history: it holds an index "planted" that is not steward\'s (a history holds only steward\'s tables and indexes)');
    expect(made).toBe(1);
    expect(closed).toBe(2);
  });

  it.each(DRIVER_NAMES)('%s: refuses a file with a damaged page, one missing an index of steward\'s, and a directory, each untouched', async (name) => {
    const driver = SQLITE_DRIVERS[name as SqliteDriver['name']];
    const dir = tempDir();
    const written = async (file: string, sql: string[] = []) => {
      const h = await openRunHistory(file, 'h.sqlite', 'test');
      await recordReport(h, sampleReport(30), 'hash');
      await h.close();
      const db = await openHistory(file, 'h.sqlite', { create: false, driver });
      for (const statement of sql) await db.run(statement);
      const [texts] = await db.all("SELECT rootpage FROM sqlite_master WHERE name = 'texts'");
      await db.save();
      await db.close();
      return Number(texts!.rootpage);
    };
    // The texts table's root page says it has 200 bytes of fragments it has not: SQLite reads the
    // page without a word (a run would record into it), the integrity check names it. Nothing an
    // open reads otherwise (the header, the schema, user_version) is on that page.
    const damaged = path.join(dir, 'damaged.sqlite');
    const page = await written(damaged);
    const bytes = readFileSync(damaged);
    const pageSize = bytes.readUInt16BE(16);
    bytes[(page - 1) * pageSize + 7] = 200;
    writeFileSync(damaged, bytes);
    expect(await problemOf(() => openHistory(damaged, 'h.sqlite', { create: true, driver }))).toBe(
      `h.sqlite: not a steward run history: integrity check failed: *** in database main ***\nFragmentation of 0 bytes reported as 200 on page ${page}`,
    );
    expect(readFileSync(damaged).equals(bytes)).toBe(true);

    const missing = path.join(dir, 'missing.sqlite');
    await written(missing, ['DROP INDEX spans_text']);
    const before = readFileSync(missing);
    expect(await problemOf(() => openHistory(missing, 'h.sqlite', { create: true, driver }))).toBe("h.sqlite: not a steward run history: steward's index spans_text is missing");
    expect(readFileSync(missing).equals(before)).toBe(true);

    expect(await problemOf(() => openHistory(dir, 'h.sqlite', { create: true, driver }))).toBe('h.sqlite: is a directory, not a history file');
  });

  it('a second run on the same file is refused while the first holds it, naming the holder', async () => {
    const file = path.join(tempDir(), 'h.sqlite');
    const first = await openRunHistory(file, 'h.sqlite', 'check --history');
    const second = await problemOf(() => openRunHistory(file, 'h.sqlite', 'check --history'));
    expect(second).toContain('h.sqlite');
    expect(second).toContain(`pid ${process.pid}`);
    await first.close();
    const third = await openRunHistory(file, 'h.sqlite', 'check --history');
    await third.close();
  });
});

describe('a run killed while saving the history', () => {
  let sandbox: Sandbox;
  const dir = tempDir('steward-kill-');
  const file = path.join(dir, 'history.sqlite');
  const message = 'x'.repeat(8000);

  beforeAll(async () => {
    sandbox = await startSandbox();
    // Two earlier runs of ~40 MB (8 KB messages), so that saving takes long enough to be interrupted.
    const h = await openRunHistory(file, 'history.sqlite', 'test');
    for (const n of [2_500, 2_501]) await recordReport(h, { ...sampleReport(n, message), instance: sandbox.baseUrl }, 'hash');
    await h.close();
  }, 120_000);
  afterAll(() => sandbox.close());

  /** The two runs recorded before the kill, whole: 2,501 texts, each present in both runs as one span. */
  async function expectEarlierRunsIntact(): Promise<void> {
    const db = await openHistory(file, 'history.sqlite', { create: false });
    expect((await listRuns(db)).map((r) => [r.run, r.violations])).toEqual([
      [1, 2_500],
      [2, 2_501],
    ]);
    expect((await db.all('SELECT COUNT(*) AS n FROM texts'))[0]!.n).toBe(2_501);
    await db.close();
  }

  /** The next `check --history` on the file: exit 1 (the demo's planted violations), its run recorded. */
  async function nextRunRecords(): Promise<void> {
    const again = spawn(process.execPath, [CLI, 'check', '--config', 'demo/steward.yaml', '--history', file, '--quiet'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', ...sandboxEnv(sandbox) },
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => again.on('exit', resolve))).toBe(1);
  }

  it.runIf(sqliteDriver().name === 'sql.js')('sql.js: leaves every earlier run intact and readable; the next run takes the dead lock over and records', async () => {
    const leftovers = () => readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    const child = spawn(process.execPath, [CLI, 'check', '--config', 'demo/steward.yaml', '--history', file, '--quiet'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', ...sandboxEnv(sandbox) },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Kill it the moment its temporary copy appears: mid-write, before the rename.
    while (leftovers().length === 0 && child.exitCode === null) await new Promise((r) => setImmediate(r));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(leftovers()).toHaveLength(1);
    expect(existsSync(path.join(dir, '.history.sqlite.lock'))).toBe(true);

    await expectEarlierRunsIntact();

    await nextRunRecords();
    expect(leftovers()).toEqual([]);
    expect(existsSync(path.join(dir, '.history.sqlite.lock'))).toBe(false);
    expect(await runsOf(file)).toEqual([
      [1, 2_500],
      [2, 2_501],
      [3, PLANTED.length],
    ]);
  }, 120_000);

  it.runIf(sqliteDriver().name === 'node:sqlite')('node:sqlite: a run killed before it commits leaves the file as it was; the next run takes the dead lock over and records', async () => {
    const journal = `${file}-journal`;
    const lock = path.join(dir, '.history.sqlite.lock');
    const before = readFileSync(file);
    // A child records run 3 through the real path and is killed where it would commit (its save).
    const env = { PATH: process.env.PATH ?? '', HISTORY: file, FINDINGS: '3', KILL_AT_SAVE: '1' };
    const child = spawnSync(process.execPath, [await recorder()], { env, encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    // Its journal stays, with the header SQLite writes only when it commits still zero: no hot
    // journal, nothing to roll back, for SQLite or for sql.js (hasHotJournal).
    expect(readFileSync(journal).subarray(0, 8).equals(Buffer.alloc(8))).toBe(true);
    expect(hasHotJournal(file)).toBe(false);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(lock)).toBe(true);

    await expectEarlierRunsIntact();

    await nextRunRecords();
    expect(existsSync(journal)).toBe(false);
    expect(existsSync(lock)).toBe(false);
    expect(await runsOf(file)).toEqual([
      [1, 2_500],
      [2, 2_501],
      [3, PLANTED.length],
    ]);
  }, 120_000);

  it.runIf(sqliteDriver().name === 'node:sqlite')('node:sqlite: a run killed while its changes reach the file leaves a hot journal; sql.js refuses the file, SQLite rolls it back', async () => {
    const file = path.join(tempDir('steward-hot-'), 'history.sqlite');
    const seed = await openRunHistory(file, 'history.sqlite', 'test');
    await recordReport(seed, sampleReport(2, undefined, '2026-11-01T00:00:00.000Z'), 'hash');
    await seed.close();
    const before = await runsOf(file);
    // 4,000 findings of 8 KiB: 32 MiB of new pages, written to the file under a synced journal.
    const env = { PATH: process.env.PATH ?? '', HISTORY: file, FINDINGS: '4000', MESSAGE_KB: '8' };
    const child = spawn(process.execPath, [await recorder()], { env, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    while (!hasHotJournal(file) && child.exitCode === null) await new Promise((r) => setImmediate(r));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(hasHotJournal(file)).toBe(true);

    const problem = await problemOf(() => openHistory(file, 'history.sqlite', { create: false, driver: SQLITE_DRIVERS['sql.js'] }));
    expect(problem).toBe(
      'history.sqlite: history.sqlite-journal beside it holds a save that did not finish (a run killed while it committed on a Node that opens histories with node:sqlite); open the history once with that Node, or the sqlite3 shell, to roll it back',
    );
    expect(await runsOf(file)).toEqual(before);
    expect(existsSync(`${file}-journal`)).toBe(false);
    expect(await runsOf(file, SQLITE_DRIVERS['sql.js'])).toEqual(before);
  }, 120_000);
});

/**
 * A script (bundled from the sources) that opens the history named by $HISTORY as a run does and
 * records a run of $FINDINGS violations ($MESSAGE_KB KiB messages); with $KILL_AT_SAVE it is killed
 * by SIGKILL where the run would be saved.
 */
async function recorder(): Promise<string> {
  const { build } = await import('esbuild');
  const out = path.join(tempDir('steward-recorder-'), 'recorder.mjs');
  const contents = `
    import { openRunHistory, recordReport } from './src/history/index.ts';
    import { sampleReport } from './test/history/sample-report.ts';
    const { HISTORY, FINDINGS, MESSAGE_KB, KILL_AT_SAVE } = process.env;
    const h = await openRunHistory(HISTORY, 'history.sqlite', 'test');
    if (KILL_AT_SAVE) h.db.save = async () => process.kill(process.pid, 'SIGKILL');
    const message = MESSAGE_KB ? 'y'.repeat(Number(MESSAGE_KB) * 1024) : undefined;
    await recordReport(h, sampleReport(Number(FINDINGS), message, '2026-11-03T00:00:00.000Z'), 'hash');
    await h.close();
  `;
  await build({
    stdin: { contents, resolveDir: path.resolve(import.meta.dirname, '../..'), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    banner: { js: "import { createRequire as __recorder_cr } from 'node:module'; const require = __recorder_cr(import.meta.url);" },
    logLevel: 'silent',
  });
  return out;
}
