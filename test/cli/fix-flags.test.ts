// `steward fix` flags end to end: the built CLI against an in-process sandbox, on a copy of the
// demo. Only the declared kinds' policies are selected, so the run reads nothing from the API
// and every request counted is a fix being sent.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { queueStateAfter } from '../fix/helpers.js';
import { copyDemo, findingKeys, REPO, runCli, sandboxEnv } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const ONLY = ['queue-no-admin-for-users', 'queue-entries-grant-something', 'data-files-not-public', 'data-files-no-admin-grant'].flatMap(
  (id) => ['--only', id],
);
const FIX = ['fix', '--config', 'steward.yaml', ...ONLY];

interface PlanJson {
  id: string;
  changes: { resource: { kind: string; id: string }; request: { method: string; path: string; body: unknown } }[];
}

const validatePlan = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(path.join(REPO, 'schema/plan.schema.json'), 'utf8')));

/**
 * `fix --plan-out plan.json --format json` in `demo`: the saved file is exactly the JSON on
 * stdout, valid against schema/plan.schema.json, and nothing was sent.
 */
async function savePlan(demo: string): Promise<PlanJson> {
  const r = await runCli([...FIX, '--plan-out', 'plan.json', '--format', 'json'], { env: sandboxEnv(sandbox), cwd: demo });
  expect([r.code, r.stderr]).toEqual([0, 'plan saved to plan.json\n']);
  const file = readFileSync(path.join(demo, 'plan.json'), 'utf8');
  expect(file).toBe(r.stdout);
  const plan = JSON.parse(file) as PlanJson;
  expect(validatePlan(plan)).toBe(true);
  expect(plan.changes.map((c) => `${c.resource.kind}/${c.resource.id}`)).toEqual([
    'dataFile/42',
    'dataFile/43',
    'queue/q-finance-intake',
    'queue/q-hr-requests',
    'queue/q-support-escalations',
  ]);
  expect(sandbox.totalRequests()).toBe(0);
  return plan;
}

const journals = (demo: string) => (existsSync(path.join(demo, '.steward')) ? readdirSync(path.join(demo, '.steward')) : []);

describe('steward fix --plan-out / --plan', () => {
  it('--plan-out saves the JSON plan; --apply --yes --plan with unchanged manifests sets the instance to the plan’s bodies, one request per change', async () => {
    const demo = copyDemo();
    const plan = await savePlan(demo);
    const r = await runCli(['fix', '--config', 'steward.yaml', '--apply', '--yes', '--plan', 'plan.json'], { env: sandboxEnv(sandbox), cwd: demo });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^applied 5 of 5 changes; journal: \.steward\/journal-[0-9TZ-]+\.jsonl\n/);
    for (const c of plan.changes) {
      const state =
        c.resource.kind === 'queue' ? sandbox.state.queuePermissions.get(c.resource.id) : sandbox.state.dataFilePermissions.get(c.resource.id);
      // A queue entry sent with [] is removed on the instance (the platform's semantics).
      const expected = c.resource.kind === 'queue' ? queueStateAfter(c.request.body) : c.request.body;
      expect([c.resource.id, state]).toEqual([c.resource.id, expected]);
    }
    expect([sandbox.counts.updateQueuePermissions, sandbox.counts.updateFilePermissions, sandbox.totalRequests()]).toEqual([3, 2, 5]);
    expect(journals(demo)).toHaveLength(1);
  });

  it('--apply --yes --plan after a manifest changed (a comment appended): exit 2 naming it, no request, no journal', async () => {
    const demo = copyDemo();
    const plan = await savePlan(demo);
    appendFileSync(path.join(demo, 'permissions/queues/hr-requests.yaml'), '# reviewed\n');
    const r = await runCli(['fix', '--config', 'steward.yaml', '--apply', '--yes', '--plan', 'plan.json'], { env: sandboxEnv(sandbox), cwd: demo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `permissions/queues/hr-requests.yaml: changed since plan ${plan.id} was made: nothing was applied; make a new plan`,
    );
    expect(r.stderr).not.toContain('finance-intake.yaml');
    expect(sandbox.totalRequests()).toBe(0);
    expect(journals(demo)).toEqual([]);
  });
});

describe('files fix writes', () => {
  it('a --plan-out or an --apply journal that cannot be written is exit 2 before any request (it was exit 3 after the run)', async () => {
    const demo = copyDemo();
    mkdirSync(path.join(demo, 'taken'));
    // A live kind's policy: without the refusal the run would read the instance.
    const live = ['fix', '--config', 'steward.yaml', '--only', 'schedule-timezone-valid'];
    const planOut = await runCli([...live, '--plan-out', 'taken'], { env: sandboxEnv(sandbox), cwd: demo });
    expect([planOut.code, planOut.stdout, planOut.stderr]).toEqual([2, '', '--plan-out: taken: is a directory\nsteward: bad input; nothing was sent to the API\n']);
    const journal = await runCli([...live, '--apply', '--yes', '--journal', 'steward.yaml/journal.jsonl'], { env: sandboxEnv(sandbox), cwd: demo });
    expect([journal.code, journal.stdout, journal.stderr]).toEqual([2, '', `--journal: steward.yaml/journal.jsonl: ${path.join(demo, 'steward.yaml')} is not a directory\nsteward: bad input; nothing was sent to the API\n`]);
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('steward fix --apply', () => {
  it('--max-changes 1 refuses the 5-change plan before any request: exit 2, the exact message, no journal', async () => {
    const demo = copyDemo();
    const r = await runCli([...FIX, '--apply', '--yes', '--max-changes', '1'], { env: sandboxEnv(sandbox), cwd: demo });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toContain('--max-changes: the plan has 5 changes, more than the limit of 1: nothing was applied');
    expect(sandbox.totalRequests()).toBe(0);
    expect(journals(demo)).toEqual([]);
  });

  it('--write: afterwards `steward check --only queue-no-admin-for-users` passes with no violation', async () => {
    const demo = copyDemo();
    const env = sandboxEnv(sandbox);
    const before = await runCli(['check', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--format', 'json'], { env, cwd: demo });
    expect([before.code, JSON.parse(before.stdout).summary.violations]).toEqual([1, 2]);
    const fixed = await runCli([...FIX, '--apply', '--yes', '--write'], { env, cwd: demo });
    expect(fixed.code).toBe(0);
    expect(sandbox.totalRequests()).toBe(5);
    const after = await runCli(['check', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--format', 'json'], { env, cwd: demo });
    const report = JSON.parse(after.stdout);
    expect([after.code, report.summary.violations, findingKeys(report)]).toEqual([0, 0, []]);
    // The break-glass account stays, waived (demo/waivers.yaml).
    expect(findingKeys(report, 'waived')).toEqual(['queue-no-admin-for-users queue/q-support-escalations permissions[2]']);
  });
});
