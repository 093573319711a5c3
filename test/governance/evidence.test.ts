// Evidence packs: `evidence` then `verify` is exit 0; one byte changed in the snapshot or the
// report is exit 1 naming the file; the pack holds no token in any form.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli } from '../cli/helpers.js';

const TOKEN = 'tok-evidence-7d2f90c1a8b3';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function pack(): Promise<{ dir: string; pack: string }> {
  const dir = copyDemo();
  const env = { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: TOKEN };
  const r = await runCli(['evidence', '--config', 'steward.yaml', '--out', 'pack'], { cwd: dir, env });
  expect(r.code).toBe(1); // the demo's planted violations
  expect(r.stdout).toMatch(/^wrote pack: 25 files, verdict fail \(\d+ violations, 0 errors\)\n$/);
  return { dir, pack: path.join(dir, 'pack') };
}

/** Flips one byte of `file` inside the pack, at the middle of its text. */
function changeOneByte(file: string): void {
  const bytes = readFileSync(file);
  const at = bytes.indexOf('"', Math.floor(bytes.length / 2)) + 1;
  bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
  writeFileSync(file, bytes);
}

describe('evidence and verify', () => {
  it('a fresh pack verifies: exit 0; it holds report, snapshot, policies, config, manifests, waivers, version, hashes', async () => {
    const { dir, pack: out } = await pack();
    const files = filesUnder(out).map((f) => path.relative(out, f)).sort();
    expect(files).toEqual(
      expect.arrayContaining(['MANIFEST.sha256', 'report.json', 'report.md', 'report.html', 'snapshot.json', 'version.json', 'project/steward.yaml', 'project/waivers.yaml', 'policies/06-queues.yaml', 'project/permissions/queues/finance-intake.yaml']),
    );
    expect(readFileSync(path.join(out, 'MANIFEST.sha256'), 'utf8').trim().split('\n')).toHaveLength(files.length - 1);
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.stdout).toMatch(/^verified: 24 files match their hashes; re-evaluation gives the recorded verdict \(fail\) and all \d+ findings\n$/);
    expect(r.code).toBe(0);
    // No token or header in any form in any file.
    for (const f of filesUnder(out)) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toContain(TOKEN);
      expect(text, f).not.toContain(Buffer.from(TOKEN).toString('base64').slice(0, 12));
      expect(text.toLowerCase(), f).not.toContain('x-service-developer-token');
      // The header, never the grant names (`authorization.roles` is a role's grant, data like any other).
      expect(text.toLowerCase(), f).not.toMatch(/authorization"?\s*:|bearer\s/);
    }
  });

  it('one byte changed in the snapshot: exit 1 naming snapshot.json', async () => {
    const { dir, pack: out } = await pack();
    changeOneByte(path.join(out, 'snapshot.json'));
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  snapshot.json: changed (sha256 differs)\n');
  });

  it('one byte changed in the report: exit 1 naming report.json and the finding that no longer matches', async () => {
    const { dir, pack: out } = await pack();
    const file = path.join(out, 'report.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"status": "violation"', '"status": "violatioN"'));
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  report.json: changed (sha256 differs)\n');
    expect(r.stdout).toMatch(/ {2}finding .+: the report says "violatioN: .+", re-evaluation gives "violation: .+"\n/);
  });

  it('a file added to the pack is named; a directory that is not a pack is exit 2', async () => {
    const { dir, pack: out } = await pack();
    writeFileSync(path.join(out, 'extra.txt'), 'x');
    const r = await runCli(['verify', 'pack'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  extra.txt: not in MANIFEST.sha256\n');
    const none = await runCli(['verify', 'project'], { cwd: out });
    expect(none.code).toBe(2);
  });
});
