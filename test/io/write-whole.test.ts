// A file steward writes is written whole or not at all: a failure part-way leaves the target as
// it was and no temporary file beside it; a replaced file keeps its mode, a link stays a link.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isLeftoverOf, LEFTOVER_STALE_MS, removeStaleLeftovers, writeWholeSync, writtenInPlace } from '../../src/io/write-whole.js';
import { readFifo } from '../fixtures/fifo.js';

const folder = () => mkdtempSync(path.join(tmpdir(), 'steward-whole-'));

function* failingAfter(pieces: string[]): Generator<string> {
  yield* pieces;
  throw new Error('the formatter failed part-way');
}

describe('writeWholeSync', () => {
  it('writes a new file from pieces of text and bytes, with the mode asked for, and leaves nothing beside it', () => {
    const dir = folder();
    const file = path.join(dir, 'report.json');
    writeWholeSync(file, ['{"a":', Buffer.from('1}'), '\n'], { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('replaces a file whole and keeps its mode', () => {
    const dir = folder();
    const file = path.join(dir, 'queues.yaml');
    writeFileSync(file, 'old: true\n');
    chmodSync(file, 0o640);
    writeWholeSync(file, 'new: true\n');
    expect(readFileSync(file, 'utf8')).toBe('new: true\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['queues.yaml']);
  });

  it('a failure part-way leaves the file as it was and no temporary file', () => {
    const dir = folder();
    const file = path.join(dir, 'snapshot.json');
    writeFileSync(file, 'the last good snapshot\n');
    expect(() => writeWholeSync(file, failingAfter(['{"version":2}\n', '{"operation":']))).toThrow('the formatter failed part-way');
    expect(readFileSync(file, 'utf8')).toBe('the last good snapshot\n');
    expect(readdirSync(dir)).toEqual(['snapshot.json']);
  });

  it('a failure of the file system is said as the file it was for, and leaves no new file', () => {
    const dir = folder();
    const file = path.join(dir, 'no-such-folder', 'out.json');
    expect(() => writeWholeSync(file, 'x')).toThrow(`could not write ${file} (ENOENT`);
    expect(() => writeWholeSync(file, 'x')).toThrow(/: nothing was written to it$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes through a symbolic link: the link stays, the file it names is replaced', () => {
    const dir = folder();
    const real = path.join(dir, 'real.yaml');
    const link = path.join(dir, 'link.yaml');
    writeFileSync(real, 'old\n');
    symlinkSync('real.yaml', link);
    writeWholeSync(link, 'new\n');
    expect(readlinkSync(link)).toBe('real.yaml');
    expect(readFileSync(real, 'utf8')).toBe('new\n');
    expect(readdirSync(dir).sort()).toEqual(['link.yaml', 'real.yaml']);
  });
});

// Only a FIFO of the test's own is written (test/fixtures/fifo.ts): a regression here must not
// replace a device of the machine's (a rename over /dev/null made it a regular file once, in a
// run of a half-edited tree).
describe.skipIf(process.platform === 'win32')('a device, a pipe or a descriptor is written into, never replaced', () => {
  it('knows them: devices, descriptor names, a pipe; not a regular file or a new one', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'r.json'), '');
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    expect([
      writtenInPlace('/dev/null'),
      writtenInPlace('/dev/stdout'),
      writtenInPlace('/proc/self/fd/1'),
      writtenInPlace(path.join(dir, 'fifo')),
      writtenInPlace(path.join(dir, 'r.json')),
      writtenInPlace(path.join(dir, 'new.json')),
    ]).toEqual([true, true, true, true, false, false]);
  });

  it('a FIFO gets the text, and stays a FIFO', async () => {
    const dir = folder();
    const { fifo, read, stop } = readFifo(dir, 'fifo');
    try {
      writeWholeSync(fifo, ['one ', 'two\n']);
      expect(await read).toBe('one two\n');
    } finally {
      stop();
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['fifo']);
  });
});

// Root may write any file, so a user without the right is needed: `nobody` (65534), a child
// spawned with its uid (CI and this machine run as root). It runs src/io/write-whole.ts bundled
// into a folder it may read, with the first Node it may run: the repository's own folders (a
// clone in a private temporary folder) may be closed to it.
const NOBODY = 65534;
function nodeForNobody(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  for (const node of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    try {
      execFileSync(node, ['-e', '0'], { uid: NOBODY, gid: NOBODY, stdio: 'ignore' });
      return node;
    } catch {
      // Not there, or not runnable by nobody: the next.
    }
  }
  return null;
}
const nobodysNode = nodeForNobody();

describe.skipIf(nobodysNode === null)('a file this user may not write', () => {
  it('is not replaced, though its folder would allow the rename', async () => {
    // Under /tmp itself: the suite's own temporary folder is root's alone, not to be crossed.
    const dir = mkdtempSync('/tmp/steward-whole-');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o777);
    const module = path.join(dir, 'write-whole.mjs');
    await build({ entryPoints: [path.resolve(import.meta.dirname, '../../src/io/write-whole.ts')], bundle: true, platform: 'node', format: 'esm', outfile: module, logLevel: 'error' });
    chmodSync(module, 0o644);
    const file = path.join(dir, 'r.json');
    writeFileSync(file, "root's\n");
    chmodSync(file, 0o644);
    const script = `import(${JSON.stringify(module)}).then((m) => { try { m.writeWholeSync(${JSON.stringify(file)}, 'nobody'); console.log('written'); } catch (e) { console.log(e.message); } })`;
    const out = execFileSync(nobodysNode!, ['-e', script], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
    expect(out).toBe(`could not write ${file} (EACCES: permission denied, access '${file}')\n`);
    expect(readFileSync(file, 'utf8')).toBe("root's\n");
    expect(readdirSync(dir).sort()).toEqual(['r.json', 'write-whole.mjs']);
  });
});

describe('isLeftoverOf', () => {
  it("knows a killed writer's temporary files of one target, and nothing else", () => {
    const file = '/h/history.sqlite';
    expect(isLeftoverOf(file, '.history.sqlite.4242.1.tmp')).toBe(true);
    expect(isLeftoverOf(file, '.history.sqlite.4242.tmp')).toBe(true);
    expect(isLeftoverOf(file, 'history.sqlite')).toBe(false);
    expect(isLeftoverOf(file, '.history.sqlite-journal')).toBe(false);
    expect(isLeftoverOf(file, '.other.sqlite.4242.1.tmp')).toBe(false);
  });
});

describe("a killed writer's temporary files", () => {
  /** The id of a process that has ended. */
  const ended = () => spawnSync(process.execPath, ['-e', '0']).pid as number;
  const hoursAgo = (file: string, hours: number) => {
    const at = new Date(Date.now() - hours * 3_600_000);
    utimesSync(file, at, at);
  };

  it('are removed by the next write of their target once an hour unwritten with their process gone; every other file is left', () => {
    const dir = folder();
    const file = path.join(dir, 'snapshot.jsonl');
    const dead = ended();
    const stale = [`.snapshot.jsonl.${dead}.1.tmp`, `.snapshot.jsonl.${dead}.tmp`];
    const kept = [
      `.snapshot.jsonl.${dead}.2.tmp`, // written a minute ago: perhaps a writer this process cannot see
      `.snapshot.jsonl.${process.ppid}.1.tmp`, // its process runs
      `.report.json.${dead}.1.tmp`, // another target's
      '.snapshot.jsonl.journal.tmp', // no process id in its name
      'snapshot.jsonl.bak',
    ];
    for (const name of [...stale, ...kept]) writeFileSync(path.join(dir, name), 'part of a page\n');
    for (const name of [...stale, ...kept.slice(1)]) hoursAgo(path.join(dir, name), 2);
    hoursAgo(path.join(dir, kept[0]), 1 / 60);
    writeWholeSync(file, '{"version":2}\n');
    expect(readdirSync(dir).sort()).toEqual([...kept, 'snapshot.jsonl'].sort());
    expect(readFileSync(file, 'utf8')).toBe('{"version":2}\n');
  });

  it('are left when the write fails, and a folder named like one is never removed', () => {
    const dir = folder();
    const file = path.join(dir, 'report.json');
    const dead = ended();
    const leftover = path.join(dir, `.report.json.${dead}.1.tmp`);
    writeFileSync(leftover, 'x');
    hoursAgo(leftover, 2);
    const folderLike = path.join(dir, `.report.json.${dead}.2.tmp`);
    mkdirSync(folderLike);
    hoursAgo(folderLike, 2);
    expect(() => writeWholeSync(file, failingAfter(['{']))).toThrow('the formatter failed part-way');
    expect(readdirSync(dir).sort()).toEqual([`.report.json.${dead}.1.tmp`, `.report.json.${dead}.2.tmp`]);
    // The bound itself: unwritten for just under it, kept; just over, removed.
    removeStaleLeftovers(file, statSync(leftover).mtimeMs + LEFTOVER_STALE_MS);
    expect(readdirSync(dir)).toContain(`.report.json.${dead}.1.tmp`);
    removeStaleLeftovers(file, statSync(leftover).mtimeMs + LEFTOVER_STALE_MS + 1);
    expect(readdirSync(dir)).toEqual([`.report.json.${dead}.2.tmp`]);
  });
});
