// What a run evaluates, decided before any request: params and waivers naming unknown policies,
// an empty policy set, manifest globs matching nothing, empty scope lists, and stale waivers
// only among the policies that ran. In-process over the library API against a sandbox.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CheckOptions, evaluate, prepareRun } from '../../src/library/index.js';
import { initFiles } from '../../src/cli/init-templates.js';
import { InputError } from '../../src/core/problem.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, tempDir } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

function project(files: Record<string, string>): string {
  const dir = tempDir('steward-selection-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** The problems of a run that must stop before any request, formatted, and that none was sent. */
async function inputProblems(options: CheckOptions): Promise<string[]> {
  const live = { env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token };
  try {
    await evaluate({ ...live, ...options });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    expect(sandbox.totalRequests()).toBe(0);
    return e.message.split('\n');
  }
  throw new Error('expected an InputError');
}

const live = () => ({ env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token });

describe('params and waivers naming a policy', () => {
  it('a fresh `steward init` project validates with explicit policy paths (params of builtin policies left out)', async () => {
    const dir = project(initFiles());
    const prepared = await prepareRun({ cwd: dir, env: {}, policies: ['policies/'] });
    expect(prepared.selected.map((p) => p.id)).toEqual(['example-schedules-have-a-title']);
  });

  it('with the config’s own policies an unknown id in params or waivers is exit 2 at its position', async () => {
    const dir = project({
      'steward.yaml': 'policies: [builtin]\nparams:\n  no-such-policy: { x: 1 }\nwaivers: waivers.yaml\n',
      'waivers.yaml': `waivers:
  - policy: queue-no-admin-for-user
    resource: q-1
    reason: typo in the policy id
    owner: me@example.com
    expires: 2099-01-01
`,
    });
    expect(await inputProblems({ cwd: dir })).toEqual([
      'steward.yaml:3:3: params: no policy with id "no-such-policy"',
      `waivers.yaml:2:5: waiver: no policy with id "queue-no-admin-for-user" (did you mean 'queue-no-admin-for-users'?) (see \`steward list\`)`,
    ]);
    // Replaced by --policies: those policies are simply not in this run.
    const prepared = await prepareRun({ cwd: dir, env: {}, policies: ['builtin'] });
    expect(prepared.waivers).toHaveLength(1);
  });
});

describe('an empty policy set', () => {
  it('is exit 2 before any request: `policies: []`, an empty folder, a file with `policies: []`', async () => {
    const dir = project({ 'steward.yaml': 'policies: []\n', 'empty/.keep': '', 'none.yaml': 'policies: []\n' });
    const message = 'no policies to evaluate: the policy files and folders named hold none (add one, or name `builtin`)';
    expect(await inputProblems({ cwd: dir })).toEqual([`steward.yaml:1:11: ${message}`]);
    expect(await inputProblems({ cwd: dir, policies: ['empty'] })).toEqual([`--policies: ${message}`]);
    expect(await inputProblems({ cwd: dir, policies: ['none.yaml'] })).toEqual([`--policies: ${message}`]);
  });
});

describe('a selection that leaves out every policy', () => {
  it('is exit 2 before any request, naming the flags, not the policy files', async () => {
    const dir = project({ 'steward.yaml': 'policies: [builtin]\n' });
    const skipped = await inputProblems({ cwd: dir, skip: ['*'] });
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/^--skip: no policy left to evaluate: --skip leaves out all (\d+) policies loaded$/);
    const loaded = (await prepareRun({ cwd: dir, env: {} })).selected.length;
    expect(skipped[0]).toContain(`all ${loaded} policies`);
    expect(await inputProblems({ cwd: dir, only: ['queue-no-admin-for-users'], skip: ['queue-*'] })).toEqual([
      `--only, --skip: no policy left to evaluate: --only and --skip leave out all ${loaded} policies loaded`,
    ]);
  });
});

describe('files the run writes', () => {
  it('a baseline to write or a history that cannot be written (a folder) is exit 2 before any request', async () => {
    const dir = project({ 'steward.yaml': 'policies: [builtin]\n', 'reports/.keep': '', 'runs/.keep': '' });
    expect(await inputProblems({ cwd: dir, writeBaseline: 'reports' })).toEqual(['--write-baseline: reports: is a directory']);
    expect(await inputProblems({ cwd: dir, history: 'runs' })).toEqual(['runs: cannot write the run history here: is a directory']);
    // A file where a folder is needed, for either.
    expect(await inputProblems({ cwd: dir, writeBaseline: 'steward.yaml/baseline.json' })).toEqual([`--write-baseline: steward.yaml/baseline.json: ${path.join(dir, 'steward.yaml')} is not a directory`]);
    expect(await inputProblems({ cwd: dir, history: 'steward.yaml/h.sqlite' })).toEqual([`steward.yaml/h.sqlite: cannot write the run history here: ${path.join(dir, 'steward.yaml')} is not a directory`]);
  });

  it('a file written twice, or written over a file the run reads, is exit 2 before any request (the history was replaced by a report)', async () => {
    const dir = copyDemo();
    const at = (file: string) => path.join(dir, file);
    expect(await inputProblems({ cwd: dir, config: 'steward.yaml', history: 'h.sqlite', reportFiles: [{ name: '--output json=h.sqlite', file: at('h.sqlite') }] })).toEqual([
      'the run history: h.sqlite is also --output json=h.sqlite: one would overwrite the other',
    ]);
    expect(await inputProblems({ cwd: dir, config: 'steward.yaml', writeBaseline: 'r.json', reportFiles: [{ name: '--output json=r.json', file: at('r.json') }, { name: '--output sarif=r.json', file: at('r.json') }] })).toEqual([
      '--output sarif=r.json: r.json is also --output json=r.json: one would overwrite the other',
      '--write-baseline: r.json is also --output json=r.json: one would overwrite the other',
    ]);
    expect(await inputProblems({ cwd: dir, config: 'steward.yaml', writeBaseline: 'waivers.yaml', reportFiles: [{ name: '--out', file: at('steward.yaml') }, { name: '--plan-out', file: at('permissions/queues/marketing.yaml') }] })).toEqual([
      '--out: steward.yaml is the config, which this run reads: it would be overwritten',
      '--plan-out: permissions/queues/marketing.yaml is a manifest, which this run reads: it would be overwritten',
      '--write-baseline: waivers.yaml is the waivers file, which this run reads: it would be overwritten',
    ]);
  });

  it('a baseline rewritten by the run that compares with it is a ratchet, allowed', async () => {
    const dir = copyDemo();
    const only = ['queue-no-admin-for-users'];
    await evaluate({ ...live(), cwd: dir, config: 'steward.yaml', only, writeBaseline: 'b.json' });
    const { report } = await evaluate({ ...live(), cwd: dir, config: 'steward.yaml', only, baseline: 'b.json', writeBaseline: 'b.json' });
    expect(report.summary.gate).toBe('pass');
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.filter((f) => f.baseline !== 'known')).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(dir, 'b.json'), 'utf8')).fingerprints).toEqual(report.findings.map((f) => f.fingerprint).sort());
  });

  it('their missing folders are made before the run, and the run writes both', async () => {
    const dir = copyDemo();
    const { report } = await evaluate({ ...live(), cwd: dir, config: 'steward.yaml', only: ['queue-no-admin-for-users'], writeBaseline: 'out/a/baseline.json', history: 'state/b/history.sqlite' });
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.history?.file).toBe(path.join('state', 'b', 'history.sqlite'));
    expect(JSON.parse(readFileSync(path.join(dir, 'out/a/baseline.json'), 'utf8')).fingerprints).toEqual(report.findings.map((f) => f.fingerprint).sort());
  });
});

describe('manifest globs', () => {
  const config = (globs: string) => `policies: [builtin]\nmanifests:\n${globs}`;

  it('a glob matching no file is exit 2 at its position when a selected policy reads that kind', async () => {
    const dir = copyDemo();
    writeFileSync(
      path.join(dir, 'steward.yaml'),
      config('  queues: permisions/queues/*.yaml\n  dataFiles: [permissions/data-files/*.yaml, old/*.yaml]\n'),
    );
    expect(await inputProblems({ cwd: dir, config: 'steward.yaml' })).toEqual([
      'steward.yaml:3:11: manifests.queues: "permisions/queues/*.yaml" matches no file',
      'steward.yaml:4:46: manifests.dataFiles: "old/*.yaml" matches no file',
    ]);
    // Only queue policies selected: the data-file globs do not matter to this run.
    expect(
      await inputProblems({ cwd: dir, config: 'steward.yaml', only: ['queue-no-admin-for-users', 'data-files-not-public'] }),
    ).toHaveLength(2);
    const prepared = await prepareRun({ cwd: dir, env: {}, config: 'steward.yaml', only: ['workflows-are-named'] });
    expect(prepared.config.manifestFiles.queues).toEqual([]);
  });
});

describe('empty scope lists', () => {
  it('a policy of a kind whose scope list is empty is `skipped` with a warning, not a pass', async () => {
    const dir = project({ 'steward.yaml': 'policies: [builtin]\nscope: { datasets: [], filesets: {} }\n' });
    const only = ['datasets-have-an-owner', 'fileset-files-sha256', 'calculated-fields-valid'];
    const { report, warnings } = await evaluate({ ...live(), cwd: dir, only });
    expect(report.policies.map((p) => [p.id, p.status, p.evaluated]).sort()).toEqual([
      ['calculated-fields-valid', 'fail', 1],
      ['datasets-have-an-owner', 'skipped', 0],
      ['fileset-files-sha256', 'skipped', 0],
    ]);
    // One line for all of them, naming the empty keys and the policies.
    expect(warnings).toEqual(['2 policies checked nothing: scope.datasets, scope.filesets are empty (datasets-have-an-owner, fileset-files-sha256)']);
  });

  it('cards sent by schedules are checked even with an empty scope.cards: no warning', async () => {
    const dir = project({ 'steward.yaml': 'policies: [builtin]\nscope: { cards: [] }\n' });
    const { report, warnings } = await evaluate({ ...live(), cwd: dir, only: ['scheduled-cards-certification-current'] });
    expect(report.policies[0].status).toBe('fail');
    expect(warnings).toEqual([]);
  });
});

describe('stale waivers', () => {
  it('waivers of policies left out by --only are not stale; among the policies run, unmatched ones are', async () => {
    const dir = copyDemo();
    writeFileSync(
      path.join(dir, 'waivers.yaml'),
      `waivers:
  - policy: queue-no-admin-for-users
    resource: q-support-escalations
    item: "15"
    reason: break-glass
    owner: governance@acme.example
    expires: 2099-12-31
  - policy: data-files-not-public
    resource: "999"
    reason: matches nothing
    owner: governance@acme.example
    expires: 2099-12-31
`,
    );
    const run = (only: string[]) => evaluate({ ...live(), cwd: dir, config: 'steward.yaml', only });
    const calc = await run(['calculated-fields-valid']);
    expect(calc.report.waivers).toEqual({ expired: [], stale: [], catchAll: [], active: [], expiring: [] });
    const files = await run(['data-files-not-public']);
    expect(files.report.waivers.stale.map((w) => `${w.policy} ${w.resource}`)).toEqual(['data-files-not-public 999']);
  });
});

describe('--skip and --severity', () => {
  const live = (dir: string, extra: Partial<CheckOptions>): CheckOptions => ({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, ...extra });

  it('--skip leaves out every policy a glob names; --severity reports only those levels, and the gate judges what is reported', async () => {
    const dir = copyDemo();
    const all = await evaluate(live(dir, {}));
    const { report } = await evaluate(live(dir, { skip: ['access-tokens-*', 'groups-have-owners'], severity: ['critical', 'high'] }));
    const ran = report.policies.map((p) => p.id);
    expect(ran.filter((id) => id.startsWith('access-tokens-') || id === 'groups-have-owners')).toEqual([]);
    expect(ran).toHaveLength(all.report.policies.length - 4);
    expect(new Set(report.findings.map((f) => f.severity))).toEqual(new Set(['critical', 'high']));
    expect(report.summary.bySeverity).toMatchObject({ medium: 0, low: 0, info: 0 });
    expect(report.filters).toEqual({ skip: ['access-tokens-*', 'groups-have-owners'], severity: ['critical', 'high'] });
    const onlyLow = await evaluate(live(dir, { severity: ['info'], failOn: 'high' }));
    // The one info violation is below the gate: reported, and the run passes.
    expect([onlyLow.report.summary.violations, onlyLow.report.summary.gate]).toEqual([1, 'pass']);
  });

  it('a --severity no selected policy has is bad input, nothing sent: it would report nothing and pass every run', async () => {
    const dir = copyDemo();
    await expect(prepareRun(live(dir, { only: ['workflows-are-named'], severity: ['info'] }))).rejects.toThrow(
      '--severity: no selected policy is info (they are low): the run could report no violation',
    );
    expect(sandbox.totalRequests()).toBe(0);
    // One selected policy of a level it names is enough.
    expect((await prepareRun(live(dir, { only: ['workflows-are-named'], severity: ['info', 'low'] }))).selected.map((p) => p.id)).toEqual(['workflows-are-named']);
  });

  it('a --skip glob that names no policy is bad input, nothing sent', async () => {
    const dir = copyDemo();
    await expect(prepareRun(live(dir, { skip: ['acess-tokens-*'] }))).rejects.toThrow('--skip: no policy id matches "acess-tokens-*"');
    expect(sandbox.totalRequests()).toBe(0);
  });
});
