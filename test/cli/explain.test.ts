// `steward explain POLICY RESOURCE` on a failing and a passing resource of three built-in
// policies (printed, as the issue asks): every sub-expression with its value, the fields read,
// and for what failed the value that would pass; the same requests as `check --only POLICY`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Explanation } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, sandboxEnv } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const DEMO = ['--config', 'demo/steward.yaml'];

async function explainOf(policy: string, resource: string): Promise<{ text: string; json: Explanation }> {
  const env = sandboxEnv(sandbox);
  const text = await runCli(['explain', policy, resource, ...DEMO], { env });
  expect(text.code, text.stderr).toBe(0);
  console.log(text.stdout);
  const json = await runCli(['explain', policy, resource, ...DEMO, '--format', 'json'], { env });
  return { text: text.stdout, json: JSON.parse(json.stdout) as Explanation };
}

describe('steward explain', () => {
  it('schedule-timezone-valid: 9004 fails on its time zone, 9001 passes', async () => {
    const failing = await explainOf('schedule-timezone-valid', '9004');
    const lines = failing.text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'schedule-timezone-valid (medium) on reportSchedule/9004: violation',
      '  Report schedules use a valid IANA time zone',
      'reads: id, schedule, title',
      'assert: resource.schedule.timezone != null && isTimeZone(resource.schedule.timezone)',
      '  resource.schedule.timezone != null && isTimeZone(resource.schedule.timezone)  → false',
      '    resource.schedule.timezone != null  → true',
      '      resource.schedule.timezone  → "Mars/Olympus"',
    ]);
    expect(lines.slice(8, 10)).toEqual(['    isTimeZone(resource.schedule.timezone)  → false', '      resource.schedule.timezone  → "Mars/Olympus"']);
    expect(failing.json.findings.map((f) => f.status)).toEqual(['violation']);
    const passing = await explainOf('schedule-timezone-valid', '9001');
    expect(passing.json.outcome).toBe('pass');
    expect(passing.json.items[0].expressions[0].nodes.map((n) => [n.text, n.value]).slice(0, 3)).toEqual([
      ['resource.schedule.timezone != null && isTimeZone(resource.schedule.timezone)', true],
      ['resource.schedule.timezone != null', true],
      ['resource.schedule.timezone', 'Europe/Berlin'],
    ]);
  });

  it('certified-datasets-need-owner-group: exists() that found nothing says how many elements it saw; a group owner passes', async () => {
    const failing = await explainOf('certified-datasets-need-owner-group', 'ds-hr-certified');
    expect(failing.json.outcome).toBe('violation');
    const assert = failing.json.items[0].expressions.find((e) => e.field === 'assert')!;
    expect(assert.nodes[0]).toMatchObject({
      depth: 0,
      value: false,
      hint: 'passes when one of the 1 elements of resource.access.list satisfies it (none does)',
    });
    expect(failing.json.reads).toEqual(['access', 'certification', 'id']);
    const passing = await explainOf('certified-datasets-need-owner-group', 'ds-finance-certified');
    expect(passing.json.outcome).toBe('pass');
    expect(passing.json.items[0].expressions.map((e) => [e.field, e.nodes[0].value])).toEqual([
      ['when', true],
      ['assert', true],
    ]);
  });

  it('queue-no-admin-for-users: the failing item first, with the value that would pass; a queue of group grants passes', async () => {
    const failing = await explainOf('queue-no-admin-for-users', 'q-finance-intake');
    expect(failing.json.each?.source).toBe('resource.permissions');
    expect(failing.json.items[0]).toMatchObject({ path: 'permissions[0]', outcome: 'violation' });
    const assert = failing.json.items[0].expressions.find((e) => e.field === 'assert')!;
    expect(assert.nodes.map((n) => [n.depth, n.text, n.value, n.hint ?? null])).toEqual([
      [0, '!("ADMIN" in item.permissions)', false, null],
      [1, '"ADMIN" in item.permissions', true, 'passes when item.permissions does not hold "ADMIN"'],
      [2, 'item.permissions', ['READ', 'ADMIN'], null],
    ]);
    expect(failing.text).toContain('permissions[1]: not selected\n  when: item.type == \'USER\'\n    item.type == "USER"  → false\n      item.type  → "GROUP"\n  assert: not evaluated (when is not true)\n');
    const passing = await explainOf('queue-no-admin-for-users', 'q-marketing');
    expect(passing.json.outcome).toBe('pass');
    expect(passing.json.findings).toEqual([]);
  });

  it('asks what check --only POLICY asks, nothing more; an unknown resource is exit 2 naming what was read', async () => {
    const env = sandboxEnv(sandbox);
    await runCli(['check', ...DEMO, '--only', 'schedule-timezone-valid', '--quiet'], { env });
    const checked = sandbox.totalRequests();
    sandbox.resetCounts();
    await runCli(['explain', 'schedule-timezone-valid', '9004', ...DEMO], { env });
    expect(sandbox.totalRequests()).toBe(checked);
    const none = await runCli(['explain', 'schedule-timezone-valid', '123456', ...DEMO], { env });
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/^steward explain: no reportSchedule "123456" among the \d+ reportSchedule resources this run read for schedule-timezone-valid/)]);
  });

  it('check --explain POLICY:RESOURCE explains after the text report in the same run (its requests, no second run); beside JSON it goes to stderr', async () => {
    const env = sandboxEnv(sandbox);
    const only = ['--only', 'schedule-timezone-valid'];
    await runCli(['check', ...DEMO, ...only, '--quiet'], { env });
    const alone = sandbox.totalRequests();
    sandbox.resetCounts();
    const text = await runCli(['check', ...DEMO, ...only, '--explain', 'schedule-timezone-valid:9004'], { env });
    expect(text.code).toBe(1);
    expect(sandbox.totalRequests()).toBe(alone);
    expect(text.stdout).toMatch(/✖ fail: 1 violation \(1 medium\)[^\n]*\n\nschedule-timezone-valid \(medium\) on reportSchedule\/9004: violation\n/);
    const json = await runCli(['check', ...DEMO, ...only, '--format', 'json', '--explain', 'schedule-timezone-valid:9004'], { env });
    expect(JSON.parse(json.stdout).findings).toHaveLength(1);
    expect(json.stderr).toContain('schedule-timezone-valid (medium) on reportSchedule/9004: violation\n');
    const bad = await runCli(['check', ...DEMO, '--explain', 'no-colon'], { env });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('expected POLICY:RESOURCE')]);
  });

  it('check --explain of a policy the run does not evaluate is exit 2 before any request (it could explain nothing)', async () => {
    const env = sandboxEnv(sandbox);
    sandbox.resetCounts();
    const typo = await runCli(['check', ...DEMO, '--explain', 'schedule-timezone-vaild:9004'], { env });
    expect([typo.code, typo.stderr]).toEqual([2, `--explain: policy "schedule-timezone-vaild" is not loaded (did you mean 'schedule-timezone-valid'?) (see \`steward list\`)\nsteward: bad input; nothing was sent to the API\n`]);
    const left = await runCli(['check', ...DEMO, '--only', 'queue-no-admin-for-users', '--explain', 'schedule-timezone-valid:9004'], { env });
    expect([left.code, left.stderr]).toEqual([2, '--explain: policy "schedule-timezone-valid" is left out of this run (--only, --skip or --framework)\nsteward: bad input; nothing was sent to the API\n']);
    expect(sandbox.totalRequests()).toBe(0);
  });
});
