// The other commands end to end: check --sandbox (npm start), init, test, list, snapshot and
// check --from, baselines, fix refusing to apply without a terminal, fix resuming from its journal,
// the sandbox server.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initFiles, PINNED_ACTIONS } from '../../src/cli/init-templates.js';
import { DISCOVERABLE_SCOPES } from '../../src/library/index.js';
import { parse } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { loadWorkflowParser } from '../action/workflow-parser.js';
import { BUILTIN_POLICIES, CLI, copyDemo, findingKeys, PLANTED, REPO, runCli, sandboxEnv, tempDir } from './helpers.js';

const TOKEN = 'tok_commands_SECRET_51';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const DEMO = ['--config', 'demo/steward.yaml'];

describe('steward check --sandbox (npm start)', () => {
  it('prints the planted violations and exits 0, saying a real run would exit 1', async () => {
    const r = await runCli(['check', '--sandbox']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`✖ fail: ${PLANTED.length} violations (1 critical, 26 high, 17 medium, 9 low, 1 info), 1 waived,`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      'sandbox demo: these violations are planted (demo/PLANTED.md); a real run would exit 1 (failOn: low).',
    );
    expect(r.stdout).not.toContain('\x1b['); // not a TTY: no colour
  });

  it('is what `npm start` runs (after the build), as the README says', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toBe('npm run build --silent && node dist/cli.js check --sandbox');
    expect(readFileSync(path.join(REPO, 'README.md'), 'utf8')).toContain('`npm start` is `steward check --sandbox`');
  });

  it('with the user’s own --config it is a real run: exit 1 on violations, no demo footer', async () => {
    const demo = copyDemo();
    const r = await runCli(['check', '--sandbox', '--config', path.join(demo, 'steward.yaml'), '--only', 'data-files-not-public']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✖ fail: 1 violation');
    expect(r.stdout + r.stderr).not.toContain('sandbox demo');
  });
});

describe('a policy that compiles with a warning', () => {
  it('validate says it on stderr at its place and exits 0; check says it too, and the field it names fails every resource (exit 3)', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'p.yaml'),
      'policies:\n  - id: schedules-with-recipients\n    title: T\n    severity: low\n    resource: reportSchedule\n    assert: resource.recipientCont > 0\n    message: "{{ resource.id }}"\n',
    );
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [./p.yaml]\n');
    const warning = "p.yaml:6:22: 'recipientCont' is not a field reportSchedule declares (did you mean 'recipientCount'?): every resource without it fails this expression, and has() of it is false";
    expect(await runCli(['validate'], { cwd: dir })).toEqual({
      code: 0,
      stdout: 'valid: 1 policy, 0 card-sharing manifests, 0 queue manifests, 0 data-file manifests, 0 page-sharing manifests, 0 waivers (1 warning)\n',
      stderr: `steward: warning: ${warning}\n`,
    });
    const checked = await runCli(['check', '--sandbox', '--config', 'steward.yaml', '--format', 'json'], { cwd: dir });
    expect(checked.code).toBe(3);
    expect(checked.stderr.split('\n')).toContain(`steward: ${warning}`);
    const report = JSON.parse(checked.stdout) as { summary: { errors: number; violations: number } };
    expect([report.summary.violations, report.summary.errors > 0]).toEqual([0, true]);
  });
});

describe('steward init', () => {
  it('writes the starter files, which validate and whose tests pass; refuses to overwrite', async () => {
    const dir = tempDir();
    const r = await runCli(['init'], { cwd: dir });
    expect(r.code).toBe(0);
    for (const [rel, text] of Object.entries(initFiles())) expect(readFileSync(path.join(dir, rel), 'utf8')).toBe(text);
    expect((await runCli(['validate'], { cwd: dir })).code).toBe(0);
    // Every kind a listing can discover is in the starter scope as `all`: no built-in policy checks nothing.
    const config = parse(readFileSync(path.join(dir, 'steward.yaml'), 'utf8')) as { scope: Record<string, unknown> };
    expect(config.scope).toEqual(Object.fromEntries(DISCOVERABLE_SCOPES.map((s) => [s.key, 'all'])));
    // Explicit paths replace the config's policies: params of the built-in pack are not errors.
    expect(await runCli(['validate', 'policies/'], { cwd: dir })).toEqual({
      code: 0,
      stdout: 'valid: 1 policy, 0 card-sharing manifests, 0 queue manifests, 0 data-file manifests, 0 page-sharing manifests, 0 waivers\n',
      stderr: '',
    });
    const tests = await runCli(['test', 'policies/'], { cwd: dir });
    expect([tests.code, tests.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, '2 passed, 0 failed']);

    writeFileSync(path.join(dir, 'waivers.yaml'), 'waivers: []  # mine\n');
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    for (const rel of Object.keys(initFiles())) expect(again.stderr).toContain(`${rel}: already exists\n`);
    expect(again.stderr).toMatch(
      /\nsteward init: nothing was written \(init never overwrites\): remove those files or run `steward init <another directory>`\n$/,
    );
    expect(again.stderr).not.toContain('input problems');
    expect(readFileSync(path.join(dir, 'waivers.yaml'), 'utf8')).toBe('waivers: []  # mine\n');
  });

  it('writes a workflow GitHub parses: the package at an exact version, actions pinned by commit, least privilege, one run at a time', async () => {
    const parser = await loadWorkflowParser();
    const content = initFiles()['.github/workflows/steward.yml'];
    const parsed = parser.parseWorkflow({ name: 'steward.yml', content }, parser.trace);
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value!);
    const job = template.jobs[0] as { steps: { uses?: { toString(): string }; run?: { toString(): string } }[]; 'timeout-minutes'?: unknown };
    const uses = job.steps.flatMap((s) => (s.uses ? [s.uses.toString()] : []));
    // Every third-party action by a full commit SHA; no steward action a third party could own.
    expect(uses.map((u) => u.replace(/@.*/, ''))).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'actions/cache/restore',
      'actions/cache/save',
      'github/codeql-action/upload-sarif',
    ]);
    for (const u of uses) expect(u).toMatch(/@[0-9a-f]{40}$/);
    for (const pinned of Object.values(PINNED_ACTIONS)) expect(content).toContain(`uses: ${pinned}\n`);
    const run = job.steps.flatMap((s) => (s.run ? [s.run.toString()] : []));
    expect(run).toHaveLength(1);
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    expect(run[0]).toMatch(new RegExp(`^npx -y @steward-pac/steward@${version.replace(/\./g, '\\.')} check `));
    expect(content).toContain('permissions:\n  contents: read\n  actions: read\n  security-events: write\n');
    expect(content).toContain('persist-credentials: false');
    expect(content).toContain('concurrency:\n  group: steward-');
    expect(content).toMatch(/timeout-minutes: \d+/);
    expect(content).not.toMatch(/fail-on/);
    expect(content).toMatch(/schedule:\n\s+- cron: /);
    // Restore by prefix, save under a key of its own: cache entries are immutable.
    const runKey = ['key: steward-history-$', '{{ github.run_id }}'].join('');
    expect(content).toContain(`${runKey}\n          restore-keys: steward-history-\n`);
    expect(run[0]).toContain('--history .steward/history.sqlite');
  });
});

describe('steward test and list', () => {
  it('passes on the built-in pack: one line per test, then the counts alone', async () => {
    const r = await runCli(['test', 'policies/']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^(\d+) passed, 0 failed$/);
    expect(lines.slice(0, -1).every((l) => l.startsWith('ok   '))).toBe(true);
    expect(lines.length - 1).toBe(Number(lines.at(-1)!.split(' ')[0]));
  });

  it('paths or a config holding no policy: exit 2, not "0 passed, 0 failed" (a CI step that tested nothing)', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'policies'));
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [policies/]\n');
    const named = await runCli(['test', 'policies/'], { cwd: dir });
    expect([named.code, named.stdout, named.stderr]).toEqual([2, '', 'policies/: no policies to evaluate: the policy files and folders named hold none (add one, or name `builtin`)\nsteward: bad input\n']);
    const configured = await runCli(['test', '--format', 'junit'], { cwd: dir });
    expect([configured.code, configured.stdout, configured.stderr.split('\n')[0]]).toEqual([2, '', 'steward.yaml:1:11: no policies to evaluate: the policy files and folders named hold none (add one, or name `builtin`)']);
  });

  it('fails (exit 1) on a wrong expectation, naming it', async () => {
    const dir = tempDir();
    const policy = readFileSync(path.join(REPO, 'test/cli/fixtures/wrong-expectation.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'p.yaml'), policy);
    const r = await runCli(['test', 'p.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL workflows-need-a-name › an unnamed workflow is caught \(p\.yaml:\d+:\d+\)$/m);
    expect(r.stdout).toContain('expected 2 violation(s), got 1');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
  });

  it('lists every policy with severity, resource, title and where it came from', async () => {
    const r = await runCli(['list', ...DEMO, '--format', 'json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(BUILTIN_POLICIES);
    expect(rows).toContainEqual({ id: 'data-files-not-public', severity: 'critical', resource: 'dataFile', title: 'Data files are not public', source: 'builtin' });
  });
});

describe('snapshots and baselines', () => {
  it('records a snapshot (no token inside, no spooled page left behind) and evaluates offline from it to the same findings', async () => {
    const dir = tempDir();
    const snap = path.join(dir, 'snap.json');
    // The built binary, so its temporary folder is this test's: the pages it spooled are gone after.
    const spoolHome = tempDir();
    const rec = await runCli(['snapshot', ...DEMO, '--out', snap], { env: { ...sandboxEnv(sandbox), TMPDIR: spoolHome }, spawn: true });
    expect(rec.code).toBe(0);
    expect(readdirSync(spoolHome)).toEqual([]);
    const text = readFileSync(snap, 'utf8');
    expect(text).not.toContain(TOKEN);
    const live = sandbox.totalRequests();
    const off = await runCli(['check', ...DEMO, '--from', snap, '--format', 'json']);
    expect(off.code).toBe(1);
    expect(findingKeys(JSON.parse(off.stdout))).toEqual(PLANTED);
    expect(sandbox.totalRequests()).toBe(live);
  });

  it('with no temporary folder to spool to, snapshot keeps its pages in memory, says so, and writes the same answers', async () => {
    const dir = tempDir();
    const [spooled, inMemory] = [path.join(dir, 'spooled.json'), path.join(dir, 'memory.json')];
    const env = sandboxEnv(sandbox);
    expect((await runCli(['snapshot', ...DEMO, '--out', spooled], { env: { ...env, TMPDIR: tempDir() }, spawn: true })).code).toBe(0);
    const r = await runCli(['snapshot', ...DEMO, '--out', inMemory], { env: { ...env, TMPDIR: path.join(dir, 'missing') }, spawn: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^steward: pages kept in memory while recording: no temporary file \(ENOENT: .*\)$/m);
    // The answers are the same; the header differs only in when it was recorded.
    const body = (file: string) => readFileSync(file, 'utf8').split('\n').slice(1);
    expect(body(inMemory)).toEqual(body(spooled));
  });

  it('--write-baseline then --baseline: known findings pass the gate, a new one fails it', async () => {
    const dir = tempDir();
    const baseline = path.join(dir, 'baseline.json');
    const env = sandboxEnv(sandbox);
    const first = await runCli(['check', ...DEMO, '--write-baseline', baseline, '--format', 'json'], { env });
    expect(first.code).toBe(1);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).fingerprints).toHaveLength(PLANTED.length + 1);
    const known = await runCli(['check', ...DEMO, '--baseline', baseline, '--format', 'json'], { env });
    expect(known.code).toBe(0);
    expect(JSON.parse(known.stdout).findings.every((f: { baseline: string }) => f.baseline === 'known')).toBe(true);

    const demo = copyDemo();
    const q = path.join(demo, 'permissions/queues/marketing.yaml');
    writeFileSync(q, readFileSync(q, 'utf8').replace(/type: GROUP/, 'type: USER'));
    const changed = await runCli(['check', '--config', path.join(demo, 'steward.yaml'), '--baseline', baseline, '--format', 'json'], {
      env,
    });
    expect(changed.code).toBe(1);
    // New: user g-40's ADMIN, and the manifest now drifts from the instance (GROUP g-40 live, USER g-40 declared).
    expect(JSON.parse(changed.stdout).findings.filter((f: { baseline: string }) => f.baseline === 'new').map((f: { policy: string }) => f.policy)).toEqual([
      'queue-no-admin-for-users',
      'queue-permissions-match-manifest',
      'queue-permissions-match-manifest',
    ]);
  });
});

describe('steward fix', () => {
  it('refuses --apply without a terminal and without --yes, before any request', async () => {
    const r = await runCli(['fix', ...DEMO, '--apply'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--apply: no terminal to confirm on: add --yes');
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('--apply --yes applies the plan to the instance and journals it; a re-run plans nothing', async () => {
    const demo = copyDemo();
    const journal = path.join(demo, 'journal.jsonl');
    const env = sandboxEnv(sandbox);
    const config = ['--config', path.join(demo, 'steward.yaml'), '--only', 'queue-no-admin-for-users'];
    const applied = await runCli(['fix', ...config, '--apply', '--yes', '--write', '--journal', journal], { env, cwd: demo });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('applied 2 of 2 changes');
    expect(applied.stdout).toMatch(/^Fix plan [0-9a-f]{16}: 2 changes\n/);
    expect(applied.stdout).not.toContain('Nothing was written');
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(2);
    const again = await runCli(['fix', ...config, '--format', 'json'], { env, cwd: demo });
    expect([again.code, JSON.parse(again.stdout).changes]).toEqual([0, []]);
  });
});

describe('steward fix --journal', () => {
  it('resumes after a failure mid-way without --write: the re-run sends only the 2 changes left, then nothing', async () => {
    const demo = copyDemo();
    const env = sandboxEnv(sandbox);
    const only = ['--only', 'queue-no-admin-for-users', '--only', 'queue-entries-grant-something'];
    const args = ['fix', '--config', 'steward.yaml', ...only, '--apply', '--yes', '--journal', 'j.jsonl'];
    const statuses = () => readFileSync(path.join(demo, 'j.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // The 1st of 3 queue writes goes through, the 2nd is answered 400.
    sandbox.scriptFault('updateQueuePermissions', {}, 1);
    sandbox.scriptFault('updateQueuePermissions', { status: 400 }, 1);
    const first = await runCli(args, { env, cwd: demo });
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/^Fix plan [0-9a-f]{16}: 3 changes\n/);
    expect(first.stderr).toContain('applied 1 of 3 changes, 1 failed, 1 not attempted; journal: j.jsonl');
    const journal = statuses();
    expect(journal.map((e) => [e.resource.id, e.status])).toEqual([
      ['q-finance-intake', 'applied'],
      ['q-hr-requests', 'failed'],
      ['q-support-escalations', 'skipped'],
    ]);

    sandbox.resetCounts();
    const second = await runCli(args, { env, cwd: demo });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Fix plan [0-9a-f]{16}: 2 changes, 1 already applied\n\n1\. queue q-hr-requests /);
    expect(second.stdout).toContain('\n2. queue q-support-escalations ');
    expect(second.stdout).toContain(
      `\nAlready applied:\n- queue q-finance-intake (queue-no-admin-for-users): POST /api/queues/v1/q-finance-intake/permissions — already applied (journal j.jsonl, change 1 at ${journal[0].time})\n`,
    );
    expect(second.stderr).toContain('applied 2 of 2 changes; journal: j.jsonl');
    expect([sandbox.counts.updateQueuePermissions, sandbox.totalRequests()]).toEqual([2, 2]);
    expect(statuses().map((e) => e.status)).toEqual(['applied', 'failed', 'skipped', 'applied', 'applied']);

    // With --write, the manifests of the already applied changes get their fixed state too.
    sandbox.resetCounts();
    const third = await runCli([...args, '--write', '--format', 'json'], { env, cwd: demo });
    expect(third.code).toBe(0);
    expect(readFileSync(path.join(demo, 'permissions/queues/finance-intake.yaml'), 'utf8')).toContain(
      '- { id: "7", name: Ana Ruiz, type: USER, permissions: [READ] }   # TODO',
    );
    const plan = JSON.parse(third.stdout);
    expect([plan.changes, plan.alreadyApplied.map((a: { resource: { id: string } }) => a.resource.id)]).toEqual([
      [],
      ['q-finance-intake', 'q-hr-requests', 'q-support-escalations'],
    ]);
    expect(sandbox.totalRequests()).toBe(0);
    expect(statuses()).toHaveLength(5);
    const plain = await runCli(['fix', '--config', 'steward.yaml', ...only, '--format', 'json'], { env, cwd: demo });
    expect([plain.code, JSON.parse(plain.stdout).changes]).toEqual([0, []]);
  });

  it('refuses a --journal that is not a journal (exit 2 at file:line) before any request', async () => {
    const demo = copyDemo();
    writeFileSync(path.join(demo, 'notes.jsonl'), '\n{"time": "t"}\n');
    const r = await runCli(['fix', '--config', 'steward.yaml', '--apply', '--yes', '--journal', 'notes.jsonl'], {
      env: sandboxEnv(sandbox),
      cwd: demo,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('notes.jsonl:2:1: not a steward journal entry: "planId" must be a string');
    expect(r.stdout).toBe('');
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('steward sandbox', () => {
  it('serves until SIGTERM, printing base URL, workflow URL and token', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--token', 'tok-sbx-cli', '--seed', '7'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl+C')) resolve();
      });
    });
    const baseUrl = /base URL:\s+(\S+)/.exec(out)![1];
    expect(out).toMatch(/workflow URL:\s+http:\/\/127\.0\.0\.1:\d+\/workflow/);
    expect(out).toMatch(/token:\s+tok-sbx-cli/);
    const res = await fetch(`${baseUrl}/api/query/v1/functions/statistics`, { headers: { 'X-SERVICE-Developer-Token': 'tok-sbx-cli' } });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});
