// Two runs on one journal or one set of manifests never interleave: the second is refused (exit
// 2) naming the holder, before anything is read from or sent to the instance; a lock left by a
// process that is gone is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { InputError } from '../../src/core/problem.js';
import { lockFiles, lockPath } from '../../src/io/file-lock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, readTree, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
const sandboxes: Sandbox[] = [];
async function freshSandbox(): Promise<Sandbox> {
  sandbox = await startSandbox({ token: 'secret-token-for-concurrency' });
  sandboxes.push(sandbox);
  return sandbox;
}
afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

const holderLine = (pid: number) => new RegExp(`in use by steward fix --apply \\(pid ${pid} on ${hostname().replace(/[.]/g, '\\.')}, since [0-9T:.-]+Z\\)`);

describe('lockFiles', () => {
  it('a second lock on a held file is refused naming the holder; released, it can be taken again', () => {
    const file = path.join(tempDir('steward-lock-'), 'j.jsonl');
    const first = lockFiles([file], 'fix --apply', (f) => path.basename(f));
    let problems: string[] = [];
    try {
      lockFiles([file], 'fix --apply', (f) => path.basename(f));
    } catch (e) {
      problems = (e as InputError).problems.map((p) => `${p.file}: ${p.message}`);
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(holderLine(process.pid));
    expect(problems[0]).toMatch(/nothing was sent or written\. Wait for it to finish, or remove \.j\.jsonl\.lock if it is gone$/);
    first.release();
    expect(existsSync(lockPath(file))).toBe(false);
    lockFiles([file], 'fix --apply', (f) => f).release();
  });

  it('all or none: when one file is held, none of the others stays locked', () => {
    const dir = tempDir('steward-lock-');
    const [a, b] = [path.join(dir, 'a.yaml'), path.join(dir, 'b.yaml')];
    const held = lockFiles([b], 'fix --write', (f) => f);
    expect(() => lockFiles([a, b], 'fix --write', (f) => f)).toThrow(/in use by steward fix --write/);
    expect(existsSync(lockPath(a))).toBe(false);
    held.release();
  });

  it('a lock left by a process that is gone is taken over', () => {
    const file = path.join(tempDir('steward-lock-'), 'j.jsonl');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(lockPath(file), JSON.stringify({ pid: Number(dead), host: hostname(), purpose: 'fix --apply', since: '2026-01-01T00:00:00.000Z' }));
    const held = lockFiles([file], 'fix --apply', (f) => f);
    expect(JSON.parse(readFileSync(lockPath(file), 'utf8')).pid).toBe(process.pid);
    held.release();
  });
});

describe('fix runs on one journal or manifest', () => {
  beforeEach(async () => {
    await freshSandbox();
  });

  it('a journal held by another live run: exit 2 naming it, nothing read or sent', async () => {
    const demo = copyDemo();
    writeFileSync(
      path.join(demo, '.j.jsonl.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), purpose: 'fix --apply', since: '2026-11-23T20:00:00.000Z' }),
    );
    const r = await runCli(['fix', '--config', 'steward.yaml', '--apply', '--yes', '--journal', 'j.jsonl'], { env: sandboxEnv(sandbox), cwd: demo });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^j\.jsonl: /);
    expect(r.stderr).toMatch(holderLine(process.pid));
    expect(sandbox.totalRequests()).toBe(0);
    expect(existsSync(path.join(demo, 'j.jsonl'))).toBe(false);
  });

  it('a manifest held by another run: fix --write is exit 2 naming it; no manifest is rewritten', async () => {
    const demo = copyDemo();
    const manifest = path.join(demo, 'permissions/queues/finance-intake.yaml');
    const held = lockFiles([manifest], 'fix --apply', (f) => f);
    const before = readTree(demo);
    try {
      const r = await runCli(['fix', '--config', 'steward.yaml', '--write'], { env: sandboxEnv(sandbox), cwd: demo });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^permissions\/queues\/finance-intake\.yaml: in use by steward fix --apply/);
      expect(sandbox.totalRequests()).toBe(0);
      expect(readTree(demo)).toEqual(before);
    } finally {
      held.release();
    }
  });

  it('two runs started together on one journal send each change once', async () => {
    const demo = copyDemo();
    const args = ['fix', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--apply', '--yes', '--journal', 'j.jsonl'];
    const runs = await Promise.all([1, 2].map(() => runCli(args, { env: sandboxEnv(sandbox), cwd: demo })));
    // Either the second was refused while the first held the journal, or it started after and
    // resumed from it: never both sending.
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    expect(runs.map((r) => r.code).sort()).toSatisfy((codes: number[]) => codes.join() === '0,0' || codes.join() === '0,2');
    expect(readFileSync(path.join(demo, 'j.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(existsSync(path.join(demo, '.j.jsonl.lock'))).toBe(false);
    console.log(`hostile: two concurrent fix --apply on one journal: exit codes ${runs.map((r) => r.code).join(', ')}, ${sandbox.counts.updateQueuePermissions} writes (4 without the lock)`);
  });
});
