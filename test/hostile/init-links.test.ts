// `steward init` writes only regular files inside its target: a dangling symlink where a file
// would go, or a symlinked `.github`, is refused (exit 2, named), and nothing is written at all,
// inside the target or where the link points.
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../cli/helpers.js';

describe('steward init and symbolic links', () => {
  it('a dangling symlink at steward.yaml is refused; its target is never created', async () => {
    const dir = tempDir('steward-init-');
    const outside = path.join(tempDir('steward-outside-'), 'planted.yaml');
    symlinkSync(outside, path.join(dir, 'steward.yaml'));
    const r = await runCli(['init'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('steward.yaml: is a symbolic link (init writes only regular files inside the target)');
    expect(existsSync(outside)).toBe(false);
    expect(readdirSync(dir)).toEqual(['steward.yaml']);
  });

  it('a symlinked .github is refused; nothing lands in the folder it points to', async () => {
    const dir = tempDir('steward-init-');
    const elsewhere = tempDir('steward-elsewhere-');
    mkdirSync(path.join(elsewhere, 'workflows'));
    symlinkSync(elsewhere, path.join(dir, '.github'));
    const r = await runCli(['init'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.github: is a symbolic link (init writes only regular files inside the target)');
    expect(readdirSync(path.join(elsewhere, 'workflows'))).toEqual([]);
    expect(readdirSync(dir)).toEqual(['.github']);
  });
});
