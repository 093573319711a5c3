// What the CLI tells the user around a run: why `fix --apply` applied nothing, that manifests
// still declare the old state after applying, how to start without a steward.yaml, and which
// flags `snapshot` offers. The built CLI against a sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-run-messages-01' });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.resetCounts();
  sandbox.configure({ misconfiguredStatus: 200 });
});

describe('steward fix --apply', () => {
  it('with a policy that could not be evaluated: prints the plan, applies nothing and says why (exit 3)', async () => {
    sandbox.configure({ misconfiguredStatus: 403 });
    const demo = copyDemo();
    const only = ['--only', 'queue-no-admin-for-users', '--only', 'no-misconfigured-schedules'];
    const r = await runCli(['fix', '--config', 'steward.yaml', ...only, '--apply', '--yes', '--journal', 'j.jsonl'], {
      env: sandboxEnv(sandbox),
      cwd: demo,
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Fix plan [0-9a-f]{16}: 2 changes\n/);
    expect(r.stderr).toContain(
      '\nnot applied: 1 policy could not be evaluated (fix them or narrow the run with --only)\n',
    );
    expect(sandbox.counts.updateQueuePermissions).toBe(0);
  });

  it('without --write: says the manifests still declare the old state; with --write it does not', async () => {
    const demo = copyDemo();
    const env = sandboxEnv(sandbox);
    const args = ['fix', '--config', 'steward.yaml', '--only', 'data-files-not-public', '--apply', '--yes'];
    const hint = 'the manifests still declare the old state: run with --write, or update the manifests, or the next check still fails\n';
    const plain = await runCli([...args, '--journal', 'a.jsonl'], { env, cwd: demo });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('applied 1 of 1 changes; journal: a.jsonl\n');
    expect(plain.stderr.endsWith(hint)).toBe(true);
    const written = await runCli([...args, '--write', '--journal', 'b.jsonl'], { env, cwd: demo });
    expect(written.code).toBe(0);
    expect(written.stderr).not.toContain('still declare');
    expect(readFileSync(path.join(demo, 'permissions/data-files/42.yaml'), 'utf8')).toContain('publicAccess: false');
  });
});

describe('steward check without a steward.yaml', () => {
  it('exit 2 before any request, suggesting `steward init`', async () => {
    const r = await runCli(['check'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('; no steward.yaml here either: `steward init` writes a starter one\n');
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('steward snapshot --help', () => {
  it('offers no gate or replay flags (--fail-on, --from): recording has no verdict and reads the instance', async () => {
    const r = await runCli(['snapshot', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--out <file>');
    expect(r.stdout).toContain('--sandbox');
    expect(r.stdout).not.toContain('--fail-on');
    expect(r.stdout).not.toContain('--from');
    const bad = await runCli(['snapshot', '--out', 'x.json', '--fail-on', 'high']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("unknown option '--fail-on'")]);
  });
});
