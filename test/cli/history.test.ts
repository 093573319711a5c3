// Three runs against the sandbox with a history: between them one violation is fixed and one is
// added, then the fixed one comes back. Lifecycle, firstSeen and fixed[] exact in the JSON
// reports; `steward history` lists the runs; `steward diff` exits 1 and names both changes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import type { HistoryRun, RunDiff } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { PLANTED, runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
const dir = tempDir('steward-history-');
const history = path.join(dir, 'history.sqlite');
const reports: Report[] = [];

function schedule9004() {
  return sandbox.state.schedules.find((s) => s.id === 9004)!;
}

async function checkRun(n: number) {
  const file = path.join(dir, `run${n}.json`);
  const r = await runCli(['check', '--config', 'demo/steward.yaml', '--history', history, '--output', `json=${file}`, '--quiet'], { env: sandboxEnv(sandbox) });
  expect(r.code, r.stderr).toBe(1);
  reports.push(JSON.parse(readFileSync(file, 'utf8')));
}

const findingOf = (report: Report, policy: string, id: string) => report.findings.find((f) => f.policy === policy && f.resource.id === id);

beforeAll(async () => {
  sandbox = await startSandbox();
  await checkRun(1);
  // Run 2: schedule 9004 gets a real timezone (fixed); a second unnamed workflow appears (new).
  schedule9004().schedule.timezone = 'Europe/Berlin';
  const unnamed = sandbox.state.workflows.find((w) => w.id === 'wf-unnamed')!;
  sandbox.state.workflows.push({ ...unnamed, id: 'wf-added' });
  await checkRun(2);
  // Run 3: 9004 is broken again (reopened); the added workflow is still there (open).
  schedule9004().schedule.timezone = 'Mars/Olympus';
  await checkRun(3);
}, 120_000);
afterAll(() => sandbox.close());

describe('check --history: finding lifecycle over three runs', () => {
  it('run 1: every finding new, first seen now; nothing fixed', () => {
    const r1 = reports[0]!;
    const tracked = r1.findings.filter((f) => f.status !== 'error');
    expect(tracked.length).toBe(PLANTED.length + 1);
    expect(new Set(tracked.map((f) => f.lifecycle))).toEqual(new Set(['new']));
    expect(new Set(tracked.map((f) => f.firstSeen))).toEqual(new Set([r1.startedAt]));
    expect(r1.fixed).toEqual([]);
    expect(r1.history).toMatchObject({ file: history, run: 1, new: PLANTED.length + 1, open: 0, reopened: 0, fixed: 0 });
  });

  it('run 2: the added workflow is new, the rest open since run 1, schedule 9004 fixed', () => {
    const [r1, r2] = reports as [Report, Report];
    const added = findingOf(r2, 'workflows-are-named', 'wf-added');
    expect(added).toMatchObject({ lifecycle: 'new', firstSeen: r2.startedAt });
    expect(findingOf(r2, 'workflows-are-named', 'wf-unnamed')).toMatchObject({ lifecycle: 'open', firstSeen: r1.startedAt });
    expect(findingOf(r2, 'schedule-timezone-valid', '9004')).toBeUndefined();
    const was = findingOf(r1, 'schedule-timezone-valid', '9004')!;
    expect(r2.fixed).toEqual([
      {
        instance: 'default',
        policy: 'schedule-timezone-valid',
        severity: was.severity,
        resource: was.resource,
        fingerprint: was.fingerprint,
        message: was.message,
        firstSeen: r1.startedAt,
        fixedAt: r2.startedAt,
      },
    ]);
    expect(r2.history).toMatchObject({ run: 2, new: 1, open: PLANTED.length, reopened: 0, fixed: 1 });
    expect(r2.history!.trend.map((t) => [t.run, t.violations, t.new, t.fixed])).toEqual([
      [1, PLANTED.length, PLANTED.length + 1, 0],
      [2, PLANTED.length, 1, 1],
    ]);
  });

  it('run 3: schedule 9004 reopened with its first sighting kept; the added workflow open since run 2', () => {
    const [r1, r2, r3] = reports as [Report, Report, Report];
    expect(findingOf(r3, 'schedule-timezone-valid', '9004')).toMatchObject({ lifecycle: 'reopened', firstSeen: r1.startedAt });
    expect(findingOf(r3, 'workflows-are-named', 'wf-added')).toMatchObject({ lifecycle: 'open', firstSeen: r2.startedAt });
    expect(r3.fixed).toEqual([]);
    expect(r3.history).toMatchObject({ run: 3, new: 0, open: PLANTED.length + 1, reopened: 1, fixed: 0 });
  });

  it('steward history lists the three runs (table and JSON)', async () => {
    const json = await runCli(['history', '--history', history, '--format', 'json']);
    expect(json.code).toBe(0);
    const runs = JSON.parse(json.stdout) as HistoryRun[];
    expect(runs.map((r) => [r.run, r.gate, r.violations, r.new, r.reopened, r.fixed])).toEqual([
      [1, 'fail', PLANTED.length, PLANTED.length + 1, 0, 0],
      [2, 'fail', PLANTED.length, 1, 0, 1],
      [3, 'fail', PLANTED.length + 1, 0, 1, 0],
    ]);
    expect(runs.map((r) => r.violations)).toEqual(reports.map((r) => r.summary.violations));
    const table = await runCli(['history', '--history', history]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^RUN\s+TIME\s+VERDICT\s+CRITICAL\s+HIGH\s+MEDIUM\s+LOW\s+INFO\s+NEW\s+REOPENED\s+FIXED$/);
    expect(lines.slice(2).map((l) => l.split(/\s+/).slice(-3))).toEqual([
      [String(PLANTED.length + 1), '0', '0'],
      ['1', '0', '1'],
      ['0', '1', '0'],
    ]);
  });

  it('steward diff 1 2: exit 1, the added workflow new and schedule 9004 fixed', async () => {
    const r = await runCli(['diff', '1', '2', '--history', history, '--format', 'json']);
    expect(r.code).toBe(1);
    const diff = JSON.parse(r.stdout) as RunDiff;
    expect(diff.new.map((f) => `${f.policy} ${f.resource.id}`)).toEqual(['workflows-are-named wf-added']);
    expect(diff.fixed.map((f) => `${f.policy} ${f.resource.id}`)).toEqual(['schedule-timezone-valid 9004']);
    expect([diff.reopened, diff.changed, diff.failing]).toEqual([[], [], 1]);
    const text = await runCli(['diff', '1', '2', '--history', history]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('new: 1\n  + [');
    expect(text.stdout).toContain('workflows-are-named workflow/wf-added');
    expect(text.stdout).toContain('fixed: 1\n  - [');
    expect(text.stdout).toContain('schedule-timezone-valid reportSchedule/9004');
  });

  it('steward diff with no runs named compares the last two: 9004 reopened, exit 1; --fail-on none exits 0', async () => {
    const r = await runCli(['diff', '--history', history, '--format', 'json']);
    expect(r.code).toBe(1);
    const diff = JSON.parse(r.stdout) as RunDiff;
    expect([diff.from.label, diff.to.label]).toEqual(['run 2', 'run 3']);
    expect(diff.reopened.map((f) => f.resource.id)).toEqual(['9004']);
    expect([diff.new, diff.fixed]).toEqual([[], []]);
    expect((await runCli(['diff', '--history', history, '--fail-on', 'none'])).code).toBe(0);
  });

  it('steward diff compares JSON report files too (no history needed); fixed only where the later run evaluated the resource', async () => {
    const forward = JSON.parse((await runCli(['diff', path.join(dir, 'run1.json'), path.join(dir, 'run2.json'), '--format', 'json'])).stdout) as RunDiff;
    expect([forward.new.map((f) => f.resource.id), forward.fixed.map((f) => f.resource.id)]).toEqual([['wf-added'], ['9004']]);
    // Backwards: run 1 never saw wf-added (it did not exist yet): gone, not fixed.
    const r = await runCli(['diff', path.join(dir, 'run2.json'), path.join(dir, 'run1.json'), '--format', 'json']);
    expect(r.code).toBe(1);
    const diff = JSON.parse(r.stdout) as RunDiff;
    expect(diff.new.map((f) => f.resource.id)).toEqual(['9004']);
    expect(diff.fixed).toEqual([]);
  });

  it('history and diff without a history file are exit 2 naming the flag; an unknown run id is exit 2', async () => {
    const none = await runCli(['history'], { cwd: tempDir() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--history: no run history: .steward/history.sqlite does not exist; pass --history FILE, or set `history:` in steward.yaml (true records into .steward/history.sqlite)');
    const unknown = await runCli(['diff', '1', '9', '--history', history]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('9: no run 9 in the history');
  });

  it('a run that evaluated nothing is not recorded (it would mark every earlier finding fixed)', async () => {
    const empty = tempDir('steward-history-empty-');
    writeFileSync(path.join(empty, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [], filesets: {} }\n');
    const only = ['--only', 'datasets-have-an-owner', '--only', 'fileset-files-sha256'];
    const r = await runCli(['check', ...only, '--history', history, '--allow-empty', '--format', 'json'], { cwd: empty, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`steward: the run evaluated nothing: not recorded in the history ${history}\n`);
    expect((JSON.parse(r.stdout) as Report).history).toBeNull();
    const runs = JSON.parse((await runCli(['history', '--history', history, '--format', 'json'])).stdout) as HistoryRun[];
    expect(runs.map((run) => run.run)).toEqual([1, 2, 3]);
  });

  it('one default file for check, history and diff: `history: true` and a bare --history record into .steward/history.sqlite beside the config, which history and diff then read unasked', async () => {
    const project = tempDir('steward-history-default-');
    const demo = readFileSync('demo/steward.yaml', 'utf8');
    writeFileSync(path.join(project, 'steward.yaml'), `${demo.replace(/^history:.*$/m, '')}\nhistory: true\n`);
    const { cpSync } = await import('node:fs');
    cpSync('demo', project, { recursive: true, filter: (src) => !src.endsWith('steward.yaml') });
    const only = ['--only', 'queue-no-admin-for-users', '--quiet'];
    const first = await runCli(['check', ...only], { cwd: project, env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(1);
    // No history configured: a bare --history records into the same default file.
    writeFileSync(path.join(project, 'steward.yaml'), demo.replace(/^history:.*$/m, ''));
    const second = await runCli(['check', ...only, '--history'], { cwd: project, env: sandboxEnv(sandbox) });
    expect(second.code, second.stderr).toBe(1);
    const third = await runCli(['check', ...only], { cwd: project, env: sandboxEnv(sandbox) });
    expect(third.code, third.stderr).toBe(1);
    const runs = JSON.parse((await runCli(['history', '--format', 'json'], { cwd: project })).stdout) as HistoryRun[];
    expect(runs.map((run) => run.run)).toEqual([1, 2]);
    const diff = await runCli(['diff', '--format', 'json'], { cwd: project });
    expect(diff.code, diff.stderr).toBe(0);
  });

  it('a database URL: another database refused, an unreachable PostgreSQL exit 2 before any request, a URL written in the file refused; the password never printed', async () => {
    const project = tempDir('steward-history-url-');
    const run = (args: string[]) => runCli(['check', '--config', path.resolve('demo/steward.yaml'), ...args], { cwd: project, env: sandboxEnv(sandbox) });
    sandbox.resetCounts();
    const mysql = await run(['--history', 'mysql://steward:s3cret-pw@127.0.0.1:1/audit']);
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toContain('--history: only a PostgreSQL URL (postgres:// or postgresql://) or a file path can hold the run history');
    const down = await run(['--history', 'postgres://steward:s3cret-pw@127.0.0.1:1/audit']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('the PostgreSQL history: cannot connect to the PostgreSQL history: ECONNREFUSED');
    expect(sandbox.totalRequests()).toBe(0);
    writeFileSync(path.join(project, 'steward.yaml'), `policies: [builtin]\nhistory: "postgres://steward:s3cret-pw@127.0.0.1:1/audit"\n`);
    const written = await runCli(['check', '--base-url', sandbox.baseUrl], { cwd: project, env: sandboxEnv(sandbox) });
    expect(written.code).toBe(2);
    expect(written.stderr).toContain('steward.yaml:2:10: history: a database URL carries a password: name the environment variable that holds it (history: env:STEWARD_HISTORY_URL)');
    writeFileSync(path.join(project, 'steward.yaml'), 'policies: [builtin]\nhistory: env:STEWARD_HISTORY_URL\n');
    const unset = await runCli(['check', '--base-url', sandbox.baseUrl], { cwd: project, env: sandboxEnv(sandbox) });
    expect(unset.stderr).toContain('steward.yaml:2:10: history: STEWARD_HISTORY_URL is not set');
    for (const r of [mysql, down, written, unset]) expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(project)).toEqual(['steward.yaml']); // no stray `postgres:` folder
  });
});
