// Exit codes of DESIGN §9 from realistic runs of the built CLI against a sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { FORMATS } from '../../src/report/index.js';
import { BUILTIN_POLICIES, findingKeys, PLANTED, runCli, sandboxEnv, tempDir } from './helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-exit-codes-0001' });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.resetCounts();
  sandbox.configure({ misconfiguredStatus: 200, workflowGrant: true });
});

const DEMO = ['--config', 'demo/steward.yaml'];

describe('steward check exit codes', () => {
  it('1: the demo instance breaks every built-in policy exactly as planted', async () => {
    const r = await runCli(['check', ...DEMO, '--format', 'json'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(findingKeys(report)).toEqual(PLANTED);
    expect(findingKeys(report, 'waived')).toEqual(['queue-no-admin-for-users queue/q-support-escalations permissions[2]']);
    expect(report.summary).toMatchObject({ policies: BUILTIN_POLICIES, violations: PLANTED.length, waived: 1, errors: 0, gate: 'fail' });
    expect(report.http.requests).toBe(sandbox.totalRequests());
  });

  it('0: no violation at or above --fail-on', async () => {
    const r = await runCli(['check', ...DEMO, '--only', 'queue-no-admin-for-users', '--fail-on', 'critical'], {
      env: sandboxEnv(sandbox),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pass: 2 violations \(2 high\), 1 waived, 0 errors in 1 policy/);
    // Queues are declared (manifests): nothing to read from the API.
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('--fail-on: critical fails on the one critical, none never fails, config failOn applies without the flag', async () => {
    const only = ['--only', 'data-files-not-public', '--only', 'calculated-fields-valid'];
    const env = sandboxEnv(sandbox);
    const codes = [];
    for (const failOn of ['critical', 'none']) {
      codes.push((await runCli(['check', ...DEMO, ...only, '--fail-on', failOn, '--format', 'json'], { env })).code);
    }
    expect(codes).toEqual([1, 0]);
    // calculated-fields-valid is medium: at --fail-on high only the critical one counts.
    const medium = await runCli(['check', ...DEMO, '--only', 'calculated-fields-valid', '--fail-on', 'high'], { env });
    expect(medium.code).toBe(0);
    const fromConfig = await runCli(['check', ...DEMO, '--only', 'calculated-fields-valid'], { env });
    expect(fromConfig.code).toBe(1); // demo/steward.yaml says failOn: low
  });

  it('--only runs just those policies and reads just what they need', async () => {
    const r = await runCli(['check', ...DEMO, '--only', 'workflows-are-named', '--format', 'json'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.policies.map((p: { id: string }) => p.id)).toEqual(['workflows-are-named']);
    expect(findingKeys(report)).toEqual(['workflows-are-named workflow/wf-unnamed']);
    expect(sandbox.counts.listWorkflows).toBe(1);
    // The finding's owner: the listing's owner id, resolved against the user directory (two searches).
    expect(sandbox.counts.searchUsers).toBe(2);
    expect(sandbox.totalRequests()).toBe(3);
  });

  it('2: a broken policy file is reported at file:line:column and nothing is sent', async () => {
    const r = await runCli(['check', ...DEMO, '--policies', 'test/cli/fixtures/broken-policy.yaml'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^test\/cli\/fixtures\/broken-policy\.yaml:8:\d+: .*/m);
    expect(r.stderr).toContain('nothing was sent to the API');
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('2: bad flags (unknown flag, bad --fail-on, bad --output, unknown --only id), nothing sent', async () => {
    const env = sandboxEnv(sandbox);
    const unknown = await runCli(['check', ...DEMO, '--fial-on', 'high'], { env });
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("unknown option '--fial-on'")]);
    const failOn = await runCli(['check', ...DEMO, '--fail-on', 'severe'], { env });
    expect([failOn.code, failOn.stderr]).toEqual([2, expect.stringContaining('must be one of: info, low, medium, high, critical, none')]);
    const output = await runCli(['check', ...DEMO, '--output', 'pdf=x.pdf'], { env });
    expect([output.code, output.stderr]).toEqual([2, expect.stringContaining('unknown format "pdf"')]);
    const noPath = await runCli(['check', ...DEMO, '--output', 'sarif'], { env });
    expect([noPath.code, noPath.stderr]).toEqual([2, expect.stringContaining('expected FORMAT=PATH')]);
    const only = await runCli(['check', ...DEMO, '--only', 'no-such-policy'], { env });
    expect([only.code, only.stderr]).toEqual([2, expect.stringContaining('--only: no policy with id "no-such-policy"')]);
    const typo = await runCli(['check', ...DEMO, '--only', 'queue-no-admin-for-user'], { env });
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining(`no policy with id "queue-no-admin-for-user" (did you mean 'queue-no-admin-for-users'?)`)]);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('3: a wrong token fails closed, naming the 401, and never prints the token (stdout, stderr, every report file)', async () => {
    const dir = tempDir();
    const outputs = FORMATS.flatMap((f) => ['--output', `${f}=${path.join(dir, `report.${f}`)}`]);
    const r = await runCli(
      ['check', ...DEMO, '--only', 'workflows-are-named', '--only', 'calculated-fields-valid', '--verbose', ...outputs],
      { env: sandboxEnv(sandbox, 'tok-wrong-9999') },
    );
    expect(r.code).toBe(3);
    // One message for the run-wide cause, per host; the 401's full wording stays in the JSON report.
    expect(r.stderr).toContain(
      'steward: could not evaluate: the instance refused the developer token (401 Unauthorized): set STEWARD_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it). the workflow API refused the workflow token (401 Unauthorized): set STEWARD_WORKFLOW_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it). 2 policies could not be evaluated.\n',
    );
    const json = readFileSync(path.join(dir, 'report.json'), 'utf8');
    expect(json).toContain(
      '401 Unauthorized — missing, invalid or expired developer token (sent in X-SERVICE-Developer-Token; developer tokens expire after the lifetime chosen when they were created) (server: Invalid developer token)',
    );
    expect(json).toContain('401 Unauthorized — missing or invalid token: the workflow token is absent, wrong or not sent as \\"Authorization: Bearer\\"');
    expect(r.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/workflow\/v1\/workflows → 401 \(\d+ ms\)$/m);
    expect(r.stdout + r.stderr).not.toContain('tok-wrong-9999');
    for (const f of FORMATS) {
      const text = readFileSync(path.join(dir, `report.${f}`), 'utf8');
      expect(text, f).toContain('401');
      expect(text, f).not.toContain('tok-wrong-9999');
    }
    expect(await junitXsdProblems(readFileSync(path.join(dir, 'report.junit'), 'utf8'))).toEqual([]);
    expect(sarifValidator()(JSON.parse(readFileSync(path.join(dir, 'report.sarif'), 'utf8')))).toEqual([]);
  });

  it('3: the misconfigured-reports endpoint answering 403', async () => {
    sandbox.configure({ misconfiguredStatus: 403 });
    const r = await runCli(['check', ...DEMO, '--only', 'no-misconfigured-schedules', '--format', 'json'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).summary.gate).toBe('error');
    expect(r.stderr).toMatch(/403/);
  });
});
