// CLI conventions: --quiet, --color/--no-color and FORCE_COLOR, shell completion, `-` for stdin,
// a terminal reporting 0 columns, validate without a config, an unwritable --output, --help.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-conventions-0001' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const ESC = '\u001b[';
const ONLY = ['--only', 'queue-no-admin-for-users'];

describe('--quiet', () => {
  it('drops warnings, keeps the report and the errors', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [ds-0001], filesets: {} }\n');
    const args = ['check', '--only', 'datasets-have-an-owner', '--only', 'fileset-files-sha256', '--fail-on', 'none'];
    const loud = await runCli(args, { cwd: dir, env: sandboxEnv(sandbox) });
    expect(loud.stderr).toBe('steward: policy fileset-files-sha256 checked nothing: scope.filesets is empty\n');
    const quiet = await runCli(['--quiet', ...args], { cwd: dir, env: sandboxEnv(sandbox) });
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
    const timeless = (t: string) => t.replace(/[\d.]+s ·/g, 's ·');
    expect(timeless(quiet.stdout)).toBe(timeless(loud.stdout));
    const bad = await runCli(['-q', 'check', '--fail-on', 'bogus'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toBe('');
  });
});

describe('colour', () => {
  const check = (args: string[], env: Record<string, string> = {}) =>
    runCli([...args, 'check', '--config', 'steward.yaml', ...ONLY], { cwd: copyDemo(), env: { ...sandboxEnv(sandbox), ...env } });

  it('none in a pipe by default; --color and FORCE_COLOR turn it on; --no-color wins over FORCE_COLOR', async () => {
    expect((await check([])).stdout).not.toContain(ESC);
    expect((await check(['--color'])).stdout).toContain(ESC);
    expect((await check([], { FORCE_COLOR: '1' })).stdout).toContain(ESC);
    expect((await check([], { FORCE_COLOR: '0' })).stdout).not.toContain(ESC);
    expect((await check(['--no-color'], { FORCE_COLOR: '1' })).stdout).not.toContain(ESC);
  });
});

describe('a terminal that reports 0 columns', () => {
  it('is treated as 80 columns wide', async () => {
    let out = '';
    const io = {
      stdout: { write: (t: string) => (out += t), isTTY: false, columns: 0 },
      stderr: { write: () => true, isTTY: false, columns: 0 },
      env: sandboxEnv(sandbox),
      cwd: copyDemo(),
    };
    const code = await run(['node', 'steward', 'check', '--config', 'steward.yaml', ...ONLY], io);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(lines.some((l) => l.length > 60)).toBe(true); // wrapped at 80, not at 1
  });
});

describe('steward completion', () => {
  it('bash: completes commands and each command\'s own flags', () => {
    const script = execFileSync(process.execPath, [path.resolve('dist/cli.js'), 'completion', 'bash'], { encoding: 'utf8' });
    const complete = (words: string[]) =>
      execFileSync('bash', ['-c', `${script}\nCOMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _steward; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8' }).trim();
    expect(complete(['steward', 'ch'])).toBe('check');
    expect(complete(['steward', 'check', '--fail'])).toBe('--fail-on');
    expect(complete(['steward', 'waive', '--exp'])).toBe('--expires');
    expect(complete(['steward', 'list', '--fail'])).toBe('');
  });

  it('bash: completes values (formats, levels, the policy ids the config loads) and global flags after a subcommand', () => {
    const cli = path.resolve('dist/cli.js');
    const script = execFileSync(process.execPath, [cli, 'completion', 'bash'], { encoding: 'utf8' });
    const dir = copyDemo();
    const complete = (words: string[]) =>
      execFileSync('bash', ['-c', `steward() { "${process.execPath}" "${cli}" "$@"; }\n${script}\nCOMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _steward; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd: dir }).trim();
    expect(complete(['steward', 'check', '--format', 's'])).toBe('sarif');
    expect(complete(['steward', 'check', '--fail-on', 'c'])).toBe('critical');
    expect(complete(['steward', 'diff', '--fail-on', 'n'])).toBe('none');
    expect(complete(['steward', 'check', '--only', 'queue-no-admin-'])).toBe('queue-no-admin-for-users');
    expect(complete(['steward', 'check', '--skip', 'queue-no-admin-'])).toBe('queue-no-admin-for-users');
    expect(complete(['steward', 'check', '--qu'])).toBe('--quiet');
    expect(complete(['steward', 'list', '--no-col'])).toBe('--no-color');
  });

  it('zsh and fish name every command; an unknown shell is exit 2', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    const fish = await runCli(['completion', 'fish']);
    for (const cmd of ['check', 'fix', 'doctor', 'validate', 'waive', 'evidence', 'verify', 'completion']) {
      expect(zsh.stdout).toContain(`'${cmd}:`);
      expect(fish.stdout).toContain(`-a ${cmd} `);
    }
    expect(fish.stdout).toContain("complete -c steward -n '__fish_seen_subcommand_from check' -l fail-on -x -a 'info low medium high critical none'");
    expect(fish.stdout).toContain("complete -c steward -n '__fish_seen_subcommand_from check' -l only -x -a '(steward list --format ids 2>/dev/null)'");
    expect(zsh.stdout).toContain("'--format=[]:value:(text json sarif");
    const bad = await runCli(['completion', 'powershell']);
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, 'completion: unknown shell "powershell" (one of bash, zsh, fish)']);
  });
});

describe('inputs and outputs', () => {
  it('waive --from - reads the report from stdin', async () => {
    const dir = copyDemo();
    const report = await runCli(['check', '--config', 'steward.yaml', ...ONLY, '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) });
    const r = await runCli(['waive', '--from', '-', '--owner', 'o', '--reason', 'r', '--expires', '2099-01-01'], { cwd: dir, input: report.stdout });
    expect([r.code, r.stdout]).toEqual([0, 'appended 2 waivers to waivers.yaml\n']);
  });

  it('check --from - replays a snapshot from stdin', async () => {
    const dir = copyDemo();
    const snap = await runCli(['snapshot', '--config', 'steward.yaml', ...ONLY, '--out', 'snap.json'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(snap.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const fromFile = await runCli(['check', '--config', 'steward.yaml', ...ONLY, '--from', 'snap.json', '--format', 'json'], { cwd: dir });
    const fromStdin = await runCli(['check', '--config', 'steward.yaml', ...ONLY, '--from', '-', '--format', 'json'], { cwd: dir, input: readFileSync(path.join(dir, 'snap.json'), 'utf8') });
    expect([fromStdin.code, fromFile.code]).toEqual([1, 1]);
    const findings = (out: string) => (JSON.parse(out) as { findings: { fingerprint: string }[] }).findings.map((f) => f.fingerprint);
    expect(findings(fromStdin.stdout)).toEqual(findings(fromFile.stdout));
    expect(JSON.parse(fromStdin.stdout).instance).toBe('snapshot:stdin');
  });

  it('validate without a config (or paths) says so: exit 2', async () => {
    const r = await runCli(['validate'], { cwd: tempDir('steward-conv-') });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('--config: no steward.yaml found (looked in .; a repository is searched up to its root): run `steward init`, pass --config FILE, or --config builtin to run the built-in pack with every default');
  });

  it('an --output that cannot be written is exit 2 before any request', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'taken'), 'a file');
    mkdirSync(path.join(dir, 'reports'));
    const r = await runCli(['check', '--config', 'steward.yaml', '-o', 'json=taken/r.json', '-o', 'sarif=reports'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([`--output: json=taken/r.json: ${path.join(dir, 'taken')} is not a directory`, '--output: sarif=reports: is a directory']);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('an --output under /proc (writable to root by its mode, refused by the kernel) is exit 2 before any request, not a hang', async () => {
    const r = await runCli(['check', '--config', 'demo/steward.yaml', '-o', 'json=/proc/nope/x.json'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^--output: json=\/proc\/nope\/x\.json: cannot create the folder \/proc\/nope \(E[A-Z]+\)$/);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('--help shows examples, exit codes and environment variables', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const text of ['Examples:', 'steward check --sandbox', 'Exit codes:', '  2  bad input', 'Environment:', 'STEWARD_TOKEN', 'FORCE_COLOR', '--quiet', '--no-color']) {
      expect(r.stdout).toContain(text);
    }
  });
});
