// The run history in PostgreSQL (src/history/postgres.ts) against a real PostgreSQL: PGlite
// served over its socket server on 127.0.0.1, reached by node-postgres as any server would be.
// Two steward processes record at once; the lifecycle is exact over the runs; `history` and
// `diff` say the same as the SQLite store recording the same runs; the URL is never printed; a
// newer schema is refused.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { OPEN_RUN } from '../../src/history/spans.js';
import { diffRuns, historyRuns } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { REPO, runCli, sandboxEnv, spawnCli, tempDir } from '../cli/helpers.js';

let db: PGlite;
let server: PGLiteSocketServer;
let sandbox: Sandbox;
let url: string;
const PASSWORD = 'pg-s3cret-pass';

beforeAll(async () => {
  db = await PGlite.create();
  server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 4 });
  await server.start();
  url = `postgres://steward:${PASSWORD}@${server.getServerConn()}/postgres`;
  sandbox = await startSandbox();
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await server?.stop();
  await db?.close();
});

const CONFIG = path.join(REPO, 'demo/steward.yaml');
const ONLY = ['--only', 'schedule-timezone-valid'];
const schedule = (id: number) => sandbox.state.schedules.find((s) => s.id === id)!;
const lifecycles = (r: Report) => r.findings.filter((f) => f.status === 'violation').map((f) => `${f.resource.id} ${f.lifecycle}`).sort();
const fixed = (r: Report) => (r.fixed ?? []).map((f) => f.resource.id).sort();

/** One recorded run into `history` (a URL or a file), as a separate process unless `inProcess`. */
async function record(history: string, spawned = true): Promise<{ report: Report; stderr: string; stdout: string }> {
  const args = ['check', '--config', CONFIG, ...ONLY, '--history', history, '--format', 'json'];
  const r = spawned ? await spawnCli(args, { env: sandboxEnv(sandbox) }) : await runCli(args, { env: sandboxEnv(sandbox) });
  expect(r.code, r.stderr).toBe(1);
  return { report: JSON.parse(r.stdout) as Report, stderr: r.stderr, stdout: r.stdout };
}

describe('history in PostgreSQL', () => {
  it('two processes at once, then a change and its undoing: the lifecycle is exact, and history and diff match the SQLite store', async () => {
    const file = path.join(tempDir('steward-pg-'), 'history.sqlite');
    // Run pair 1: both at once into PostgreSQL; one records first (all new), the other sees it (all open).
    const [a, b] = await Promise.all([record(url), record(url)]);
    const pair = [a.report, b.report].sort((x, y) => x.history!.run - y.history!.run);
    expect(pair.map((r) => r.history!.run)).toEqual([1, 2]);
    expect(lifecycles(pair[0])).toEqual(['9004 new']);
    expect(lifecycles(pair[1])).toEqual(['9004 open']);
    await record(file, false);
    await record(file, false);
    // Run 3: 9004 fixed, 9001 broken. Run 4: 9004 broken again (reopened), 9001 still broken.
    const was = { 9004: schedule(9004).schedule.timezone, 9001: schedule(9001).schedule.timezone };
    let third: Report;
    let fourth: Report;
    try {
      schedule(9004).schedule.timezone = 'Europe/Berlin';
      schedule(9001).schedule.timezone = 'Atlantis/Lost';
      third = (await record(url)).report;
      await record(file, false);
      schedule(9004).schedule.timezone = was[9004];
      fourth = (await record(url)).report;
      await record(file, false);
    } finally {
      schedule(9004).schedule.timezone = was[9004];
      schedule(9001).schedule.timezone = was[9001];
    }
    expect([lifecycles(third), fixed(third)]).toEqual([['9001 new'], ['9004']]);
    expect([lifecycles(fourth), fixed(fourth)]).toEqual([['9001 open', '9004 reopened'], []]);
    expect(fourth.history).toMatchObject({ file: 'the PostgreSQL history', run: 4, new: 0, open: 1, reopened: 1, fixed: 0 });
    for (const r of [a, b]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);

    // The same answers from both stores (times and request counts aside).
    const steady = (runs: Awaited<ReturnType<typeof historyRuns>>) => runs.map(({ startedAt: _s, durationMs: _d, requests: _r, ...rest }) => rest);
    const options = { config: CONFIG, cwd: REPO, env: {} };
    const [pgRuns, fileRuns] = [await historyRuns({ ...options, history: url }), await historyRuns({ ...options, history: file })];
    expect(pgRuns).toHaveLength(4);
    expect(steady(pgRuns)).toEqual(steady(fileRuns));
    for (const [from, to] of [['1', '3'], ['3', '4'], [undefined, undefined]] as const) {
      const [x, y] = [await diffRuns({ ...options, history: url, from, to }), await diffRuns({ ...options, history: file, from, to })];
      // The two stores recorded the same runs at other moments: times aside, every field equal.
      const timeless = (d: unknown) => JSON.parse(JSON.stringify(d, (k, v) => (k === 'startedAt' || k === 'firstSeen' ? undefined : v)));
      expect(timeless(x)).toEqual(timeless(y));
      expect(x.new.length + x.reopened.length + x.fixed.length).toBeGreaterThan(0);
    }
    const diff = await diffRuns({ ...options, history: url, from: '3', to: '4' });
    expect([diff.reopened.map((f) => f.resource.id), diff.fixed.map((f) => f.resource.id)]).toEqual([['9004'], []]);

    // What a team queries: the tables in the `steward` schema, as README's example queries read them.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Spans, not rows per run: 9004 (runs 1–2, then reopened at 4) and 9001 (3–4), three spans in all, two still open.
      const spans = await client.query('SELECT t.resource_id, s.lifecycle, s.first_run, s.last_run FROM steward.spans s JOIN steward.texts t ON t.id = s.text_id ORDER BY s.id');
      expect(spans.rows.map((r) => [r.resource_id, r.lifecycle, r.first_run, r.last_run])).toEqual([
        ['9004', 'new', 1, 2],
        ['9001', 'new', 3, OPEN_RUN],
        ['9004', 'reopened', 4, OPEN_RUN],
      ]);
      // README's two example queries, as written there.
      const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
      const queries = /```sql\n([\s\S]*?)```/.exec(readme)![1].split(';').map((q) => q.trim()).filter(Boolean);
      expect(queries).toHaveLength(2);
      const perPolicy = await client.query(queries[0]!);
      expect(perPolicy.rows).toEqual([{ instance: sandbox.baseUrl, policy: 'schedule-timezone-valid', severity: 'medium', open: '2' }]);
      const perDay = await client.query(queries[1]!);
      expect(perDay.rows.map((r) => [r.instance, r.violations, r.new, r.reopened, r.fixed])).toEqual([[sandbox.baseUrl, 2, '2', '1', '1']]);
      const trend = await client.query('SELECT id, violations, new_count, reopened_count, fixed_count FROM steward.runs ORDER BY id');
      expect(trend.rows.map((r) => [r.id, r.new_count, r.reopened_count, r.fixed_count])).toEqual([
        [1, 1, 0, 0],
        [2, 0, 0, 0],
        [3, 1, 0, 1],
        [4, 0, 1, 0],
      ]);
    } finally {
      await client.end();
    }
  }, 120_000);

  it('refuses a schema newer than its own, naming neither the URL nor its password', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('UPDATE steward.schema_version SET version = 99');
      const r = await runCli(['history', '--config', CONFIG, '--history', url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the PostgreSQL history: not a steward run history: schema version 99 is newer than this steward');
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    } finally {
      await client.query('UPDATE steward.schema_version SET version = 1');
      await client.end();
    }
  });
});
