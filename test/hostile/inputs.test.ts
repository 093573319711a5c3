// Hostile and odd inputs: a `__proto__` key, an alias bomb, ordinary alias reuse, a rate that
// would never finish, a plan over --max-changes with --write. Each is exit 2 at its position with
// nothing sent (or, for ordinary reuse, accepted). The CLI as a user runs it, against a sandbox.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, readTree, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'secret-token-for-hostile-inputs' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

function env() {
  return { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token };
}

/** A project holding the given files; runs `check` there and expects exit 2 with nothing sent. */
async function refusedCheck(files: Record<string, string>): Promise<string[]> {
  const dir = tempDir('steward-inputs-');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const r = await runCli(['check'], { cwd: dir, env: env() });
  expect(r.code).toBe(2);
  expect(sandbox.totalRequests()).toBe(0);
  return r.stderr.trim().split('\n');
}

const LAUGHS = ['x: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f'], ['h', 'g'], ['i', 'h']]) {
  LAUGHS.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
}

describe('YAML that would change objects or expand without bound', () => {
  it('a __proto__ key in config params is exit 2 at the key', async () => {
    const lines = await refusedCheck({ 'steward.yaml': 'policies: [builtin]\nparams:\n  __proto__: { polluted: true }\n' });
    expect(lines).toEqual(['steward.yaml:3:3: the key __proto__ is not allowed', 'steward: bad input; nothing was sent to the API']);
  });

  it('a __proto__ key in a policy, a manifest or a waivers file is exit 2 at the key', async () => {
    const lines = await refusedCheck({
      'steward.yaml': 'policies: [p.yaml]\nwaivers: w.yaml\n',
      'p.yaml': 'policies:\n  - id: p\n    title: P\n    severity: low\n    resource: dataset\n    assert: "true"\n    __proto__: { x: 1 }\n',
      'w.yaml': 'waivers:\n  - { __proto__: 1 }\n',
    });
    expect(lines).toEqual([
      'p.yaml:7:5: the key __proto__ is not allowed',
      'w.yaml:2:7: the key __proto__ is not allowed',
      'steward: 2 input problems; nothing was sent to the API',
    ]);
    const manifest = await refusedCheck({
      'steward.yaml': 'policies: [builtin]\nmanifests:\n  queues: q.yaml\n',
      'q.yaml': 'id: q-1\npermissions:\n  - { id: "7", type: USER, permissions: [READ], __proto__: [ADMIN] }\n',
    });
    expect(manifest[0]).toBe('q.yaml:3:49: the key __proto__ is not allowed');
  });

  it('a billion-laughs config is exit 2 at its first alias, at once and in little memory', async () => {
    const started = performance.now();
    const lines = await refusedCheck({ 'steward.yaml': `policies: [builtin]\n${LAUGHS.join('\n')}\n` });
    const seconds = (performance.now() - started) / 1000;
    expect(lines[0]).toBe('steward.yaml:3:8: aliases expand past 10000 nodes: write the values out or reuse less');
    // 9^9 = 387 million strings if expanded; refused in one CLI start (a few hundred ms).
    console.log(`hostile: billion-laughs YAML (9 levels of 9 aliases) refused in ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(20);
  });

  it('150,000 problems are exit 2, each at its line: no list of them is spread into one call', async () => {
    // Before, `fail(io, ...problems)` overflowed the call stack: exit 1 and a RangeError's stack.
    const lines = await refusedCheck({ 'steward.yaml': 'policies: [builtin]\nscope:\n  datasets: { file: ids.txt }\n', 'ids.txt': `${Array(150_000).fill('..').join('\n')}\n` });
    expect(lines).toHaveLength(150_001);
    expect(lines[0]).toBe('ids.txt:1:1: scope.datasets: ".." is not an id (it would change the request path)');
    expect(lines[149_999]).toBe('ids.txt:150000:1: scope.datasets: ".." is not an id (it would change the request path)');
    expect(lines[150_000]).toBe('steward: 150000 input problems; nothing was sent to the API');
  });

  it('the same bomb as a policy file is refused at its position too', async () => {
    const lines = await refusedCheck({ 'steward.yaml': 'policies: [p.yaml]\n', 'p.yaml': `${LAUGHS.join('\n')}\n` });
    expect(lines[0]).toBe('p.yaml:2:8: aliases expand past 10000 nodes: write the values out or reuse less');
  });

  it('119 uses of one anchor are ordinary and accepted', async () => {
    const dir = tempDir('steward-inputs-');
    const policies = ['policies:'];
    for (let i = 0; i < 119; i++) {
      policies.push(
        `  - id: owner-${i}`,
        `    title: Owner check ${i}`,
        `    severity: ${i === 0 ? '&sev medium' : '*sev'}`,
        '    resource: dataset',
        "    assert: resource.access.list.exists(e, e.accessLevel == 'OWNER')",
      );
    }
    writeFileSync(path.join(dir, 'many.yaml'), `${policies.join('\n')}\n`);
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [many.yaml]\n');
    const r = await runCli(['validate'], { cwd: dir, env: env() });
    expect(r.stdout.trim()).toBe('valid: 119 policies, 0 card-sharing manifests, 0 queue manifests, 0 data-file manifests, 0 page-sharing manifests, 0 waivers');
    expect(r.code).toBe(0);
  });
});

describe('values that would keep a run from ending', () => {
  it.each([['0.001'], ['1e-9'], ['0'], ['5000']])('requestsPerSecond %s is exit 2 at the value', async (rate) => {
    const lines = await refusedCheck({ 'steward.yaml': `policies: [builtin]\nrequestsPerSecond: ${rate}\n` });
    const bound = Number(rate) > 1 ? 'must be <= 1000' : 'must be >= 0.1';
    expect(lines[0]).toBe(`steward.yaml:2:20: requestsPerSecond ${bound}`);
  });
});

describe('--max-changes bounds fix --write as it bounds --apply', () => {
  it('a plan over the limit rewrites no manifest, and says so', async () => {
    const dir = copyDemo();
    const before = readTree(dir);
    const r = await runCli(['fix', '--config', 'steward.yaml', '--write', '--max-changes', '1'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-changes: the plan has 6 changes, more than the limit of 1: no manifest was written');
    expect(r.stderr).not.toContain('rewrote');
    expect(readTree(dir)).toEqual(before);
    expect(sandbox.received).toEqual([]);
  });
});

describe('a run that evaluated nothing', () => {
  const only = ['--only', 'datasets-have-an-owner', '--only', 'fileset-files-sha256'];
  const STOPPED = 'the run evaluated nothing (no dataset, filesetFile resources were found)';
  const ADVICE = "name some in scope, or accept an empty run (`steward check --allow-empty`, the Action's `allow-empty: true`)";

  /** A project whose scope names no dataset and no file set: a check there evaluates nothing. */
  const emptyProject = () => {
    const dir = tempDir('steward-inputs-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [], filesets: {} }\n');
    return dir;
  };

  it('is exit 2 naming the empty kinds; the report written says so: its gate an error, never a pass', async () => {
    const dir = emptyProject();
    const r = await runCli(['check', ...only, '--format', 'json'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(sandbox.totalRequests()).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      'steward: 2 policies checked nothing: scope.datasets, scope.filesets are empty (datasets-have-an-owner, fileset-files-sha256)',
      `steward: could not evaluate: ${STOPPED}: ${ADVICE}.`,
    ]);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.summary).toMatchObject({ gate: 'error', resources: 0 });
    expect(report.stoppedBy).toEqual([{ cause: STOPPED, advice: ADVICE }]);
  });

  it("its report merged (a fan-out's job that went on past the refusal) is exit 3 at any --fail-on, not a pass", async () => {
    const dir = emptyProject();
    expect((await runCli(['check', ...only, '--output', 'json=empty.json'], { cwd: dir, env: env() })).code).toBe(2);
    for (const failOn of [[], ['--fail-on', 'none']]) {
      const merged = await runCli(['merge', 'empty.json', ...failOn, '--format', 'json'], { cwd: dir });
      expect([failOn, merged.code, (JSON.parse(merged.stdout) as Report).summary.gate]).toEqual([failOn, 3, 'error']);
    }
  });

  it('a report that accepted it (or came from an earlier steward) is refused by merge too, unless merge --allow-empty', async () => {
    const dir = emptyProject();
    expect((await runCli(['check', ...only, '--allow-empty', '--output', 'json=accepted.json'], { cwd: dir, env: env() })).code).toBe(0);
    const merged = await runCli(['merge', 'accepted.json', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(merged.stdout) as Report;
    expect([merged.code, report.summary.gate, report.stoppedBy]).toEqual([
      3,
      'error',
      [{ cause: 'the run evaluated nothing (its report shows no resource evaluated)', advice: 'name some in its scope, or accept an empty run (`steward merge --allow-empty`)' }],
    ]);
    const accepted = await runCli(['merge', 'accepted.json', '--allow-empty'], { cwd: dir });
    expect(accepted.code).toBe(0);
  });

  it('--allow-empty accepts it: exit 0, and the report passes', async () => {
    const r = await runCli(['check', ...only, '--allow-empty', '--format', 'json'], { cwd: emptyProject(), env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('evaluated nothing');
    const report = JSON.parse(r.stdout) as Report;
    expect([report.summary.gate, report.stoppedBy]).toEqual(['pass', undefined]);
  });

  it('fix and evidence refuse it as check does (exit 2), --allow-empty accepts it; verify re-evaluates either pack to its verdict', async () => {
    const dir = emptyProject();
    for (const accept of [[], ['--allow-empty']]) {
      const fix = await runCli(['fix', ...only, ...accept], { cwd: dir, env: env() });
      expect([accept, fix.code, fix.stdout]).toEqual([accept, accept.length ? 0 : 2, expect.stringContaining('Nothing to change.')]);
      const pack = `pack${accept.length}`;
      const evidence = await runCli(['evidence', ...only, ...accept, '--out', pack], { cwd: dir, env: env() });
      const gate = accept.length ? 'pass' : 'error';
      expect([accept, evidence.code, evidence.stdout]).toEqual([accept, accept.length ? 0 : 2, expect.stringContaining(`verdict ${gate} (0 violations, 0 errors)`)]);
      const verified = await runCli(['verify', pack], { cwd: dir });
      expect([accept, verified.code, verified.stdout]).toEqual([accept, 0, expect.stringContaining(`re-evaluation gives the recorded verdict (${gate})`)]);
    }
  });

  it('one resource evaluated is not empty: exit as the gate says', async () => {
    const dir = tempDir('steward-inputs-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [ds-0001], filesets: {} }\n');
    const r = await runCli(['check', ...only, '--fail-on', 'none'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('evaluated nothing');
  });

  it('an instance that evaluated nothing beside one that did is refused as it would be alone: exit 2 naming it', async () => {
    const staging = await startSandbox({ token: sandbox.token });
    const dir = tempDir('steward-inputs-');
    const entry = (name: string, s: Sandbox, datasets: string) => `  ${name}: { baseUrl: "${s.baseUrl}", token: env:STEWARD_TOKEN, scope: { datasets: ${datasets}, filesets: {} } }\n`;
    writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstances:\n${entry('prod', sandbox, '[ds-0001]')}${entry('staging', staging, '[]')}`);
    const tokenEnv = { STEWARD_TOKEN: sandbox.token };
    const [r, fanned] = await Promise.all([
      runCli(['check', ...only, '--fail-on', 'none', '--format', 'json'], { cwd: dir, env: tokenEnv }),
      // The same two as a fan-out: one job each, staging's accepting its empty run; the merge refuses it.
      Promise.all([
        runCli(['check', ...only, '--instance', 'prod', '--fail-on', 'none', '--output', 'json=prod.json'], { cwd: dir, env: tokenEnv }),
        runCli(['check', ...only, '--instance', 'staging', '--allow-empty', '--fail-on', 'none', '--output', 'json=staging.json'], { cwd: dir, env: tokenEnv }),
      ]),
    ]).finally(() => staging.close());
    expect(fanned.map((x) => x.code)).toEqual([0, 0]);
    const merged = await runCli(['merge', 'prod.json', 'staging.json', '--format', 'json'], { cwd: dir });
    const mergedReport = JSON.parse(merged.stdout) as Report;
    expect([merged.code, mergedReport.instances?.map((i) => [i.name, i.summary.gate]), mergedReport.stoppedBy?.map((s) => s.cause)]).toEqual([
      3,
      [['prod', 'pass'], ['staging', 'error']],
      ['staging: the run evaluated nothing (its report shows no resource evaluated)'],
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`steward: could not evaluate: staging: ${STOPPED}: ${ADVICE}.`);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.instances?.map((i) => [i.name, i.summary.gate])).toEqual([['prod', 'pass'], ['staging', 'error']]);
    expect(report.summary.gate).toBe('error');
  });
});

describe('catch-all waivers', () => {
  const waivers = 'waivers:\n  - policy: queue-no-admin-for-users\n    resource: "*"\n    reason: too noisy\n    owner: someone@acme.example\n    expires: 2099-01-01\n';

  it('a config that forbids them refuses one at its resource, before any request', async () => {
    const lines = await refusedCheck({
      'steward.yaml': 'policies: [builtin]\nwaivers: w.yaml\nwaiverRules: { allowCatchAll: false }\n',
      'w.yaml': waivers,
    });
    expect(lines).toEqual([
      'w.yaml:3:15: resource "*" waives every resource of queue-no-admin-for-users, and waiverRules.allowCatchAll is false: name the resources',
      'steward: bad input; nothing was sent to the API',
    ]);
  });

  it('allowed by default, the demo run warns about it in text and github output', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'waivers.yaml'), waivers);
    const text = await runCli(['check', '--config', 'steward.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Catch-all waivers (every resource of the policy, including future ones):\n  ! queue-no-admin-for-users * until 2099-01-01 (someone@acme.example)\n    (waivers.yaml:2:5)');
    const github = await runCli(['check', '--config', 'steward.yaml', '--format', 'github'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(github.stdout).toContain('::warning file=waivers.yaml,line=2,col=5,title=catch-all waiver::Waiver queue-no-admin-for-users * waives every resource');
  });
});

describe('bytes that are not UTF-8', () => {
  it('in a policy, a waivers file and a scope id list: exit 2 at each, nothing sent', async () => {
    const dir = tempDir('steward-inputs-');
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [p.yaml]\nwaivers: w.yaml\nscope:\n  datasets: { file: ids.txt }\n');
    writeFileSync(path.join(dir, 'p.yaml'), latin1('policies:\n  - id: p\n    title: Café\n    severity: low\n    resource: dataset\n    assert: "true"\n'));
    writeFileSync(path.join(dir, 'w.yaml'), latin1('waivers: []\n# owner: José\n'));
    writeFileSync(path.join(dir, 'ids.txt'), latin1('ds-0001\nds-caf\u00e9\n'));
    const r = await runCli(['check'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(sandbox.totalRequests()).toBe(0);
    // The config's own problems come first: its id list.
    expect(r.stderr.trim().split('\n')).toEqual([
      'ids.txt:2:7: not UTF-8 (byte 0xe9): save the file as UTF-8',
      'steward: bad input; nothing was sent to the API',
    ]);
    writeFileSync(path.join(dir, 'ids.txt'), 'ds-0001\n');
    const next = await runCli(['check'], { cwd: dir, env: env() });
    expect(next.code).toBe(2);
    expect(sandbox.totalRequests()).toBe(0);
    expect(next.stderr.trim().split('\n')).toEqual([
      'p.yaml:3:15: not UTF-8 (byte 0xe9): save the file as UTF-8',
      'w.yaml:2:13: not UTF-8 (byte 0xe9): save the file as UTF-8',
      'steward: 2 input problems; nothing was sent to the API',
    ]);
  });
});
