// A disk that fills during a run (here a file-size limit, `ulimit -f`: each write past it fails
// with EFBIG, as one past a full disk fails with ENOSPC) never leaves a half-written file where a
// reader looks: the last snapshot or report stays as it was, nothing is left beside it, and the
// run exits 3 saying what could not be written. A page the snapshot's temporary spool could not
// keep is the machine's failure: never recorded as the instance's answer.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, copyDemo, spawnProcess, tempDir } from '../cli/helpers.js';

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
