// A disk that fills during a run (here a file-size limit, `ulimit -f`: each write past it fails
// with EFBIG, as one past a full disk fails with ENOSPC) never leaves a half-written file where a
// reader looks: the last snapshot or report stays as it was, nothing is left beside it, and the
// run exits 3 saying what could not be written. A page the snapshot's temporary spool could not
// keep is the machine's failure: never recorded as the instance's answer. A fix's journal that
// cannot take a line stops the fix: the journal keeps whole lines only, nothing more is sent,
// and the output names the change the journal lacks.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResumeJournal } from '../../src/fix/resume.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { CLI, copyDemo, runCli, sandboxEnv, spawnProcess, tempDir } from '../cli/helpers.js';

/** The CLI in a child whose files may grow to `kib` KiB (bash counts `ulimit -f` in KiB). */
function cliWithFileLimit(kib: number, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnProcess('bash', ['-c', `ulimit -f ${kib} && exec "$@"`, 'bash', process.execPath, CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', XDG_CACHE_HOME: path.join(cwd, '.cache'), ...env },
  });
}

const LAST_GOOD = '{"version":2,"instance":"the last good snapshot"}\n';

describe.skipIf(process.platform === 'win32')('a disk that fills during a run', () => {
  it('snapshot: the pages spooled past the limit fail the recording; the last snapshot is kept and nothing is left beside it', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'instance.snapshot.json');
    writeFileSync(out, LAST_GOOD);
    // The demo's recording is ~95 KB: its spool passes 40 KiB part-way.
    const r = await cliWithFileLimit(40, ['snapshot', '--sandbox', '--out', out], dir, { TMPDIR: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^steward: the recording is incomplete, so nothing was written: a page could not be kept in its temporary file \(EFBIG: file too large, write\)$/m);
    expect(r.stdout).not.toContain('wrote');
    expect(readFileSync(out, 'utf8')).toBe(LAST_GOOD);
    // The spool's own folder went with its process; no temporary snapshot beside the file.
    expect(readdirSync(dir).filter((f) => f !== '.cache')).toEqual(['instance.snapshot.json']);
  });

  it('snapshot: with the pages in memory, the file written past the limit is not written at all', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'instance.snapshot.json');
    writeFileSync(out, LAST_GOOD);
    const r = await cliWithFileLimit(40, ['snapshot', '--sandbox', '--out', out], dir, { TMPDIR: path.join(dir, 'no-such-folder') });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('steward: pages kept in memory while recording: no temporary file');
    expect(r.stderr).toContain(`steward: could not write ${out} (EFBIG: file too large, write): nothing was written to it\n`);
    expect(readFileSync(out, 'utf8')).toBe(LAST_GOOD);
    expect(readdirSync(dir).filter((f) => f !== '.cache')).toEqual(['instance.snapshot.json']);
  });

  it('check --history: a history that cannot grow keeps its runs, and the run exits 3 saying so (either driver)', async () => {
    const dir = copyDemo();
    const history = path.join(dir, 'h.sqlite');
    const run = ['check', '--sandbox', '--config', 'steward.yaml', '--history', 'h.sqlite', '--format', 'json'];
    // A real run's exit code (--config names the file): the demo's violations fail it.
    expect((await runCli(run, { cwd: dir })).code).toBe(1);
    const runs = async () => JSON.parse((await runCli(['history', '--history', history, '--format', 'json'], { cwd: dir })).stdout).map((r: { run: number }) => r.run);
    expect(await runs()).toEqual([1]);
    // Room for the file as it is, not for a second run: node:sqlite's journal or sql.js's copy of
    // the whole file passes the limit.
    const r = await cliWithFileLimit(Math.ceil(statSync(history).size / 1024) + 2, run, dir);
    expect(r.code).toBe(3);
    // node:sqlite says the history's name and SQLite's error; sql.js the file it could not write.
    expect(r.stderr).toMatch(
      /^steward: could not write (h\.sqlite \(disk I\/O error\): the run was not recorded, the history is as it was|\/.*\/h\.sqlite \(EFBIG: file too large, write\): nothing was written to it)$/m,
    );
    expect(await runs()).toEqual([1]);
    expect(readdirSync(dir).filter((f) => f.startsWith('h.sqlite') || f.startsWith('.h.sqlite'))).toEqual(['h.sqlite']);
  });

  // The demo's baseline is ~19 KB, its saved plan ~26 KB, its waivers with a starter waiver for
  // each violation ~10 KB: each past its limit, each file there before kept.
  it.each([
    { what: 'check --write-baseline', file: 'b.json', kib: 8, args: ['check', '--sandbox', '--config', 'steward.yaml', '--write-baseline', 'b.json'] },
    { what: 'fix --plan-out', file: 'plan.json', kib: 8, args: ['fix', '--sandbox', '--config', 'steward.yaml', '--plan-out', 'plan.json'] },
    { what: 'waive', file: 'waivers.yaml', kib: 2, args: ['waive', '--from', 'report.json', '--owner', 'a@acme.example', '--reason', 'adopting', '--expires', '2099-01-01'] },
  ])('$what: the file past the limit is kept as it was, and the run exits 3', async ({ file, kib, args }) => {
    const dir = copyDemo();
    const report = await runCli(['check', '--sandbox', '--config', 'steward.yaml', '--format', 'json'], { cwd: dir });
    writeFileSync(path.join(dir, 'report.json'), report.stdout);
    const target = path.join(dir, file);
    const before = file === 'waivers.yaml' ? readFileSync(target, 'utf8') : '{"the":"last good one"}\n';
    writeFileSync(target, before);
    const r = await cliWithFileLimit(kib, args, dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`steward: could not write ${target} (EFBIG: file too large, write): nothing was written to it\n`);
    expect(readFileSync(target, 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((f) => f.startsWith(`.${file}.`))).toEqual([]);
  });

  it('evidence: a pack past the limit leaves its folder empty, never half a pack', async () => {
    const dir = copyDemo();
    // The demo's pack is ~0.5 MB: its snapshot.json (written first) and its report.json each pass 100 KiB.
    const r = await cliWithFileLimit(100, ['evidence', '--sandbox', '--config', 'steward.yaml', '--out', 'pack'], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^steward: could not write .*\/pack\/\.steward-pack\.\d+\.tmp\/snapshot\.json \(EFBIG: file too large, write\): nothing was written to it$/m);
    expect(readdirSync(path.join(dir, 'pack'))).toEqual([]);
    // With room, the same folder takes the pack.
    const again = await runCli(['evidence', '--sandbox', '--config', 'steward.yaml', '--out', 'pack'], { cwd: dir });
    expect(again.code).toBe(1);
    expect(readdirSync(path.join(dir, 'pack')).sort()).toEqual(['MANIFEST.sha256', 'policies', 'project', 'report.html', 'report.json', 'report.md', 'snapshot.json', 'version.json']);
  });

  it('init: a starter file past the limit takes back the ones written, so a second init finds nothing in the way', async () => {
    const dir = tempDir();
    // The starter steward.yaml is ~3 KB: past 1 KiB.
    const r = await cliWithFileLimit(1, ['init'], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('steward: init could not write steward.yaml (EFBIG: file too large, write): nothing was written\n');
    // Every file under the folder but the child's code cache (XDG_CACHE_HOME is the folder's .cache).
    const files = (root: string): string[] =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !path.relative(root, e.parentPath).startsWith('.cache'))
        .map((e) => e.name)
        .sort();
    expect(files(dir)).toEqual([]);
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(files(dir)).toEqual(['example.yaml', 'steward.yaml', 'steward.yml', 'waivers.yaml']);
  });

  it('check -o: a report file past the limit keeps the last report, and the run exits 3', async () => {
    const dir = copyDemo();
    const report = path.join(dir, 'report.json');
    writeFileSync(report, '{"last":"report"}\n');
    // The demo's JSON report is ~114 KB; stdout (a pipe) has no size limit.
    const r = await cliWithFileLimit(40, ['check', '--sandbox', '-o', `json=${report}`], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`steward: could not write ${report} (EFBIG: file too large, write): nothing was written to it\n`);
    expect(readFileSync(report, 'utf8')).toBe('{"last":"report"}\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('.report.json.'))).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('a disk that fills during fix --apply', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  it('the journal keeps whole lines, the fix stops at the line it could not take, and a resume sends only what is left', async () => {
    const demo = copyDemo();
    const only = ['--only', 'queue-no-admin-for-users', '--only', 'queue-entries-grant-something'];
    const args = ['fix', '--config', 'steward.yaml', ...only, '--apply', '--yes', '--journal', 'j.jsonl'];
    // Each of the 3 queue writes' journal lines is ~0.7–0.9 KB: the 1st fits in 1 KiB, the 2nd does not.
    const first = await cliWithFileLimit(1, args, demo, sandboxEnv(sandbox));
    expect(first.code).toBe(3);
    const journalFile = path.join(demo, 'j.jsonl');
    expect(first.stderr).toContain('applied 2 of 3 changes, 1 not attempted; journal: j.jsonl\n');
    expect(first.stderr).toContain(
      `  the journal ${journalFile} could not take change 2's line (EFBIG: file too large, write): it was applied (queue q-hr-requests) and is not in the journal; the 1 change(s) after it were not sent\n`,
    );
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    // Whole lines only: the journal reads as one, holding the change it could record.
    const text = readFileSync(journalFile, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(readResumeJournal(journalFile, 'j.jsonl')!.entries.map((e) => [e.change, e.resource.id, e.status])).toEqual([[1, 'q-finance-intake', 'applied']]);

    // Resumed with room: the journal's change is left out; the one it lacks is sent again (the
    // write replaces the whole list, so sending it twice leaves the same state), then the last.
    const resumed = await runCli(args, { env: sandboxEnv(sandbox), cwd: demo });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('applied 2 of 2 changes; journal: j.jsonl');
    expect(sandbox.counts.updateQueuePermissions).toBe(4);
  });
});
