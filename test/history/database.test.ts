// The history file: created and versioned, refused when it is not ours or newer, locked
// against a second run, and whole after a writer is killed in the middle of saving.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { HISTORY_SCHEMA_VERSION, listRuns, openHistory, openRunHistory, recordReport } from '../../src/history/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { CLI, sandboxEnv, tempDir } from '../cli/helpers.js';
import { sampleReport } from './sample-report.js';

function problemOf(fn: () => unknown): Promise<string> {
  return Promise.resolve()
    .then(fn)
    .then(
      () => 'no error',
      (e) => (e instanceof InputError ? e.problems.map((p) => `${p.file}: ${p.message}`).join('\n') : `not an InputError: ${e}`),
    );
}

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

  it('leaves every earlier run intact and readable; the next run takes the dead lock over and records', async () => {
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

    const db = await openHistory(file, 'history.sqlite', { create: false });
    expect((await listRuns(db)).map((r) => [r.run, r.violations])).toEqual([
      [1, 2_500],
      [2, 2_501],
    ]);
    // Two runs of 2,500 and 2,501 findings: 2,501 texts, each present in both runs as one span.
    expect((await db.all('SELECT COUNT(*) AS n FROM texts'))[0]!.n).toBe(2_501);
    await db.close();

    const again = spawn(process.execPath, [CLI, 'check', '--config', 'demo/steward.yaml', '--history', file, '--quiet'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', ...sandboxEnv(sandbox) },
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => again.on('exit', resolve))).toBe(1);
    expect(leftovers()).toEqual([]);
    expect(existsSync(path.join(dir, '.history.sqlite.lock'))).toBe(false);
    const after = await openHistory(file, 'history.sqlite', { create: false });
    expect((await listRuns(after)).map((r) => r.run)).toEqual([1, 2, 3]);
    await after.close();
  }, 120_000);
});

