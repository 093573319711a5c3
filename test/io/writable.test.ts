// unwritable(): why a file steward is about to write cannot be, asked of the file system itself
// (its missing folders are made, a probe file is created and removed).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwritable } from '../../src/io/writable.js';

const temp = () => mkdtempSync(path.join(os.tmpdir(), 'steward-writable-'));

describe('unwritable', () => {
  it('a new file in a new folder: the folders are made, nothing else is left', () => {
    const dir = temp();
    expect(unwritable(path.join(dir, 'a', 'b', 'report.json'))).toBeNull();
    expect(readdirSync(path.join(dir, 'a', 'b'))).toEqual([]);
  });

  it('an existing file may be replaced: null, and it is left as it was', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'r.json'), '{}');
    expect(unwritable(path.join(dir, 'r.json'))).toBeNull();
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('a folder, and a path through a file, say why', () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'taken'));
    writeFileSync(path.join(dir, 'file'), '');
    expect(unwritable(path.join(dir, 'taken'))).toBe('is a directory');
    expect(unwritable(path.join(dir, 'file', 'deeper', 'r.json'))).toBe(`${path.join(dir, 'file')} is not a directory`);
    expect(existsSync(path.join(dir, 'file', 'deeper'))).toBe(false);
  });

  it('a file of the probe\'s name already there is left alone: the folder is refused, naming the error', () => {
    const dir = temp();
    const probe = path.join(dir, `.steward-probe-${process.pid}`);
    writeFileSync(probe, 'not ours');
    expect(unwritable(path.join(dir, 'r.json'))).toBe(`cannot create files in ${dir} (EEXIST)`);
    expect(readFileSync(probe, 'utf8')).toBe('not ours');
  });

  it('a folder no file can be created in (under /proc) is refused, naming the error', () => {
    if (process.platform !== 'linux') return;
    expect(unwritable('/proc/self/report.json')).toBe('cannot create files in /proc/self (ENOENT)');
  });

  it('an existing file is replaced by one made beside it: a folder that takes no new file is refused', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'r.json'), '{}');
    const probe = path.join(dir, `.steward-probe-${process.pid}`);
    writeFileSync(probe, 'not ours');
    expect(unwritable(path.join(dir, 'r.json'))).toBe(`cannot create files in ${dir} (EEXIST)`);
  });

  it('a device is written into: no probe in its folder', () => {
    if (process.platform !== 'linux') return;
    expect(unwritable('/dev/null')).toBeNull();
    expect(readdirSync('/dev').filter((name) => name.startsWith('.steward-probe-'))).toEqual([]);
  });

  it('a place where no folder can be made (under /proc, where a recursive mkdir never returns) says so at once', () => {
    if (process.platform !== 'linux') return;
    expect(unwritable('/proc/steward-nope/h.sqlite')).toMatch(/^cannot create the folder \/proc\/steward-nope \(E[A-Z]+\)$/);
  });
});
