// Issues kept in sync: the real Octokit client (GITHUB_API_URL) against a local GitHub API double
// that records every call (test/fixtures/github-double.ts). Three runs open, leave alone, then update and close the right issues;
// the second run makes no write; a fourth reopens with a comment; the token is never printed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runAction } from '../action/run-action.js';
import { type GithubDouble, startGithubDouble } from '../fixtures/github-double.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
let github: GithubDouble;
let apiUrl = '';
let issues: GithubDouble['issues'];
let calls: GithubDouble['calls'];
const TOKEN = 'ghs_issuesSyncTestToken0001';

beforeAll(async () => {
  sandbox = await startSandbox();
  github = await startGithubDouble();
  ({ apiUrl, issues, calls } = github);
});
afterAll(async () => {
  await sandbox.close();
  await github.close();
});

const ONLY = ['--only', 'schedule-timezone-valid', '--only', 'workflows-are-named'];
const env = { GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'acme/governance', GITHUB_API_URL: '' };
const schedule = (id: number) => sandbox.state.schedules.find((s) => s.id === id)!;

async function syncOnce(dir: string, n: number) {
  await runCli(['check', '--config', 'steward.yaml', ...ONLY, '--output', `json=run${n}.json`, '--quiet'], { cwd: dir, env: sandboxEnv(sandbox) });
  const before = calls.length;
  const r = await runCli(['issues', 'sync', '--from', `run${n}.json`], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout + r.stderr).not.toContain(TOKEN);
  return { r, calls: calls.slice(before) };
}

const writes = (cs: typeof calls) => cs.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);

describe('steward issues sync', () => {
  it('opens, leaves alone, updates and closes, then reopens with a comment; a second run makes no write', async () => {
    const dir = copyDemo();
    const first = await syncOnce(dir, 1);
    expect(writes(first.calls)).toEqual(['POST /repos/acme/governance/issues', 'POST /repos/acme/governance/issues']);
    expect(first.calls.every((c) => c.auth === `token ${TOKEN}`)).toBe(true);
    expect(issues.map((i) => [i.title.replace(/^.*\((.*)\)$/, '$1'), i.state, i.labels.map((l) => l.name)]).sort()).toEqual([
      ['schedule-timezone-valid', 'open', ['steward', 'severity:medium']],
      ['workflows-are-named', 'open', ['steward', expect.stringMatching(/^severity:/)]],
    ]);
    const tz = issues.find((i) => i.title.endsWith('(schedule-timezone-valid)'))!;
    expect(tz.body).toContain('<!-- steward:policy=schedule-timezone-valid -->');
    expect(tz.body).toContain('`reportSchedule/9004`');

    const second = await syncOnce(dir, 2);
    expect(writes(second.calls)).toEqual([]);
    expect(second.r.stdout).toBe('opened none; updated none; reopened none; closed none; 2 unchanged\n');

    // Run 3: 9004 fixed, 9001 broken: the time-zone issue is updated; the workflows fixed: closed.
    const was = { 9004: schedule(9004).schedule.timezone, 9001: schedule(9001).schedule.timezone };
    schedule(9004).schedule.timezone = 'Europe/Berlin';
    schedule(9001).schedule.timezone = 'Atlantis/Lost';
    const workflows = sandbox.state.workflows.filter((w) => !w.name || !String(w.name).trim());
    const names = workflows.map((w) => w.name);
    for (const w of workflows) w.name = `named ${w.id}`;
    try {
      const third = await syncOnce(dir, 3);
      const wf = issues.find((i) => i.title.endsWith('(workflows-are-named)'))!;
      expect(writes(third.calls).sort()).toEqual([`PATCH /repos/acme/governance/issues/${tz.number}`, `POST /repos/acme/governance/issues/${wf.number}/comments`, `PATCH /repos/acme/governance/issues/${wf.number}`].sort());
      expect(tz.body).toContain('`reportSchedule/9001`');
      expect(tz.body).not.toContain('`reportSchedule/9004`');
      expect([wf.state, wf.comments]).toEqual(['closed', [expect.stringMatching(/^Fixed: no open finding of `workflows-are-named`/)]]);
    } finally {
      schedule(9004).schedule.timezone = was[9004];
      schedule(9001).schedule.timezone = was[9001];
      workflows.forEach((w, i) => {
        w.name = names[i];
      });
    }
    // Run 4: the workflows are unnamed again: their issue is reopened with a comment.
    const fourth = await syncOnce(dir, 4);
    const wf = issues.find((i) => i.title.endsWith('(workflows-are-named)'))!;
    expect(wf.state).toBe('open');
    expect(wf.comments.at(-1)).toMatch(/^Reopened: \d+ open findings? of `workflows-are-named`/);
    expect(fourth.r.stdout).toMatch(new RegExp(`reopened #${wf.number};`));
  });

  it('--by team: one issue per team of the owners: map, left alone when unchanged, closed when its team has nothing left', async () => {
    const dir = copyDemo();
    const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'steward.yaml'), `${config}\nowners:\n  - { team: emea, owners: [101] }\n  - { team: platform ops, policies: ["workflows-*"] }\n`);
    const sync = async (n: number) => {
      await runCli(['check', '--config', 'steward.yaml', ...ONLY, '--output', `json=team${n}.json`, '--quiet'], { cwd: dir, env: sandboxEnv(sandbox) });
      const before = calls.length;
      const r = await runCli(['issues', 'sync', '--by', 'team', '--from', `team${n}.json`], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl } });
      expect(r.code, r.stderr).toBe(0);
      return calls.slice(before);
    };
    const teamIssue = (team: string) => issues.find((i) => i.body.includes(`<!-- steward:team=${encodeURIComponent(team)} -->`));
    const first = await sync(1);
    expect(writes(first)).toEqual(['POST /repos/acme/governance/issues', 'POST /repos/acme/governance/issues']);
    const emea = teamIssue('emea')!;
    const ops = teamIssue('platform ops')!;
    expect([emea.title, emea.labels.map((l) => l.name)]).toEqual(['steward: findings of team emea', ['steward', 'team:emea']]);
    expect(emea.body).toContain('| `schedule-timezone-valid` | medium | `reportSchedule/9004` |');
    expect(emea.body).toContain('team emea USER Priya Shah (101)');
    expect(ops.body).toContain('`workflow/wf-unnamed`');
    // The same findings: no write.
    expect(writes(await sync(2))).toEqual([]);
    // The workflows named: the ops team has nothing left, its issue is closed; emea's is left alone.
    const workflows = sandbox.state.workflows.filter((w) => !w.name || !String(w.name).trim());
    const names = workflows.map((w) => w.name);
    for (const w of workflows) w.name = `named ${w.id}`;
    try {
      const third = await sync(3);
      expect(writes(third).sort()).toEqual([`PATCH /repos/acme/governance/issues/${ops.number}`, `POST /repos/acme/governance/issues/${ops.number}/comments`].sort());
      expect([ops.state, ops.comments]).toEqual(['closed', [expect.stringMatching(/^Fixed: no open finding of team platform ops as of /)]]);
      expect(emea.state).toBe('open');
    } finally {
      workflows.forEach((w, i) => {
        w.name = names[i];
      });
    }
    // A run that evaluated nothing (no schedule, no workflow), refused or accepted, saw no team's
    // findings: it closes no issue, as a run in error does not.
    const [schedules, misconfigured, allWorkflows] = [sandbox.state.schedules, sandbox.state.misconfigured, sandbox.state.workflows];
    sandbox.state.schedules = [];
    sandbox.state.misconfigured = [];
    sandbox.state.workflows = [];
    try {
      for (const [n, accept] of [[4, []], [5, ['--allow-empty']]] as const) {
        const checked = await runCli(['check', '--config', 'steward.yaml', ...ONLY, ...accept, '--output', `json=team${n}.json`, '--quiet'], { cwd: dir, env: sandboxEnv(sandbox) });
        expect(checked.code, checked.stderr).toBe(accept.length ? 0 : 2);
        const before = calls.length;
        const r = await runCli(['issues', 'sync', '--by', 'team', '--from', `team${n}.json`], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl } });
        expect([n, r.code, writes(calls.slice(before)), emea.state]).toEqual([n, 0, [], 'open']);
      }
    } finally {
      sandbox.state.schedules = schedules;
      sandbox.state.misconfigured = misconfigured;
      sandbox.state.workflows = allWorkflows;
    }
    // A report of a run without an owners: map cannot be synced by team: exit 2, nothing sent.
    await runCli(['check', '--config', 'demo/steward.yaml', ...ONLY, '--output', `json=${path.join(dir, 'plain.json')}`, '--quiet'], { env: sandboxEnv(sandbox) });
    const before = calls.length;
    const plain = await runCli(['issues', 'sync', '--by', 'team', '--from', 'plain.json'], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl } });
    expect([plain.code, plain.stderr]).toEqual([2, expect.stringContaining('issues by team need a report of a run with an owners: map')]);
    expect(calls.length).toBe(before);
  });

  it('a report of several instances: one issue per policy, each finding named by its instance; an instance in error closes nothing', async () => {
    // Two instances holding the same data: the same findings under two names.
    const other = await startSandbox();
    const dir = copyDemo();
    const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8');
    const entry = (name: string, s: Sandbox) =>
      `  ${name}: { baseUrl: "${s.baseUrl}", token: env:TOKEN_${name.toUpperCase()}, workflowUrl: "${s.workflowUrl}", workflowToken: env:WF_TOKEN_${name.toUpperCase()} }\n`;
    writeFileSync(path.join(dir, 'steward.yaml'), `${config}\ninstances:\n${entry('prod', sandbox)}${entry('staging', other)}`);
    const tokens = (staging: string) => ({ TOKEN_PROD: sandbox.token, WF_TOKEN_PROD: sandbox.workflowToken, TOKEN_STAGING: staging, WF_TOKEN_STAGING: other.workflowToken });
    const fleetSync = async (n: number, staging: string) => {
      await runCli(['check', '--only', 'queue-no-admin-for-users', '--only', 'schedule-timezone-valid', '--output', `json=fleet${n}.json`, '--quiet'], { cwd: dir, env: tokens(staging) });
      const before = calls.length;
      const r = await runCli(['issues', 'sync', '--from', `fleet${n}.json`], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl } });
      expect(r.code, r.stderr).toBe(0);
      return calls.slice(before);
    };
    const titled = (id: string) => issues.filter((i) => i.title.endsWith(`(${id})`));

    // Failing on both instances: one issue, not one per instance; the rows say where.
    const first = await fleetSync(1, other.token);
    expect(writes(first).filter((w) => w === 'POST /repos/acme/governance/issues').length).toBe(titled('queue-no-admin-for-users').length);
    expect(titled('queue-no-admin-for-users').length).toBe(1);
    const queue = titled('queue-no-admin-for-users')[0]!;
    expect(queue.body).toContain('| `queue-no-admin-for-users` | high | `prod: queue/q-finance-intake permissions[0]` |');
    expect(queue.body).toContain('| `queue-no-admin-for-users` | high | `staging: queue/q-finance-intake permissions[0]` |');
    expect(queue.body).toContain('4 open findings on prod, staging');
    const tz = titled('schedule-timezone-valid')[0]!;
    expect([titled('schedule-timezone-valid').length, tz.state]).toEqual([1, 'open']);
    // The same report again: no write.
    expect(writes(await fleetSync(2, other.token))).toEqual([]);

    // The time zone fixed; staging refuses its token: prod passes, staging is in error. The issue
    // stays open (staging is unknown, not fixed), listing nothing but saying so is no close.
    const was = schedule(9004).schedule.timezone;
    const otherSchedule = other.state.schedules.find((x) => x.id === 9004)!;
    schedule(9004).schedule.timezone = 'Europe/Berlin';
    otherSchedule.schedule.timezone = 'Europe/Berlin';
    try {
      const third = await fleetSync(3, 'tok-staging-revoked');
      expect(tz.state).toBe('open');
      expect(writes(third)).not.toContain(`POST /repos/acme/governance/issues/${tz.number}/comments`);
      // With both answering, the policy passes everywhere: now it closes.
      await fleetSync(4, other.token);
      expect([tz.state, tz.comments.at(-1)]).toEqual(['closed', expect.stringMatching(/^Fixed: no open finding of `schedule-timezone-valid`/)]);
    } finally {
      schedule(9004).schedule.timezone = was;
      await other.close();
    }
  });

  it("a report holding a secret of the run (written by hand, or elsewhere): the issue's body holds no form of it", async () => {
    const dir = tempDir('steward-issues-secret-');
    const stewardToken = 'tok-issues-9b7e3c1d5f';
    const echoed = makeReport({ policies: [makePolicy({ id: 'echo-policy' })], findings: [makeFinding({ policy: 'echo-policy', message: `echoed ${stewardToken} and ${TOKEN}` })] });
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify(echoed));
    const before = issues.length;
    const r = await runCli(['issues', 'sync', '--from', 'report.json'], { cwd: dir, env: { ...env, GITHUB_API_URL: apiUrl, STEWARD_TOKEN: stewardToken } });
    expect(r.code, r.stderr).toBe(0);
    const [opened] = issues.slice(before);
    expect(opened!.body).toContain('| echoed *** and *** |');
    expect(opened!.body).not.toContain(stewardToken);
  });

  it('without GITHUB_TOKEN or GITHUB_REPOSITORY: exit 2 naming them, nothing sent', async () => {
    const before = calls.length;
    const r = await runCli(['issues', 'sync', '--from', 'nope.json'], { env: { GITHUB_API_URL: apiUrl } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('GITHUB_TOKEN: not set: issues sync needs a token that may write issues');
    expect(r.stderr).toContain('GITHUB_REPOSITORY: not set: issues sync needs the repository as owner/repo');
    expect(calls.length).toBe(before);
  });

  it('the Action with issues: true syncs the same way (GITHUB_TOKEN from the step env, masked)', async () => {
    const dir = copyDemo();
    const before = issues.length;
    const run = await runAction(dir, { config: 'steward.yaml', 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token, issues: 'true' }, { ...env, GITHUB_API_URL: apiUrl });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/issues: opened \d+, updated \d+, reopened \d+, closed \d+, \d+ unchanged/);
    expect(run.stdout).toContain(`::add-mask::${TOKEN}`);
    expect(issues.length).toBeGreaterThan(before);
  });
});

