// Evidence packs tampered with as an auditor's adversary would: the human reports edited to say
// "pass" with the manifest re-hashed, a manifest line leading out of the pack, a symlinked folder
// inside it. Each is exit 1 naming it; nothing outside the pack is read.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function pack(): Promise<{ dir: string; out: string }> {
  const dir = copyDemo();
  const env = { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: sandbox.token };
  const r = await runCli(['evidence', '--config', 'steward.yaml', '--out', 'pack'], { cwd: dir, env });
  expect(r.code).toBe(1);
  return { dir, out: path.join(dir, 'pack') };
}

const sha256 = (text: Buffer | string) => createHash('sha256').update(text).digest('hex');

/** Rewrites MANIFEST.sha256 so every listed file's hash matches it again (what a forger does). */
function rehash(out: string, extra: string[] = []): void {
  const manifest = path.join(out, 'MANIFEST.sha256');
  const lines = readFileSync(manifest, 'utf8').split('\n').filter(Boolean);
  const rehashed = lines.map((l) => {
    const name = l.slice(66);
    return `${sha256(readFileSync(path.join(out, name)))}  ${name}`;
  });
  writeFileSync(manifest, `${[...rehashed, ...extra].join('\n')}\n`);
}

describe('steward verify on a tampered pack', () => {
  it('report.html and report.md edited to say pass, the manifest re-hashed: exit 1 naming both', async () => {
    const { dir, out } = await pack();
    for (const name of ['report.html', 'report.md']) {
      const file = path.join(out, name);
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('fail', 'pass').replaceAll('❌', '✅'));
    }
    rehash(out);
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  report.md: does not match report.json (rendered again from it, it differs)\n');
    expect(r.stdout).toContain('  report.html: does not match report.json (rendered again from it, it differs)\n');
    expect(r.stdout).not.toContain('sha256 differs');
  });

  it('a manifest line leading out of the pack is exit 1 naming it, and the file outside is never read', async () => {
    const { dir, out } = await pack();
    const outside = path.join(tempDir('steward-outside-'), 'secret.txt');
    writeFileSync(outside, 'outside');
    const rel = path.relative(out, outside);
    rehash(out, [`${sha256('outside')}  ${rel}`, `${sha256('x')}  /etc/hostname`]);
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  ${rel}: outside the pack (not read)\n`);
    expect(r.stdout).toContain('  /etc/hostname: outside the pack (not read)\n');
    // The hash of the outside file matches: had it been read, it would have passed as listed.
    expect(r.stdout).not.toContain('verified');
  });

  it('a symlinked folder inside the pack is exit 1 naming it; what it points to is not followed', async () => {
    const { dir, out } = await pack();
    const elsewhere = tempDir('steward-elsewhere-');
    renameSync(path.join(out, 'policies'), path.join(elsewhere, 'policies'));
    mkdirSync(path.join(elsewhere, 'unused'));
    symlinkSync(path.join(elsewhere, 'policies'), path.join(out, 'policies'));
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  policies: a symbolic link (not followed: a pack holds only its own files)\n');
  });
});
