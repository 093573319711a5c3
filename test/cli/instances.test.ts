// Several instances in one config (`instances:`): two sandbox instances checked side by side in
// one run, one refusing its token (401): one report naming each finding's instance, the healthy
// one evaluated whole, exit 3; the same two checked by two processes and `steward merge`d give
// the same findings; SARIF one run per instance, JUnit a suite per instance and policy, text a
// section each; a wrong --instance or a report merged twice is exit 2.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { reportValidator } from '../report/schema-validators.js';
import { runAction } from '../action/run-action.js';
import { copyDemo, findingKeys, PLANTED, runCli } from './helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

let prod: Sandbox;
let staging: Sandbox;
let dir: string;
const validate = reportValidator();

beforeAll(async () => {
  [prod, staging] = await Promise.all([startSandbox(), startSandbox()]);
  dir = copyDemo();
  const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8');
  const entry = (s: Sandbox, name: string) =>
    `  ${name}: { baseUrl: "${s.baseUrl}", token: env:TOKEN_${name.toUpperCase()}, workflowUrl: "${s.workflowUrl}", workflowToken: env:WF_TOKEN_${name.toUpperCase()} }\n`;
  writeFileSync(path.join(dir, 'steward.yaml'), `${config}\ninstances:\n${entry(prod, 'prod')}${entry(staging, 'staging')}`);
});
afterAll(async () => {
  await Promise.all([prod?.close(), staging?.close()]);
});

/** Prod's real tokens; staging's developer token is wrong (401), its workflow token right. */
const env = () => ({ TOKEN_PROD: prod.token, WF_TOKEN_PROD: prod.workflowToken, TOKEN_STAGING: 'tok-staging-revoked', WF_TOKEN_STAGING: staging.workflowToken });
const keysOf = (r: Report, instance: string, status = 'violation') => findingKeys({ findings: r.findings.filter((f) => f.instance === instance) }, status);
/** What staging's run judges without the developer token it lacks. */
const STAGING_JUDGED = [
  'data-files-no-admin-grant dataFile/43 entries[0]',
  'data-files-not-public dataFile/42',
  'queue-entries-grant-something queue/q-hr-requests permissions[1]',
  'queue-no-admin-for-users queue/q-finance-intake permissions[0]',
  'queue-no-admin-for-users queue/q-support-escalations permissions[1]',
  'workflows-are-named workflow/wf-unnamed',
];
const identity = (r: Report) => r.findings.map((f) => `${f.instance} ${f.status} ${f.fingerprint}`).sort();

describe('instances: several in one run', () => {
  it('one report: each finding names its instance, the healthy one evaluated whole, the refused one in error, exit 3', async () => {
    prod.resetCounts();
    staging.resetCounts();
    const r = await runCli(['check', '--format', 'json'], { cwd: dir, env: env() });
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as Report;
    expect(validate(report)).toEqual([]);
    expect(report.instance).toBe('prod, staging');
    expect(report.instances?.map((i) => [i.name, i.url, i.summary.gate])).toEqual([
      ['prod', prod.baseUrl, 'fail'],
      ['staging', staging.baseUrl, 'error'],
    ]);
    expect(report.summary.gate).toBe('error');
    // Prod whole: the planted violations, exactly, and no error.
    expect(keysOf(report, 'prod')).toEqual(PLANTED);
    expect(keysOf(report, 'prod', 'error')).toEqual([]);
    // Staging: what needs no developer token is judged (its manifests; workflows, read with their
    // own token); every policy reading the instance is in error; the cause said once, named.
    expect(keysOf(report, 'staging')).toEqual(STAGING_JUDGED);
    const stagingPolicies = report.policies.filter((p) => p.instance === 'staging');
    expect(stagingPolicies.filter((p) => p.status === 'error').length).toBeGreaterThan(30);
    expect(stagingPolicies.filter((p) => p.status === 'error').every((p) => p.error?.includes('401 Unauthorized'))).toBe(true);
    expect(report.stoppedBy?.map((s) => s.cause)).toEqual(['staging: the instance refused the developer token (401 Unauthorized)']);
    expect(report.findings.every((f) => f.instance === 'prod' || f.instance === 'staging')).toBe(true);
    expect(new Set(report.coverage?.map((c) => c.instance))).toEqual(new Set(['prod', 'staging']));
    // Each instance within its own limits: staging's refused token stopped its requests at one.
    expect(staging.counts.searchUsers ?? 0).toBe(0);
    expect(prod.totalRequests()).toBeGreaterThan(50);
    expect(r.stdout + r.stderr).not.toContain(prod.token);
  });

  it('the same two checked by two processes and merged give the same findings and the same exit', async () => {
    const one = await runCli(['check', '--instance', 'prod', '--output', 'json=prod.json', '--quiet'], { cwd: dir, env: env() });
    const two = await runCli(['check', '--instance', 'staging', '--output', 'json=staging.json', '--quiet'], { cwd: dir, env: { TOKEN_STAGING: 'tok-staging-revoked', WF_TOKEN_STAGING: staging.workflowToken } });
    expect([one.code, two.code]).toEqual([1, 3]);
    // A job holding only staging's tokens checks staging: prod's unset token is not asked for.
    const prodAlone = JSON.parse(readFileSync(path.join(dir, 'prod.json'), 'utf8')) as Report;
    expect(prodAlone.instance).toBe(prod.baseUrl);
    expect(prodAlone.findings.every((f) => f.instance === 'prod')).toBe(true);
    const merged = await runCli(['merge', 'prod.json', 'staging.json', '--format', 'json'], { cwd: dir });
    expect(merged.code).toBe(3);
    const together = JSON.parse((await runCli(['check', '--format', 'json'], { cwd: dir, env: env() })).stdout) as Report;
    const fromMerge = JSON.parse(merged.stdout) as Report;
    expect(validate(fromMerge)).toEqual([]);
    expect(identity(fromMerge)).toEqual(identity(together));
    expect(fromMerge.instances?.map((i) => [i.name, i.summary.gate])).toEqual([
      ['prod', 'fail'],
      ['staging', 'error'],
    ]);
    // Judged again at another level: prod passes at critical+ only if nothing critical is open.
    const relaxed = await runCli(['merge', 'prod.json', '--format', 'json', '--fail-on', 'none'], { cwd: dir });
    expect([relaxed.code, (JSON.parse(relaxed.stdout) as Report).summary.gate]).toEqual([0, 'pass']);
    // The same instance twice is refused, naming the report; asked for, it merges.
    const twice = await runCli(['merge', 'prod.json', 'prod.json'], { cwd: dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('prod.json: instance prod');
    expect((await runCli(['merge', 'prod.json', 'prod.json', '--allow-same-instance', '--format', 'json'], { cwd: dir })).code).toBe(1);
    // The merged report written over a report it merges: refused, the report untouched.
    const before = readFileSync(path.join(dir, 'prod.json'), 'utf8');
    const over = await runCli(['merge', 'prod.json', 'staging.json', '--output', 'json=prod.json'], { cwd: dir });
    expect([over.code, over.stdout, over.stderr]).toEqual([2, '', '--output json=prod.json: prod.json is a report merged, which this run reads: it would be overwritten\nsteward: bad input\n']);
    expect(readFileSync(path.join(dir, 'prod.json'), 'utf8')).toBe(before);
  });

  it('SARIF: one run per instance with its own category; JUnit: a suite per instance and policy; text: a section each', async () => {
    const r = await runCli(['check', '--format', 'sarif', '--output', 'junit=r.xml', '--output', 'text=r.txt'], { cwd: dir, env: env() });
    const sarif = JSON.parse(r.stdout) as { runs: { automationDetails: { id: string }; results: unknown[]; properties: { instanceName: string } }[] };
    expect(sarifValidator()(sarif)).toEqual([]);
    expect(sarif.runs.map((x) => [x.properties.instanceName, x.automationDetails.id])).toEqual([
      ['prod', `steward/${prod.baseUrl.replace('http://', '')}/`],
      ['staging', `steward/${staging.baseUrl.replace('http://', '')}/`],
    ]);
    expect(sarif.runs.map((x) => x.results.length)).toEqual([PLANTED.length + 1, STAGING_JUDGED.length + 1]); // each instance's waived one is a suppressed result
    expect(await junitXsdProblems(readFileSync(path.join(dir, 'r.xml'), 'utf8'))).toEqual([]);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(path.join(dir, 'r.xml'), 'utf8'));
    const suites = (junit.testsuites.testsuite as { '@_name': string }[]).map((s) => s['@_name']);
    expect(suites.filter((n) => n.startsWith('prod/')).length).toBe(suites.filter((n) => n.startsWith('staging/')).length);
    expect(suites).toContain('staging/workflows-are-named');
    const text = readFileSync(path.join(dir, 'r.txt'), 'utf8').split('\n');
    expect(text.filter((l) => l.startsWith('instance '))).toEqual([`instance prod (${prod.baseUrl}): fail`, `instance staging (${staging.baseUrl}): error`]);
  });

  it('a wrong --instance, or --base-url beside instances:, is exit 2 before any request', async () => {
    prod.resetCounts();
    const wrong = await runCli(['check', '--instance', 'qa'], { cwd: dir, env: env() });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--instance: no instance "qa" in instances: (prod, staging)');
    const both = await runCli(['check', '--base-url', prod.baseUrl], { cwd: dir, env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--base-url: the config names its instances (instances:): pick one with --instance NAME');
    const unset = await runCli(['check', '--instance', 'prod'], { cwd: dir, env: {} });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/steward\.yaml:\d+:\d+: instances\.prod\.token: TOKEN_PROD is not set/);
    // Side by side, one instance's unset token stops them all before the other is sent anything.
    staging.resetCounts();
    const half = await runCli(['check'], { cwd: dir, env: { TOKEN_PROD: prod.token, WF_TOKEN_PROD: prod.workflowToken, WF_TOKEN_STAGING: staging.workflowToken } });
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/^steward\.yaml:57:\d+: instances\.staging\.token: TOKEN_STAGING is not set$/m);
    expect(half.stderr).not.toContain('TOKEN_PROD');
    expect(staging.totalRequests()).toBe(0);
    const doctor = await runCli(['doctor'], { cwd: dir, env: env() });
    expect(doctor.code).toBe(2);
    expect(doctor.stderr).toContain('this reads one instance: pick it with --instance NAME (one of: prod, staging)');
    expect(prod.totalRequests()).toBe(0);
  });

  it('--print-config shows each instance\'s own settings, its tokens as set or unset by variable, in place of the single instance\'s', async () => {
    prod.resetCounts();
    const r = await runCli(['check', '--print-config', '--format', 'json'], { cwd: dir, env: { TOKEN_PROD: prod.token } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const settings = (JSON.parse(r.stdout) as { settings: { setting: string; value: string; origin: string }[] }).settings;
    const rows = settings.filter((s) => s.setting.startsWith('instance')).map((s) => `${s.setting} | ${s.origin} | ${s.value}`);
    // Prod's token is set, staging's not; neither workflow token (WF_TOKEN_… unset here).
    const expected = (name: string, s: Sandbox, line: number, token: string) => [
      `instances.${name}.baseUrl | steward.yaml:${line} | ${s.baseUrl}`,
      `instances.${name}.workflowUrl | steward.yaml:${line} | ${s.workflowUrl}`,
      `instances.${name}.token | TOKEN_${name.toUpperCase()} | ${token}`,
      `instances.${name}.workflowToken | WF_TOKEN_${name.toUpperCase()} | (unset: the instance token)`,
      `instances.${name}.tokenHeader | default | (the platform default)`,
      `instances.${name}.requestsPerSecond | the config's | (unset)`,
      `instances.${name}.scope | the config's | (the config's)`,
    ];
    expect(rows).toEqual([...expected('prod', prod, 56, '(set)'), ...expected('staging', staging, 57, '(unset)')]);
    expect(r.stdout).not.toContain(prod.token);
    expect(prod.totalRequests()).toBe(0);
  });

  it('doctor checks the instance --instance picks (it asked for one, and took no --instance)', async () => {
    prod.resetCounts();
    staging.resetCounts();
    const r = await runCli(['doctor', '--instance', 'prod', '--format', 'json'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(true);
    expect(prod.totalRequests()).toBeGreaterThan(0);
    expect(staging.totalRequests()).toBe(0);
    // Staging's token is refused: its doctor says so, exit 3.
    expect((await runCli(['doctor', '--instance', 'staging'], { cwd: dir, env: env() })).code).toBe(3);
  });

  it('a command that connects to no instance needs none of their tokens: validate, list, a replay of a snapshot (and waive, below)', async () => {
    for (const args of [['validate'], ['list']]) {
      const r = await runCli(args, { cwd: dir, env: {} });
      expect([args[0], r.code, r.stderr]).toEqual([args[0], 0, '']);
    }
    const snapshot = path.join(dir, 'prod-snapshot.json');
    expect((await runCli(['snapshot', '--instance', 'prod', '--out', snapshot], { cwd: dir, env: env() })).code).toBe(0);
    prod.resetCounts();
    staging.resetCounts();
    const replay = await runCli(['check', '--instance', 'prod', '--from', snapshot, '--format', 'json'], { cwd: dir, env: {} });
    expect(replay.code).toBe(1);
    expect(findingKeys(JSON.parse(replay.stdout) as Report)).toEqual(PLANTED);
    expect(replay.stderr).not.toContain('the snapshot was recorded from');
    // Prod's snapshot replayed as staging: its findings would be reported as staging's. Said.
    const mixedUp = await runCli(['check', '--instance', 'staging', '--from', snapshot, '--format', 'json'], { cwd: dir, env: {} });
    expect(mixedUp.code).toBe(1);
    expect(mixedUp.stderr).toContain(`the snapshot was recorded from ${prod.baseUrl}, not ${staging.baseUrl} (the instance this run names): its findings are that instance's`);
    // Recording one needs its token, said where the config names it.
    const record = await runCli(['snapshot', '--instance', 'staging', '--out', snapshot], { cwd: dir, env: {} });
    expect(record.code).toBe(2);
    expect(record.stderr).toMatch(/steward\.yaml:57:\d+: instances\.staging\.token: TOKEN_STAGING is not set/);
    expect(prod.totalRequests() + staging.totalRequests()).toBe(0);
  });

  it('the Action checks them all side by side too: one summary with a section each, the gate the worst; fix needs one instance', async () => {
    const run = await runAction(dir, { config: 'steward.yaml', 'json-file': 'action.json' }, env());
    expect(run.outputs.gate).toBe('error');
    expect(run.code).toBe(1);
    expect(run.summary.split('\n').filter((l) => l.startsWith('<summary>instance ')).map((l) => l.replace(/ \(.*$/, ''))).toEqual(['<summary>instance prod', '<summary>instance staging']);
    const report = JSON.parse(readFileSync(path.join(dir, 'action.json'), 'utf8')) as Report;
    expect(report.instances?.map((i) => i.name)).toEqual(['prod', 'staging']);
    const one = await runAction(dir, { config: 'steward.yaml', instance: 'prod' }, env());
    expect(one.outputs.gate).toBe('fail');
    const fix = await runAction(dir, { config: 'steward.yaml', fix: 'plan' }, env());
    expect(fix.stdout + fix.stderr).toContain("fix reads and writes one instance: set the instance input to one of the config's instances");
  });

  it('an instance with a scope of its own checks that scope; the others the config\'s', async () => {
    const own = copyDemo();
    const config = readFileSync(path.join(own, 'steward.yaml'), 'utf8');
    writeFileSync(
      path.join(own, 'steward.yaml'),
      `${config}\ninstances:\n  prod: { baseUrl: "${prod.baseUrl}", token: env:TOKEN_PROD, workflowUrl: "${prod.workflowUrl}", workflowToken: env:WF_TOKEN_PROD }\n  staging:\n    baseUrl: "${staging.baseUrl}"\n    token: env:TOKEN_STAGING\n    workflowUrl: "${staging.workflowUrl}"\n    workflowToken: env:WF_TOKEN_STAGING\n    scope: { datasets: [ds-0001] }\n`,
    );
    const r = await runCli(['check', '--format', 'json', '--only', 'datasets-have-an-owner'], { cwd: own, env: { ...env(), TOKEN_STAGING: staging.token } });
    const report = JSON.parse(r.stdout) as Report;
    expect(report.policies.map((p) => [p.instance, p.evaluated])).toEqual([
      ['prod', 25],
      ['staging', 1],
    ]);
  });
});

describe('instances: a baseline keeps each instance apart', () => {
  // Both sandboxes hold the demo's data: the same findings, fingerprint for fingerprint. A
  // fingerprint does not name its instance, so only the file's per-instance lists tell them apart.
  const both = () => ({ TOKEN_PROD: prod.token, WF_TOKEN_PROD: prod.workflowToken, TOKEN_STAGING: staging.token, WF_TOKEN_STAGING: staging.workflowToken });
  const baselineOf = (r: Report, instance: string) => [...new Set(r.findings.filter((f) => f.instance === instance && f.baseline !== null).map((f) => f.baseline))];

  it('prod\'s accepted findings are new on staging; a file of both instances knows each on its own', async () => {
    const prodOnly = path.join(dir, 'prod-baseline.json');
    const w = await runCli(['check', '--instance', 'prod', '--write-baseline', prodOnly, '-q'], { cwd: dir, env: both() });
    expect(w.code).toBe(1);
    const written = JSON.parse(readFileSync(prodOnly, 'utf8')) as { fingerprints: string[]; instances: Record<string, string[]> };
    expect(Object.keys(written.instances)).toEqual(['prod']);
    expect(written.instances.prod).toEqual(written.fingerprints);

    // Prod's findings are known; staging's, the very same fingerprints, are new: the run fails.
    const r = await runCli(['check', '--baseline', prodOnly, '--format', 'json'], { cwd: dir, env: both() });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(validate(report)).toEqual([]);
    expect(baselineOf(report, 'prod')).toEqual(['known']);
    expect(baselineOf(report, 'staging')).toEqual(['new']);
    expect(report.instances?.map((i) => [i.name, i.summary.gate])).toEqual([['prod', 'pass'], ['staging', 'fail']]);
    expect(report.baseline?.resolved).toEqual([]);

    // Written by a run of both (once, after both were evaluated): each instance's list, and every finding known.
    const bothFile = path.join(dir, 'both-baseline.json');
    expect((await runCli(['check', '--write-baseline', bothFile, '-q'], { cwd: dir, env: both() })).code).toBe(1);
    const twin = JSON.parse(readFileSync(bothFile, 'utf8')) as { fingerprints: string[]; instances: Record<string, string[]> };
    expect(Object.keys(twin.instances)).toEqual(['prod', 'staging']);
    expect(twin.instances.staging).toEqual(twin.instances.prod);
    const known = await runCli(['check', '--baseline', bothFile, '--format', 'json'], { cwd: dir, env: both() });
    expect(known.code).toBe(0);
    const all = JSON.parse(known.stdout) as Report;
    expect([baselineOf(all, 'prod'), baselineOf(all, 'staging')]).toEqual([['known'], ['known']]);

    // A staging entry no longer seen is resolved on staging alone, and named so.
    const gone = 'ffffffffffffffffffff';
    writeFileSync(bothFile, JSON.stringify({ ...twin, fingerprints: [...twin.fingerprints, gone], instances: { ...twin.instances, staging: [...twin.instances.staging, gone] } }));
    const text = await runCli(['check', '--baseline', bothFile], { cwd: dir, env: both() });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`resolved: staging: ${gone}`);
    const json = await runCli(['check', '--baseline', bothFile, '--format', 'json'], { cwd: dir, env: both() });
    expect((JSON.parse(json.stdout) as Report).baseline?.resolvedEntries).toEqual([{ fingerprint: gone, instance: 'staging' }]);
  });

  it('a baseline naming no instance (one instance\'s, or older) with several instances is exit 2 before any request', async () => {
    const legacy = path.join(dir, 'legacy-baseline.json');
    writeFileSync(legacy, JSON.stringify({ version: 1, createdAt: '2026-11-01T00:00:00.000Z', fingerprints: [] }));
    prod.resetCounts();
    staging.resetCounts();
    const r = await runCli(['check', '--baseline', legacy], { cwd: dir, env: both() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('legacy-baseline.json:1:1');
    expect(r.stderr).toContain('names no instance');
    expect(prod.totalRequests() + staging.totalRequests()).toBe(0);
    // One instance picked: the file serves it as before.
    expect((await runCli(['check', '--instance', 'prod', '--baseline', legacy, '-q'], { cwd: dir, env: both() })).code).toBe(1);
  });
});

describe('instances: diff of two reports of several instances', () => {
  const both = () => ({ TOKEN_PROD: prod.token, WF_TOKEN_PROD: prod.workflowToken, TOKEN_STAGING: staging.token, WF_TOKEN_STAGING: staging.workflowToken });

  it('a violation new on one instance is new though another has the same fingerprint; one of several against one is exit 2', async () => {
    const only = ['--only', 'schedule-timezone-valid', '--format', 'json'];
    const tz = staging.state.schedules.find((s) => s.id === 9004)!;
    const was = tz.schedule.timezone;
    tz.schedule.timezone = 'Europe/Berlin';
    try {
      writeFileSync(path.join(dir, 'before.json'), (await runCli(['check', ...only], { cwd: dir, env: both() })).stdout);
    } finally {
      tz.schedule.timezone = was;
    }
    writeFileSync(path.join(dir, 'after.json'), (await runCli(['check', ...only], { cwd: dir, env: both() })).stdout);
    // Prod had 9004 all along: staging's is new there, and fails the diff.
    const r = await runCli(['diff', 'before.json', 'after.json', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const diff = JSON.parse(r.stdout) as { new: { instance?: string; resource: { id: string } }[]; fixed: unknown[]; failing: number };
    expect([diff.new.map((f) => `${f.instance} ${f.resource.id}`), diff.fixed, diff.failing]).toEqual([['staging 9004'], [], 1]);
    const text = await runCli(['diff', 'before.json', 'after.json'], { cwd: dir });
    expect(text.stdout).toContain('+ [medium] schedule-timezone-valid staging: reportSchedule/9004: ');
    // Back the other way: fixed on staging alone.
    const back = JSON.parse((await runCli(['diff', 'after.json', 'before.json', '--format', 'json'], { cwd: dir })).stdout) as { new: unknown[]; fixed: { instance?: string }[] };
    expect([back.new, back.fixed.map((f) => f.instance)]).toEqual([[], ['staging']]);
    // One instance's report against both instances': nothing would match.
    writeFileSync(path.join(dir, 'prod-only.json'), (await runCli(['check', '--instance', 'prod', ...only], { cwd: dir, env: both() })).stdout);
    const mixed = await runCli(['diff', 'prod-only.json', 'after.json'], { cwd: dir });
    expect([mixed.code, mixed.stderr]).toEqual([2, expect.stringContaining('prod-only.json: after.json holds several instances (prod, staging), prod-only.json one')]);
  });

  it('with a history, diff by default compares the last two runs of one instance, not two instances\' runs of one check', async () => {
    const history = path.join(dir, 'fleet-history.sqlite');
    const only = ['--only', 'schedule-timezone-valid', '--history', history, '-q'];
    const zoneOf = (s: Sandbox) => s.state.schedules.find((x) => x.id === 9001)!.schedule;
    const was = [zoneOf(prod).timezone, zoneOf(staging).timezone];
    try {
      // Prod's 9001 is broken from the start; staging's breaks before the second check.
      zoneOf(prod).timezone = 'Atlantis/Lost';
      expect((await runCli(['check', ...only], { cwd: dir, env: both() })).code).toBe(1);
      zoneOf(staging).timezone = 'Atlantis/Lost';
      expect((await runCli(['check', ...only], { cwd: dir, env: both() })).code).toBe(1);
    } finally {
      zoneOf(prod).timezone = was[0]!;
      zoneOf(staging).timezone = was[1]!;
    }
    // Runs 1-4: prod, staging, prod, staging. Staging's last two: 9001 is new there (exit 1);
    // prod's last run against staging's would have shown nothing new.
    const r = await runCli(['diff', '--history', history, '--format', 'json'], { cwd: dir });
    const diff = JSON.parse(r.stdout) as { from: { label: string }; to: { label: string }; new: { resource: { id: string } }[] };
    expect([r.code, diff.from.label, diff.to.label, diff.new.map((f) => f.resource.id)]).toEqual([1, 'run 2', 'run 4', ['9001']]);
    // `steward history` lists each instance's runs together, under it once.
    const table = (await runCli(['history', '--history', history], { cwd: dir })).stdout.split('\n');
    const heads = table.filter((l) => l.startsWith('instance '));
    const runIds = table.filter((l) => /^\d+ /.test(l)).map((l) => l.split(' ')[0]);
    expect([heads, runIds]).toEqual([[`instance ${prod.baseUrl}`, `instance ${staging.baseUrl}`], ['1', '3', '2', '4']]);
  });
});

describe('instances: a waiver can name the instances it applies on', () => {
  // Both sandboxes hold the demo's data: q-finance-intake grants ADMIN to a user on each.
  const both = () => ({ TOKEN_PROD: prod.token, WF_TOKEN_PROD: prod.workflowToken, TOKEN_STAGING: staging.token, WF_TOKEN_STAGING: staging.workflowToken });
  const FINANCE = 'queue-no-admin-for-users queue/q-finance-intake permissions[0]';
  const statusOf = (r: Report, instance: string) => r.findings.find((f) => f.instance === instance && `${f.policy} ${f.resource.kind}/${f.resource.id} ${f.path}` === FINANCE)?.status;
  /** A copy of the demo with two instances and these waivers beside its own. */
  const fleetWith = (extra: string) => {
    const own = copyDemo();
    const config = readFileSync(path.join(own, 'steward.yaml'), 'utf8');
    const entry = (s: Sandbox, name: string) =>
      `  ${name}: { baseUrl: "${s.baseUrl}", token: env:TOKEN_${name.toUpperCase()}, workflowUrl: "${s.workflowUrl}", workflowToken: env:WF_TOKEN_${name.toUpperCase()} }\n`;
    writeFileSync(path.join(own, 'steward.yaml'), `${config}\ninstances:\n${entry(prod, 'prod')}${entry(staging, 'staging')}`);
    writeFileSync(path.join(own, 'waivers.yaml'), `${readFileSync(path.join(own, 'waivers.yaml'), 'utf8')}${extra}`);
    return own;
  };
  const waiver = (instances: string) =>
    `  - policy: queue-no-admin-for-users\n    resource: q-finance-intake\n    instances: ${instances}\n    reason: intake lead covers on prod only\n    owner: gov@acme.example\n    expires: 2099-01-01\n`;

  it('waives on the instances it names alone, and is stale only where it applies and matched nothing', async () => {
    const own = fleetWith(waiver('[prod]'));
    const r = await runCli(['check', '--format', 'json'], { cwd: own, env: both() });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(validate(report)).toEqual([]);
    // The same violation on both: waived on prod, still a violation on staging.
    expect([statusOf(report, 'prod'), statusOf(report, 'staging')]).toEqual(['waived', 'violation']);
    expect(report.findings.filter((f) => f.status === 'waived').map((f) => `${f.instance} ${f.resource.id}`).sort()).toEqual([
      'prod q-finance-intake',
      'prod q-support-escalations',
      'staging q-support-escalations',
    ]);
    // Staging's run never saw it: not stale there, and not stale in the report.
    expect(report.waivers.stale).toEqual([]);
    expect(report.waivers.active.find((w) => w.resource === 'q-finance-intake')?.instances).toEqual(['prod']);
    const markdown = await runCli(['check', '--only', 'queue-no-admin-for-users', '--format', 'markdown'], { cwd: own, env: both() });
    expect(markdown.stdout).toContain('| queue-no-admin-for-users q-finance-intake on prod | gov\\@acme.example | 2099-01-01 |');

    // Named for staging, where nothing matches it once the queue is fixed there, it is stale
    // although prod has the very violation.
    const other = fleetWith(waiver('[staging]'));
    const fixed = JSON.parse((await runCli(['check', '--format', 'json', '--instance', 'prod'], { cwd: other, env: both() })).stdout) as Report;
    expect(statusOf(fixed, 'prod')).toBe('violation');
    expect(fixed.waivers.stale).toEqual([]);
  });

  it('an instance the config does not declare is exit 2 at its place in the file, before any request', async () => {
    const own = fleetWith(waiver('[prod, stagin]'));
    prod.resetCounts();
    staging.resetCounts();
    const r = await runCli(['check'], { cwd: own, env: both() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`waivers.yaml:11:23: instances: no instance "stagin" in the config's instances: (prod, staging) (did you mean 'staging'?)`);
    expect(prod.totalRequests() + staging.totalRequests()).toBe(0);
    // Picked alone, prod still checks the whole file: a typo is a typo in every job of a fan-out.
    expect((await runCli(['check', '--instance', 'prod'], { cwd: own, env: both() })).code).toBe(2);
    // A config of one instance has none to name.
    const single = copyDemo();
    writeFileSync(path.join(single, 'waivers.yaml'), `${readFileSync(path.join(single, 'waivers.yaml'), 'utf8')}${waiver('[prod]')}`);
    const one = await runCli(['check', '--base-url', prod.baseUrl], { cwd: single, env: { STEWARD_TOKEN: prod.token } });
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('waivers.yaml:11:16: instances: the config declares no instances:, so there is no instance to name (leave it out)');
    expect(prod.totalRequests()).toBe(0);
  });

  it('steward waive, from a report of several instances, names the instances each violation was seen on', async () => {
    const own = fleetWith('');
    const r = await runCli(['check', '--format', 'json', '--only', 'queue-no-admin-for-users', '--only', 'datasets-have-an-owner', '--output', 'json=fleet.json'], { cwd: own, env: both() });
    expect(r.code).toBe(1);
    const w = await runCli(['waive', '--from', 'fleet.json', '--owner', 'gov@acme.example', '--reason', 'adopting', '--expires', '2099-01-01'], { cwd: own });
    expect([w.code, w.stderr]).toEqual([0, '']);
    const written = readFileSync(path.join(own, 'waivers.yaml'), 'utf8');
    // One waiver per violation, naming both instances; the demo's own waiver still covers item 15.
    expect(written.match(/^ {2}- policy: /gm)?.length).toBe(4);
    expect(written).toContain('    resource: q-finance-intake\n');
    expect(written.match(/ {4}instances:\n {6}- prod\n {6}- staging\n/g)?.length).toBe(3);
    const again = await runCli(['check', '--format', 'json', '--only', 'queue-no-admin-for-users', '--only', 'datasets-have-an-owner'], { cwd: own, env: both() });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as Report).findings.filter((f) => f.status === 'violation')).toEqual([]);
  });
});
