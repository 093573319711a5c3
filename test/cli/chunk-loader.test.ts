// The CLI's chunk loader: CommonJS chunks required through it, each once; V8's code cache kept per
// chunk text and cache name, read back by the next start (another command's until a command keeps
// its own), refused (and rewritten) when broken, pruned when the build no longer has its chunk;
// nothing kept with the cache off, or for a file the build did not write.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheNameOf, chunkFile, chunkLoader } from '../../src/cli/chunk-loader.js';
import { tempDir } from './helpers.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A folder of two chunks as the build writes them: main.cjs requires shared-AB12.cjs and a built-in. */
function chunks(): string {
  const folder = tempDir('steward-chunks-');
  writeFileSync(
    path.join(folder, 'main.cjs'),
    chunkFile(
      [
        'const shared = require("./shared-AB12.cjs");',
        'const { basename } = require("node:path");',
        'exports.run = (n) => shared.twice(n) + 1;',
        'exports.where = () => [basename(__filename), __steward_url];',
        'exports.again = () => require("./shared-AB12.cjs") === shared;',
      ].join('\n'),
      sha256Hex,
    ),
  );
  writeFileSync(path.join(folder, 'shared-AB12.cjs'), chunkFile('globalThis.__stewardSharedRuns = (globalThis.__stewardSharedRuns ?? 0) + 1;\nexports.twice = (n) => n * 2;\n', sha256Hex));
  // Built at a whole second: a copy keeps that time exactly (Node 20's copy rounds a time to the millisecond).
  for (const file of ['main.cjs', 'shared-AB12.cjs']) utimesSync(path.join(folder, file), BUILT, BUILT);
  return folder;
}

/** When chunks() built its files, in seconds (2026-01-01). */
const BUILT = 1_767_225_600;

/**
 * The same chunks at another path: a later start. (In one process V8 keeps what it compiled for
 * a file's text and name, and would answer a second load itself, never reading the kept code.)
 * The copies keep the files' times: a later start sees the same files. (A file a test wrote
 * itself has a time of a fraction of a millisecond, which a copy may not keep: a test expects
 * only a miss for it.)
 */
function later(folder: string): string {
  const copy = tempDir('steward-chunks-');
  cpSync(folder, copy, { recursive: true, preserveTimestamps: true });
  return copy;
}

/** A kept file's name: the chunk, the command, the build's hash, the file's size and time. */
const KEPT = (chunk: string, name: string) => new RegExp(`^${chunk.replaceAll('.', '\\.')}\\.${name}\\.[0-9a-f]{32}-\\d+-\\d+\\.bin$`);

type Main = { run(n: number): number };

/** A later start of the command `name` on these chunks: what `run(n)` gave, how each chunk's code was had, how many it kept. */
function laterStart(folder: string, cache: string, name: string, n = 1): { result: number; uses: string[]; saved: number } {
  const loader = chunkLoader(later(folder), cache, name);
  const result = (loader.require('main.cjs') as Main).run(n);
  return { result, uses: loader.loaded().map((l) => l.cache), saved: loader.saveCodeCache() };
}

/** Chunks whose code `check` kept (at its second start: the first leaves a marker): the folder and the cache. */
function keptOnce(): { folder: string; cache: string } {
  const folder = chunks();
  const cache = tempDir('steward-v8-');
  expect(laterStart(folder, cache, 'check').saved).toBe(0);
  expect(laterStart(folder, cache, 'check').saved).toBe(2);
  return { folder, cache };
}

/** This Node's folder of builds' kept code. */
const nodeFolder = (cache: string) => path.join(cache, `${process.version}-${process.arch}`);

/** The folder the build in `folder` keeps its code in: named by its entry chunk's key (its first line's hash, its size and time). */
function kept(cache: string, folder: string): string {
  const file = path.join(folder, 'main.cjs');
  const { size, mtimeMs } = statSync(file);
  const hash = /^\/\/ steward chunk ([0-9a-f]{32})\n/.exec(readFileSync(file, 'utf8'))![1];
  return path.join(nodeFolder(cache), `${hash}-${size}-${Math.trunc(mtimeMs)}`);
}

/** main.cjs of the chunks in `folder` rebuilt: another text, built at BUILT + `second`. */
function rebuildMain(folder: string, second: number): void {
  const file = path.join(folder, 'main.cjs');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n// rebuilt ${second}\n`);
  utimesSync(file, BUILT + second, BUILT + second);
}

describe('the chunk loader', () => {
  it('requires a chunk and what it requires, each once; a chunk knows its own file and URL', () => {
    const folder = chunks();
    const loader = chunkLoader(folder, null, 'check');
    const main = loader.require('main.cjs') as Main & { where(): string[]; again(): boolean };
    const runs = (globalThis as { __stewardSharedRuns?: number }).__stewardSharedRuns ?? 0;
    expect(main.run(20)).toBe(41);
    expect(main.again()).toBe(true);
    expect(loader.require('main.cjs')).toBe(main);
    expect((globalThis as { __stewardSharedRuns?: number }).__stewardSharedRuns).toBe(runs);
    expect(main.where()).toEqual(['main.cjs', pathToFileURL(path.join(folder, 'main.cjs')).href]);
    expect(loader.loaded()).toEqual([
      { name: 'main.cjs', cache: 'off' },
      { name: 'shared-AB12.cjs', cache: 'off' },
    ]);
    // With the cache off nothing is kept.
    expect(loader.saveCodeCache()).toBe(0);
  });

  it('resolves a package a chunk requires from the chunks\' folder, as Node would for a file there', () => {
    const folder = chunks();
    mkdirSync(path.join(folder, 'node_modules', 'probe-package'), { recursive: true });
    writeFileSync(path.join(folder, 'node_modules', 'probe-package', 'index.js'), 'module.exports = 42;\n');
    writeFileSync(path.join(folder, 'probe-AB12.cjs'), 'exports.answer = require("probe-package");\n');
    expect(chunkLoader(folder, null, 'check').require('probe-AB12.cjs')).toEqual({ answer: 42 });
  });

  it('refuses a name that is not one of its chunks', () => {
    const loader = chunkLoader(chunks(), null, 'check');
    expect(() => loader.require('../main.cjs')).toThrow('internal: no CLI chunk is named "../main.cjs"');
    expect(() => loader.require('main.js')).toThrow('internal: no CLI chunk is named "main.js"');
    expect(() => loader.require('main.cjs.map')).toThrow('internal: no CLI chunk is named "main.cjs.map"');
  });

  it('keeps each chunk\'s compiled code (owner-only) from a command\'s second start, and the next start of it reads it', () => {
    const folder = chunks();
    const cache = tempDir('steward-v8-');
    // The first start (a fresh machine's only one, as in CI) leaves a marker, no code.
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 3, uses: ['miss', 'miss'], saved: 0 });
    expect(readdirSync(kept(cache, folder))).toEqual(['check.started']);
    const second = chunkLoader(folder, cache, 'check');
    (second.require('main.cjs') as Main).run(1);
    expect(second.loaded().map((l) => l.cache)).toEqual(['miss', 'miss']);
    expect(second.saveCodeCache()).toBe(2);
    // Saved once: a second save has nothing to write.
    expect(second.saveCodeCache()).toBe(0);
    const files = readdirSync(kept(cache, folder)).filter((f) => f.endsWith('.bin')).sort();
    expect(files).toEqual([expect.stringMatching(KEPT('main.cjs', 'check')), expect.stringMatching(KEPT('shared-AB12.cjs', 'check'))]);
    if (process.platform !== 'win32') {
      for (const file of [...files, 'check.started']) expect(statSync(path.join(kept(cache, folder), file)).mode & 0o777).toBe(0o600);
      expect(statSync(kept(cache, folder)).mode & 0o777).toBe(0o700);
    }
    expect(laterStart(folder, cache, 'check', 5)).toEqual({ result: 11, uses: ['hit', 'hit'], saved: 0 });
    // Another command starts from the code `check` kept, then keeps its own (at its second start), and uses that.
    expect(laterStart(folder, cache, 'validate')).toEqual({ result: 3, uses: ['shared', 'shared'], saved: 0 });
    expect(laterStart(folder, cache, 'validate')).toEqual({ result: 3, uses: ['shared', 'shared'], saved: 2 });
    expect(readdirSync(kept(cache, folder)).filter((f) => f.endsWith('.bin'))).toHaveLength(4);
    expect(laterStart(folder, cache, 'validate')).toEqual({ result: 3, uses: ['hit', 'hit'], saved: 0 });
  });

  it('never uses code kept for another text of a chunk, and drops it once the new text\'s is kept', () => {
    const { folder, cache } = keptOnce();
    const before = readdirSync(kept(cache, folder)).find((f) => f.startsWith('shared-AB12.cjs.'));
    // Edited in place: the same length, the same first line, other code. V8 alone would check
    // the length only; the file's time tells.
    writeFileSync(path.join(folder, 'shared-AB12.cjs'), readFileSync(path.join(folder, 'shared-AB12.cjs'), 'utf8').replace('n * 2', 'n * 3'));
    expect(laterStart(folder, cache, 'check', 2)).toEqual({ result: 7, uses: ['hit', 'miss'], saved: 1 });
    const after = readdirSync(kept(cache, folder)).filter((f) => f.startsWith('shared-AB12.cjs.'));
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it('compiles a chunk file the build did not write (no first line naming its code) and never keeps its code', () => {
    const folder = chunks();
    // Its text names a hash too, but not on its first line.
    writeFileSync(path.join(folder, 'shared-AB12.cjs'), `exports.twice = (n) => n * 4;\n// steward chunk ${'0'.repeat(32)}\n`);
    const cache = tempDir('steward-v8-');
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 5, uses: ['miss', 'off'], saved: 0 });
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 5, uses: ['miss', 'off'], saved: 1 });
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 5, uses: ['hit', 'off'], saved: 0 });
    expect(readdirSync(kept(cache, folder)).filter((f) => f.endsWith('.bin'))).toEqual([expect.stringMatching(KEPT('main.cjs', 'check'))]);
  });

  it('closes every file it reads: a thousand loads leave no descriptor open', (ctx) => {
    if (!existsSync('/proc/self/fd')) ctx.skip();
    const folder = chunks();
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let start = 0; start < 500; start++) chunkLoader(folder, null, 'check').require('main.cjs');
    expect(open()).toBe(before);
  });

  it('drops what an earlier version kept beside the builds\' folders (every build in one) once this one keeps its own', () => {
    const folder = chunks();
    const cache = tempDir('steward-v8-');
    // Code under the chunk's hash alone, and under its key, with its command's marker: none of it read.
    const earlier = [`main.cjs.check.${'0'.repeat(32)}.bin`, `main.cjs.check.${'0'.repeat(32)}-9-9.bin`, 'check.started'];
    mkdirSync(nodeFolder(cache));
    for (const file of earlier) writeFileSync(path.join(nodeFolder(cache), file), 'code');
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 3, uses: ['miss', 'miss'], saved: 0 });
    expect(laterStart(folder, cache, 'check')).toEqual({ result: 3, uses: ['miss', 'miss'], saved: 2 });
    expect(readdirSync(nodeFolder(cache))).toEqual([path.basename(kept(cache, folder))]);
  });

  it('a broken or cut kept file is refused by V8: the chunk is compiled, runs the same, and its code is kept anew', () => {
    const { folder, cache } = keptOnce();
    const [mainFile, sharedFile] = readdirSync(kept(cache, folder))
      .filter((f) => f.endsWith('.bin'))
      .sort()
      .map((f) => path.join(kept(cache, folder), f));
    writeFileSync(mainFile, Buffer.alloc(4096, 7));
    writeFileSync(sharedFile, readFileSync(sharedFile).subarray(0, 64));
    expect(laterStart(folder, cache, 'check', 3)).toEqual({ result: 7, uses: ['rejected', 'rejected'], saved: 2 });
    expect(laterStart(folder, cache, 'check', 3)).toEqual({ result: 7, uses: ['hit', 'hit'], saved: 0 });
  });

  it('leaves alone what it did not keep: a file another start is writing, a file of another name; removes what a killed start left', () => {
    const { folder, cache } = keptOnce();
    const shared = readdirSync(kept(cache, folder)).find((f) => f.startsWith('shared-AB12.cjs.'))!;
    const others = [`${shared}.4242.partial`, `notes.${shared}`, `${shared}.4444.partial.txt`];
    for (const other of [...others, `${shared}.4343.partial`]) writeFileSync(path.join(kept(cache, folder), other), 'x');
    // Written to an hour and a minute ago: its start was killed between the write and the rename.
    const killed = new Date(Date.now() - 61 * 60_000);
    for (const old of [`${shared}.4343.partial`, `${shared}.4444.partial.txt`]) utimesSync(path.join(kept(cache, folder), old), killed, killed);
    // The shared chunk edited in place (the build, named by main.cjs, the same): its code is kept anew.
    writeFileSync(path.join(folder, 'shared-AB12.cjs'), `${readFileSync(path.join(folder, 'shared-AB12.cjs'), 'utf8')}\n// edited\n`);
    expect(laterStart(folder, cache, 'check').saved).toBe(1);
    const shareds = readdirSync(kept(cache, folder)).filter((f) => f.includes('shared-AB12.cjs.'));
    expect(shareds.filter((f) => !others.includes(f))).toEqual([expect.stringMatching(KEPT('shared-AB12.cjs', 'check'))]);
    expect(shareds.filter((f) => others.includes(f)).sort()).toEqual([...others].sort());
    expect(readdirSync(kept(cache, folder))).not.toContain(shared);
  });

  it('a file it cannot put in place leaves nothing half-written, and the run goes on', () => {
    const folder = chunks();
    const cache = tempDir('steward-v8-');
    expect(laterStart(folder, cache, 'check').saved).toBe(0);
    const loader = chunkLoader(folder, cache, 'check');
    (loader.require('main.cjs') as Main).run(1);
    // A folder where main.cjs's code would go (its name, as a second start elsewhere kept it): the rename fails.
    const elsewhere = tempDir('steward-v8-');
    for (let start = 0; start < 2; start++) laterStart(folder, elsewhere, 'check');
    const name = readdirSync(kept(elsewhere, folder)).find((f) => f.startsWith('main.cjs.'))!;
    mkdirSync(path.join(kept(cache, folder), name, 'in-the-way'), { recursive: true });
    expect(loader.saveCodeCache()).toBe(0);
    expect(readdirSync(kept(cache, folder)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('drops kept code of chunks the build no longer has', () => {
    const { folder, cache } = keptOnce();
    // A chunk of the build that a start of `check` loads after main.cjs: its code is kept too.
    writeFileSync(path.join(folder, 'extra-EF56.cjs'), chunkFile('exports.x = 1;\n', sha256Hex));
    utimesSync(path.join(folder, 'extra-EF56.cjs'), BUILT, BUILT);
    const loader = chunkLoader(later(folder), cache, 'check');
    loader.require('main.cjs');
    loader.require('extra-EF56.cjs');
    expect([loader.loaded().map((l) => l.cache), loader.saveCodeCache()]).toEqual([['hit', 'hit', 'miss'], 1]);
    const chunksKept = () =>
      readdirSync(kept(cache, folder))
        .filter((f) => f.endsWith('.bin'))
        .map((f) => f.split('.').slice(0, 3).join('.'))
        .sort();
    expect(chunksKept()).toEqual(['extra-EF56.cjs.check', 'main.cjs.check', 'shared-AB12.cjs.check']);
    // Gone from the build's folder: its code goes at the next save (validate's second start).
    rmSync(path.join(folder, 'extra-EF56.cjs'));
    expect([laterStart(folder, cache, 'validate').saved, laterStart(folder, cache, 'validate').saved]).toEqual([0, 2]);
    expect(chunksKept()).toEqual(['main.cjs.check', 'main.cjs.validate', 'shared-AB12.cjs.check', 'shared-AB12.cjs.validate']);
  });

  it('keeps each build\'s code in a folder of its own: two installs never remove each other\'s; the four most recently saved stay, none unsaved for 90 days', () => {
    // Two installs of one version, copied at other times: each start of either hits its own code.
    const installed = chunks();
    const other = later(installed);
    utimesSync(path.join(other, 'main.cjs'), BUILT + 60, BUILT + 60);
    const cache = tempDir('steward-v8-');
    for (const folder of [installed, other, installed, other]) laterStart(folder, cache, 'check');
    expect([installed, other, installed, other].map((folder) => laterStart(folder, cache, 'check', 2).uses)).toEqual(Array(4).fill(['hit', 'hit']));
    // Three later builds of the first: the fourth build saved drops the first saved.
    const builds = [installed, other];
    for (let second = 1; second <= 3; second++) {
      const build = later(installed);
      rebuildMain(build, second);
      expect([laterStart(build, cache, 'check').saved, laterStart(build, cache, 'check').saved]).toEqual([0, 2]);
      builds.push(build);
    }
    expect(builds.map((folder) => existsSync(kept(cache, folder)))).toEqual([false, true, true, true, true]);
    // One left unsaved for 91 days: dropped at the next save, whichever build's.
    const longAgo = new Date(Date.now() - 91 * 86_400_000);
    utimesSync(kept(cache, builds[2]!), longAgo, longAgo);
    expect([laterStart(builds[4]!, cache, 'validate').saved, laterStart(builds[4]!, cache, 'validate').saved]).toEqual([0, 2]);
    expect(builds.map((folder) => existsSync(kept(cache, folder)))).toEqual([false, true, false, true, true]);
  });

  it('drops another Node version\'s kept code unsaved for 90 days (a Node since upgraded), and only that', () => {
    const cache = tempDir('steward-v8-');
    const old = path.join(cache, `v18.20.10-${process.arch}`);
    const recent = path.join(cache, `v22.1.0-${process.arch}`);
    const notOurs = ['notes', `my-v18.20.0-${process.arch}`, `v18.20.0-${process.arch}.d`].map((name) => path.join(cache, name));
    for (const dir of [old, recent, ...notOurs]) {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'main.cjs.check.00.bin'), 'code');
    }
    const longAgo = new Date(Date.now() - 91 * 86_400_000);
    for (const dir of [old, ...notOurs]) utimesSync(dir, longAgo, longAgo);
    utimesSync(recent, new Date(Date.now() - 89 * 86_400_000), new Date(Date.now() - 89 * 86_400_000));
    // A second start of `check` (its first left the marker): it keeps code, and prunes.
    const folder = chunks();
    mkdirSync(kept(cache, folder), { recursive: true });
    writeFileSync(path.join(kept(cache, folder), 'check.started'), '');
    const loader = chunkLoader(folder, cache, 'check');
    loader.require('main.cjs');
    expect(loader.saveCodeCache()).toBe(2);
    expect([old, recent, ...notOurs, kept(cache, folder)].map((dir) => existsSync(dir))).toEqual([false, true, true, true, true, true]);
  });
});

describe('the cache name of a start', () => {
  it('is its first word when it looks like a command, else "other"', () => {
    expect(cacheNameOf(['check', '--from', 'snapshot.json'])).toBe('check');
    expect(cacheNameOf(['-q', 'validate', '-c', 'steward.yaml'])).toBe('validate');
    expect(cacheNameOf(['--help'])).toBe('other');
    expect(cacheNameOf(['--config', 'Steward.yaml', 'check'])).toBe('other');
    expect(cacheNameOf([])).toBe('other');
    // A name is a part of a file name: letters and dashes, at most 32.
    expect(cacheNameOf(['steward.yaml'])).toBe('other');
    expect(cacheNameOf([`c${'x'.repeat(31)}`])).toBe(`c${'x'.repeat(31)}`);
    expect(cacheNameOf([`c${'x'.repeat(32)}`])).toBe('other');
  });
});
