// The code cache's folder: steward's own cache folder, made owner-only, and none where another
// account could change that folder (never the shared temporary folder).
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFolder, codeCacheFolder, keepFile, removeLeftPartials, yamlAnswersFolder } from '../../src/cli/code-cache.js';
import { tempDir } from './helpers.js';

describe('the code cache folder', () => {
  it('is steward\'s folder in the cache home: an absolute XDG_CACHE_HOME, else ~/.cache; LOCALAPPDATA on Windows', () => {
    expect(cacheFolder({ XDG_CACHE_HOME: '/x/cache' }, 'linux')).toBe('/x/cache/steward');
    expect(cacheFolder({}, 'linux')).toBe(path.join(os.homedir(), '.cache', 'steward'));
    expect(cacheFolder({ XDG_CACHE_HOME: '' }, 'darwin')).toBe(path.join(os.homedir(), '.cache', 'steward'));
    // A relative one is not a cache home (it would put the cache in the project).
    expect(cacheFolder({ XDG_CACHE_HOME: 'cache' }, 'linux')).toBe(path.join(os.homedir(), '.cache', 'steward'));
    expect(cacheFolder({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local', XDG_CACHE_HOME: '/x' }, 'win32')).toBe(path.join('C:\\Users\\a\\AppData\\Local', 'steward'));
    expect(cacheFolder({}, 'win32')).toBe(path.join(os.homedir(), 'AppData', 'Local', 'steward'));
  });

  it('is <cache home>/steward/v8-code, made owner-only', () => {
    const home = tempDir('steward-cc-');
    const folder = codeCacheFolder({ XDG_CACHE_HOME: home });
    expect(folder).toBe(path.join(home, 'steward', 'v8-code'));
    if (process.platform !== 'win32') {
      expect(statSync(path.join(home, 'steward')).mode & 0o777).toBe(0o700);
      expect(statSync(folder!).mode & 0o777).toBe(0o700);
    }
  });

  it('is none when NODE_DISABLE_COMPILE_CACHE turns cached code off, and nothing is made', () => {
    const home = tempDir('steward-cc-');
    expect(codeCacheFolder({ XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' })).toBeNull();
    expect(existsSync(path.join(home, 'steward'))).toBe(false);
  });

  it('keeps the answers about input files beside it, owner-only, under the same switch', () => {
    const home = tempDir('steward-cc-');
    expect(yamlAnswersFolder({ XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' })).toBeNull();
    expect(existsSync(path.join(home, 'steward'))).toBe(false);
    const folder = yamlAnswersFolder({ XDG_CACHE_HOME: home });
    expect(folder).toBe(path.join(home, 'steward', 'yaml-answers'));
    if (process.platform !== 'win32') {
      expect(statSync(folder!).mode & 0o777).toBe(0o700);
      chmodSync(folder!, 0o733);
      expect(yamlAnswersFolder({ XDG_CACHE_HOME: home })).toBeNull();
    }
  });

  it.skipIf(process.platform === 'win32')('is none where another account could change a folder on the way', () => {
    // steward's folder open to everyone (made so by someone else before the first run).
    const open = tempDir('steward-cc-');
    mkdirSync(path.join(open, 'steward'), { mode: 0o700 });
    chmodSync(path.join(open, 'steward'), 0o777);
    expect(codeCacheFolder({ XDG_CACHE_HOME: open })).toBeNull();
    // The cache home itself writable by the group: steward's folder could be swapped under it.
    const shared = tempDir('steward-cc-');
    chmodSync(shared, 0o775);
    expect(codeCacheFolder({ XDG_CACHE_HOME: shared })).toBeNull();
    // The cache's own folder left open.
    const inner = tempDir('steward-cc-');
    mkdirSync(path.join(inner, 'steward', 'v8-code'), { recursive: true, mode: 0o700 });
    chmodSync(path.join(inner, 'steward', 'v8-code'), 0o733);
    expect(codeCacheFolder({ XDG_CACHE_HOME: inner })).toBeNull();
    // Closed again, it is used.
    chmodSync(path.join(inner, 'steward', 'v8-code'), 0o700);
    expect(codeCacheFolder({ XDG_CACHE_HOME: inner })).toBe(path.join(inner, 'steward', 'v8-code'));
  });

  it.skipIf(process.getuid?.() !== 0)('is none where a folder on the way belongs to another account, closed or not (run as root: chown)', () => {
    const home = tempDir('steward-cc-');
    mkdirSync(path.join(home, 'steward', 'v8-code'), { recursive: true, mode: 0o700 });
    chownSync(path.join(home, 'steward'), 4242, 4242);
    expect(codeCacheFolder({ XDG_CACHE_HOME: home })).toBeNull();
    chownSync(path.join(home, 'steward'), 0, 0);
    expect(codeCacheFolder({ XDG_CACHE_HOME: home })).toBe(path.join(home, 'steward', 'v8-code'));
  });

  it('is none when the folder cannot be made (a file in the way)', () => {
    const home = tempDir('steward-cc-');
    writeFileSync(path.join(home, 'steward'), 'not a folder');
    expect(codeCacheFolder({ XDG_CACHE_HOME: home })).toBeNull();
  });
});

describe('keepFile', () => {
  it('writes a kept file whole and owner-only, replacing the one before', () => {
    const folder = tempDir('steward-cc-');
    const file = path.join(folder, 'kept.bin');
    keepFile(file, 'first');
    keepFile(file, new Uint8Array([104, 105]));
    expect(readFileSync(file, 'utf8')).toBe('hi');
    expect(readdirSync(folder)).toEqual(['kept.bin']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('throws where it cannot rename into place, leaving no half-written file', () => {
    const folder = tempDir('steward-cc-');
    mkdirSync(path.join(folder, 'in-the-way', 'inside'), { recursive: true });
    expect(() => keepFile(path.join(folder, 'in-the-way'), 'x')).toThrow();
    expect(readdirSync(folder)).toEqual(['in-the-way']);
  });
});

describe('removeLeftPartials', () => {
  it('removes what a start killed while writing left an hour ago, and nothing else', () => {
    const folder = tempDir('steward-cc-');
    const names = ['check.json.4343.partial', 'check.json.4242.partial', 'check.json', 'main.cjs.check.ab.bin.77.partial', 'notes.partial', 'check.json.1.partial.txt'];
    for (const name of names) writeFileSync(path.join(folder, name), 'x');
    const old = new Date(Date.now() - 61 * 60_000);
    for (const name of ['check.json.4343.partial', 'main.cjs.check.ab.bin.77.partial', 'notes.partial', 'check.json.1.partial.txt']) utimesSync(path.join(folder, name), old, old);
    // One being written now (minutes old) stays, as does every file that is not keepFile's.
    expect(removeLeftPartials(folder)).toBe(2);
    expect(readdirSync(folder).sort()).toEqual(['check.json', 'check.json.1.partial.txt', 'check.json.4242.partial', 'notes.partial']);
    expect(removeLeftPartials(folder, Date.now() + 61 * 60_000)).toBe(1);
    expect(removeLeftPartials(path.join(folder, 'gone'))).toBe(0);
  });
});
