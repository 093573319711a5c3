// What a config may name: inside the project (the repository around the config, found by its
// `.git`, else the config's folder), a regular file (or a folder where one is allowed), never
// through a link out of it.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, uncontainedPath } from '../../src/io/contained-path.js';

function tree(): { top: string; nested: string; outside: string } {
  const top = mkdtempSync(path.join(tmpdir(), 'steward-contained-'));
  mkdirSync(path.join(top, '.git'));
  const nested = path.join(top, 'ci', 'checks');
  mkdirSync(nested, { recursive: true });
  writeFileSync(path.join(nested, 'ids.txt'), 'a\n');
  mkdirSync(path.join(nested, 'lists'));
  const outside = mkdtempSync(path.join(tmpdir(), 'steward-outside-'));
  writeFileSync(path.join(outside, 'secret.txt'), 'x\n');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(nested, 'link.txt'));
  return { top, nested, outside };
}

describe('projectRoot', () => {
  it('is the nearest folder holding .git above the config; without one, the config folder itself', () => {
    const { top, nested, outside } = tree();
    expect(projectRoot(nested)).toBe(top);
    expect(projectRoot(top)).toBe(top);
    expect(projectRoot(outside)).toBe(outside);
  });
});

describe('uncontainedPath', () => {
  it('a file inside is fine; a folder only where folders are allowed; the root itself as a folder', () => {
    const { top, nested } = tree();
    expect(uncontainedPath('ids.txt', nested, top)).toBeNull();
    expect(uncontainedPath('../../ci/checks/ids.txt', nested, top)).toBeNull();
    expect(uncontainedPath('lists', nested, top)).toBe('"lists" is not a regular file');
    expect(uncontainedPath('lists', nested, top, 'file or folder')).toBeNull();
    expect(uncontainedPath('../..', nested, top, 'file or folder')).toBeNull();
    expect(uncontainedPath('missing.txt', nested, top)).toBeNull();
  });

  it('an absolute path, a way out, or a link out is refused, each saying which', () => {
    const { top, nested } = tree();
    expect(uncontainedPath('/etc/passwd', nested, top)).toBe(`"/etc/passwd" is an absolute path: name a file inside the project (${top})`);
    expect(uncontainedPath('../../../x.txt', nested, top)).toBe(`"../../../x.txt" leads out of the project (${top})`);
    expect(uncontainedPath('link.txt', nested, top)).toBe(`"link.txt" is a link out of the project (${top})`);
  });
});
