// How many requests a run makes, and what a failed read does to which policies.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compilePolicies, type Demo, demoScope, startDemo, summary } from './harness.js';
import { MISSION_POLICIES } from './mission-policies.js';

const ALL = compilePolicies(MISSION_POLICIES);
const byId = (id: string) => ALL.filter((p) => p.id === id);

const OWNER_POLICY = `
policies:
  - id: datasets-have-an-owner
    title: Datasets have an owner
    description: Someone answers for every dataset.
    severity: medium
    resource: dataset
    assert: "resource.access.list.exists(e, e.accessLevel == 'OWNER')"
    message: "Dataset {{ resource.id }} has no OWNER"
`;

const SCHEDULE_POLICIES = `
policies:
  - id: enabled-schedules-have-recipients
    title: Enabled schedules have recipients
    description: An enabled schedule without recipients sends to nobody.
    severity: low
    resource: reportSchedule
    when: resource.schedule.enabled
    assert: resource.recipientCount > 0
    message: "Schedule {{ resource.id }} is enabled but has no recipients"
  - id: misconfiguration-is-inactive
    title: Misconfigured schedules are inactive
    description: Reads the misconfiguration item only for misconfigured schedules.
    severity: low
    resource: reportSchedule
    when: resource.misconfigured
    assert: "!resource.misconfiguration.active"
    message: "Schedule {{ resource.id }} is misconfigured and active"
`;

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());
beforeEach(() => {
  demo.sandbox.resetCounts();
  demo.sandbox.configure({ misconfiguredStatus: 200, workflowGrant: true });
});

function activeDatasets(): number {
  return demoScope().ids.datasets!.filter((id) => demo.sandbox.state.certifications.get(`DATA_SOURCE:${id}`)?.state === 'ACTIVE')
    .length;
}

describe('lazy document parts', () => {
  it('reads certification of every dataset and access only of the certified ones', async () => {
    const n = demoScope().ids.datasets!.length;
    const k = activeDatasets();
    expect(k).toBeGreaterThan(2);
    expect(k).toBeLessThan(n);
    const run = await demo.run(byId('certified-datasets-need-owner-group'));
    expect(demo.sandbox.counts.getCertificationStatus).toBe(n);
    expect(demo.sandbox.counts.getDatasetPermissions).toBe(k);
    // The 2 findings' owners: the dataset listing and the user directory (two searches), once each.
    expect([demo.sandbox.counts.listDatasets, demo.sandbox.counts.searchUsers]).toEqual([1, 2]);
    expect(demo.sandbox.totalRequests()).toBe(n + k + 3);
    expect(run.results[0]).toMatchObject({ evaluated: k, violations: 2, status: 'fail' });
    expect(run.results[0].resourceIds).toHaveLength(k);
    expect(run.resources).toBe(n);
    expect(run.checks).toBe(k);
  });

  it('two policies reading the same part make one read of it per resource', async () => {
    const n = demoScope().ids.datasets!.length;
    const run = await demo.run([...byId('certified-datasets-need-owner-group'), ...compilePolicies(OWNER_POLICY)]);
    expect(demo.sandbox.counts.getCertificationStatus).toBe(n);
    expect(demo.sandbox.counts.getDatasetPermissions).toBe(n);
    expect(summary(run)).toEqual([
      'violation certified-datasets-need-owner-group ds-hr-certified',
      'violation certified-datasets-need-owner-group ds-sales-certified',
      'violation datasets-have-an-owner ds-scratch',
    ]);
  });

  it('reads the schedule list once and the misconfigured list once for all schedules', async () => {
    const run = await demo.run([...byId('no-misconfigured-schedules'), ...compilePolicies(SCHEDULE_POLICIES)]);
    expect(demo.sandbox.counts.getMisconfiguredReports).toBe(1);
    const schedules = demo.sandbox.state.schedules.length;
    // one page of each list at the client's default page size
    expect(demo.sandbox.counts.listReportSchedules).toBe(1);
    expect(run.resources).toBe(schedules);
    const active = demo.sandbox.state.misconfigured.filter((m) => m.active).map((m) => m.id);
    expect(active).toEqual([9001, 9002]);
    expect(summary(run)).toEqual([
      'violation enabled-schedules-have-recipients 9005',
      'violation misconfiguration-is-inactive 9001',
      'violation misconfiguration-is-inactive 9002',
      'violation no-misconfigured-schedules 9001',
      'violation no-misconfigured-schedules 9002',
      'violation no-misconfigured-schedules 9003',
    ]);
  });

  it('schedule policies reading no join read no misconfigured list, its check after collection included', async () => {
    const [recipients] = compilePolicies(SCHEDULE_POLICIES).filter((p) => p.id === 'enabled-schedules-have-recipients');
    const run = await demo.run([recipients]);
    // The schedule list, and the user directory (live, then deleted) for the finding's owner.
    expect([demo.sandbox.counts.listReportSchedules, demo.sandbox.counts.getMisconfiguredReports, demo.sandbox.counts.searchUsers, demo.sandbox.totalRequests()]).toEqual([1, 0, 2, 3]);
    expect(summary(run)).toEqual(['violation enabled-schedules-have-recipients 9005']);
  });

  it('a join part that only unselected schedules would read is never read, nor checked', async () => {
    // `when` selects no schedule, so the judgement's part (misconfiguration) is never loaded.
    const never = compilePolicies(SCHEDULE_POLICIES.replace('when: resource.misconfigured', 'when: resource.id < 0')).filter((p) => p.id === 'misconfiguration-is-inactive');
    expect(never).toHaveLength(1);
    const run = await demo.run(never);
    expect(demo.sandbox.counts.getMisconfiguredReports).toBe(0);
    expect(run.results.map((r) => [r.id, r.status, r.evaluated])).toEqual([['misconfiguration-is-inactive', 'pass', 0]]);
  });

  it('makes no request for declared kinds', async () => {
    const run = await demo.run(byId('queue-no-admin-for-users'));
    expect(demo.sandbox.totalRequests()).toBe(0);
    expect(run.resources).toBe(4);
  });
});

describe('failed reads', () => {
  it('misconfigured list 403: only policies reading it error, other policies and kinds report', async () => {
    demo.sandbox.configure({ misconfiguredStatus: 403 });
    const run = await demo.run([...ALL, ...compilePolicies(SCHEDULE_POLICIES)]);
    expect(demo.sandbox.counts.getMisconfiguredReports).toBe(1);
    const status = Object.fromEntries(run.results.map((r) => [r.id, r.status]));
    expect(status).toEqual({
      'no-misconfigured-schedules': 'error',
      'certified-datasets-need-owner-group': 'fail',
      'queue-no-admin-for-users': 'fail',
      'enabled-schedules-have-recipients': 'fail',
      'misconfiguration-is-inactive': 'error',
    });
    const errors = run.findings.filter((f) => f.status === 'error');
    // one error per policy (the shared read), not one per schedule
    expect(errors.map((f) => [f.policy, f.resource.id])).toEqual([
      ['no-misconfigured-schedules', '*'],
      ['misconfiguration-is-inactive', '*'],
    ]);
    expect(errors[0].message).toMatch(/403/);
    expect(run.results[0].error).toMatch(/getMisconfiguredReports/);
    expect(summary(run).filter((s) => s.startsWith('violation'))).toHaveLength(6);
  });

  it('a failed listing makes every policy of that kind an error; other kinds continue', async () => {
    demo.sandbox.configure({ workflowGrant: false });
    const run = await demo.run([
      ...byId('queue-no-admin-for-users'),
      ...compilePolicies(`
policies:
  - id: workflows-are-named
    title: Workflows are named
    description: x
    severity: low
    resource: workflow
    assert: "resource.name != ''"
    message: "Workflow {{ resource.id }} has no name"
`),
    ]);
    expect(run.results.map((r) => [r.id, r.status])).toEqual([
      ['queue-no-admin-for-users', 'fail'],
      ['workflows-are-named', 'error'],
    ]);
    const err = run.findings.find((f) => f.status === 'error')!;
    expect(err.resource).toEqual({ kind: 'workflow', id: '*', name: null });
    expect(err.message).toMatch(/Workflow API grant/);
    expect(err.location).toEqual(run.results[1].location);
  });

  it('a dataset whose certification read fails is an error of that dataset, never a pass', async () => {
    demo.sandbox.scriptFault('getCertificationStatus', { status: 404, body: '{"message":"no such entity"}' }, 1);
    const run = await demo.run(byId('certified-datasets-need-owner-group'));
    const errors = run.findings.filter((f) => f.status === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].resource.kind).toBe('dataset');
    expect(errors[0].message).toMatch(/could not read dataset .*404/);
    expect(run.results[0].status).toBe('error');
    expect(run.findings.filter((f) => f.status === 'violation').length).toBeGreaterThanOrEqual(1);
  });
});
