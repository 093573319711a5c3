// Enforcement levels: advisory findings are reported and never fail the gate; soft ones fail it
// unless the run overrides the policy with a reason (recorded in the report); hard ones cannot
// be overridden. API errors still exit 3. The CLI against the sandbox demo.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-enforcement-0001' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const POLICY = 'queue-no-admin-for-users';

/** The demo with `enforcement: { POLICY: level }` in its config. */
function demoWith(level: string, policy = POLICY): string {
  const dir = copyDemo();
  const file = path.join(dir, 'steward.yaml');
  writeFileSync(file, `${readFileSync(file, 'utf8')}enforcement:\n  ${policy}: ${level}\n`);
  return dir;
}

async function check(dir: string, ...args: string[]) {
  const r = await runCli(['check', '--config', 'steward.yaml', '--only', POLICY, '--format', 'json', ...args], { cwd: dir, env: sandboxEnv(sandbox) });
  return { ...r, report: r.stdout ? (JSON.parse(r.stdout) as Report) : null };
}

describe('enforcement levels', () => {
  it('hard (the default): its violations fail the gate', async () => {
    const r = await check(copyDemo());
    expect(r.code).toBe(1);
    expect(r.report?.policies[0]).toMatchObject({ id: POLICY, enforcement: 'hard', violations: 2 });
  });

  it('advisory: the violations are reported, exit 0', async () => {
    const r = await check(demoWith('advisory'));
    expect(r.code).toBe(0);
    expect(r.report?.summary).toMatchObject({ gate: 'pass', violations: 2 });
    expect(r.report?.policies[0]).toMatchObject({ enforcement: 'advisory', status: 'fail', violations: 2 });
    expect(r.report?.findings.filter((f) => f.status === 'violation').map((f) => f.resource.id).sort()).toEqual(['q-finance-intake', 'q-support-escalations']);
  });

  it('soft: exit 1, then exit 0 with --override, the reason in the report', async () => {
    const dir = demoWith('soft');
    expect((await check(dir)).code).toBe(1);
    const r = await check(dir, '--override', `${POLICY}=break-glass accounts reviewed in CHG-1234`);
    expect(r.code).toBe(0);
    expect(r.report?.overrides).toEqual([{ policy: POLICY, reason: 'break-glass accounts reviewed in CHG-1234' }]);
    expect(r.report?.summary).toMatchObject({ gate: 'pass', violations: 2 });
    const text = await runCli(['check', '--config', 'steward.yaml', '--only', POLICY, '--override', `${POLICY}=break-glass accounts reviewed in CHG-1234`], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(text.stdout).toContain(`Overridden soft policies (their violations do not fail this run):\n  ${POLICY}: break-glass accounts reviewed in CHG-1234`);
  });

  it('an override of a hard or advisory policy, without a reason, or of no policy: exit 2 naming it, nothing sent', async () => {
    const cases: [string, string, string][] = [
      ['hard', `${POLICY}=because`, `--override: ${POLICY} is hard: it cannot be overridden (only soft policies can)`],
      ['advisory', `${POLICY}=because`, `--override: ${POLICY} is advisory: it never fails the gate, there is nothing to override`],
      ['soft', POLICY, `--override: ${POLICY}: an override needs a reason: --override ${POLICY}="why this run may pass"`],
      ['soft', 'queue-no-admin-for-user=x', `--override: no policy with id "queue-no-admin-for-user" (did you mean '${POLICY}'?)`],
    ];
    for (const [level, override, message] of cases) {
      const r = await check(demoWith(level), '--override', override);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(message);
    }
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('an API error is exit 3 whatever the level', async () => {
    sandbox.scriptFault('getDatasetPermissions', { status: 500 }, 1000);
    const r = await runCli(['check', '--config', 'steward.yaml', '--only', 'datasets-have-an-owner', '--fail-on', 'none'], {
      cwd: demoWith('advisory', 'datasets-have-an-owner'),
      env: sandboxEnv(sandbox),
    });
    expect(r.code).toBe(3);
  });

  it('the config level naming no policy is exit 2 at its key', async () => {
    const dir = copyDemo();
    const file = path.join(dir, 'steward.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}enforcement:\n  queue-no-admin: soft\n`);
    const r = await runCli(['check', '--config', 'steward.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`steward.yaml:${text.split('\n').length + 1}:3: enforcement: no policy with id "queue-no-admin"`);
  });
});
