// What the CLI tells the user around a run: why `fix --apply` applied nothing, that manifests
// still declare the old state after applying, how to start without a steward.yaml, and which
// flags `snapshot` offers. The built CLI against a sandbox.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  it('exit 2 before any request naming where it looked, suggesting `steward init` or --config builtin (never the built-in pack by accident)', async () => {
    const r = await runCli(['check', '--base-url', sandbox.baseUrl], { cwd: tempDir(), env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '--config: no steward.yaml found (looked in .; a repository is searched up to its root): run `steward init`, pass --config FILE, or --config builtin to run the built-in pack with every default\n' +
        'steward: bad input; nothing was sent to the API\n',
    );
    for (const command of [['list'], ['validate'], ['test'], ['doctor', '--base-url', sandbox.baseUrl]]) {
      const other = await runCli(command, { cwd: tempDir(), env: sandboxEnv(sandbox) });
      expect([command[0], other.code, other.stderr.split('\n')[0]]).toEqual([command[0], 2, expect.stringMatching(/^--config: no steward\.yaml found/)]);
    }
    expect(sandbox.totalRequests()).toBe(0);
    const builtin = await runCli(['check', '--config', 'builtin', '--base-url', sandbox.baseUrl, '--only', 'queue-no-admin-for-users', '--quiet'], { cwd: tempDir(), env: sandboxEnv(sandbox) });
    expect(builtin.code, builtin.stderr).toBe(2); // defaults on purpose: the built-in pack ran, its default scope lists no queue
    expect(builtin.stderr).toContain('the run evaluated nothing (no queue resources were found)');
  });

  it('finds the nearest steward.yaml up to the repository root and says which; one above the root is never used', async () => {
    const outside = tempDir('steward-above-');
    writeFileSync(path.join(outside, 'steward.yaml'), 'failOn: nonsense\n');
    const repo = path.join(outside, 'repo');
    mkdirSync(path.join(repo, '.git'), { recursive: true });
    mkdirSync(path.join(repo, 'a', 'b'), { recursive: true });
    const deep = path.join(repo, 'a', 'b');
    const none = await runCli(['list'], { cwd: deep });
    expect([none.code, none.stderr.split('\n')[0]]).toEqual([2, `--config: no steward.yaml found (looked in ., ${path.join(repo, 'a')}, ${repo}; a repository is searched up to its root): run \`steward init\`, pass --config FILE, or --config builtin to run the built-in pack with every default`]);
    writeFileSync(path.join(repo, 'steward.yaml'), 'policies: [builtin]\nfailOn: high\n');
    const found = await runCli(['check', '--print-config', '--format', 'json'], { cwd: deep });
    expect([found.code, found.stderr]).toEqual([0, `steward: using ${path.join(repo, 'steward.yaml')}\n`]);
    const printed = JSON.parse(found.stdout) as { file: string; settings: { setting: string; value: string; origin: string }[] };
    expect(printed.file).toBe(path.join(repo, 'steward.yaml'));
    const setting = (name: string) => printed.settings.find((s) => s.setting === name);
    expect(setting('failOn')).toEqual({ setting: 'failOn', value: 'high', origin: `${path.join(repo, 'steward.yaml')}:2` });
    expect(setting('concurrency')).toEqual({ setting: 'concurrency', value: '8', origin: 'default' });
  });
});

describe('steward check --print-config', () => {
  it('prints every setting with where it came from: flag, environment, file:line, default; a token as set, never its value; no request', async () => {
    const dir = copyDemo();
    const r = await runCli(['check', '--print-config', '--fail-on', 'high', '--concurrency', '3'], { cwd: dir, env: { ...sandboxEnv(sandbox), STEWARD_TOKEN: 'tok-print-config-secret' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('config: steward.yaml');
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/\s{2,}/);
    expect(row('failOn')).toEqual(['failOn', '--fail-on', 'high']);
    expect(row('concurrency')).toEqual(['concurrency', '--concurrency', '3']);
    expect(row('instance.baseUrl')).toEqual(['instance.baseUrl', 'STEWARD_BASE_URL', sandbox.baseUrl]);
    expect(row('instance.token')).toEqual(['instance.token', 'STEWARD_TOKEN', '(set)']);
    expect(row('policies')).toEqual(['policies', expect.stringMatching(/^steward\.yaml:\d+$/), '[builtin]']);
    expect(row('timeout')).toEqual(['timeout', 'default', '30m']);
    expect(r.stdout).not.toContain('tok-print-config-secret');
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
