// The schedule ⋈ misconfigured join fails closed: a misconfigured report with no schedule in the
// schedule list proves the list incomplete, so the policies reading the join error (exit 3)
// instead of passing by omission. Runs check() with the demo config over the sandbox.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { check, exitCodeFor } from '../../src/index.js';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { ROOT } from './harness.js';

const INCOMPLETE = 'not in the schedule list: the list is incomplete (listing with filter=ALL needs an admin token)';
const SCHEDULE_POLICIES = ['no-misconfigured-schedules', 'schedule-timezone-valid', 'enabled-schedules-have-recipients'];

let s: Sandbox;
let saved: { schedules: Sandbox['state']['schedules']; misconfigured: Sandbox['state']['misconfigured'] };
beforeAll(async () => {
  s = await startSandbox();
  saved = { schedules: [...s.state.schedules], misconfigured: s.state.misconfigured.map((m) => ({ ...m })) };
});
afterEach(() => {
  s.state.schedules = [...saved.schedules];
  s.state.misconfigured = saved.misconfigured.map((m) => ({ ...m }));
  s.configure({ misconfiguredStatus: 200 });
});
afterAll(() => s.close());

function run(only = SCHEDULE_POLICIES, allowEmpty = false): Promise<Report> {
  s.resetCounts();
  return check({
    allowEmpty,
    config: 'demo/steward.yaml',
    cwd: ROOT,
    env: {},
    baseUrl: s.baseUrl,
    workflowUrl: s.workflowUrl,
    token: s.token,
    only,
  });
}

const statusOf = (report: Report) => Object.fromEntries(report.policies.map((p) => [p.id, p.status]));
const errorOf = (report: Report, id: string) => report.policies.find((p) => p.id === id)?.error;

describe('misconfigured reports with no schedule behind them', () => {
  it('an empty schedule list next to misconfigured reports is an error of every schedule policy, never a pass', async () => {
    expect(saved.misconfigured.map((m) => m.id)).toEqual([9001, 9002, 9003]);
    s.state.schedules = [];
    const report = await run();
    expect(report.summary.gate).toBe('error');
    expect(exitCodeFor(report)).toBe(3);
    expect(statusOf(report)).toEqual({
      'no-misconfigured-schedules': 'error',
      'schedule-timezone-valid': 'error',
      'enabled-schedules-have-recipients': 'error',
    });
    expect(errorOf(report, 'no-misconfigured-schedules')).toBe(
      `could not collect reportSchedule resources: the schedule list is empty and the misconfigured-reports list does not confirm it: misconfigured reports 9001, 9002, 9003 are ${INCOMPLETE}`,
    );
    // The list is read even though no schedule exists to join it with; each list once.
    expect(s.counts.getMisconfiguredReports).toBe(1);
    expect(s.counts.listReportSchedules).toBe(1);
  });

  it('a misconfigured id missing from a non-empty schedule list errors the policies reading the join', async () => {
    s.state.misconfigured = saved.misconfigured.map((m) => (m.id === 9002 ? { ...m, id: 99002 } : { ...m }));
    const report = await run();
    expect(report.summary.gate).toBe('error');
    expect(exitCodeFor(report)).toBe(3);
    expect(statusOf(report)).toEqual({
      'no-misconfigured-schedules': 'error',
      'schedule-timezone-valid': 'fail',
      'enabled-schedules-have-recipients': 'fail',
    });
    expect(errorOf(report, 'no-misconfigured-schedules')).toBe(
      `could not read reportSchedule data shared by all resources: misconfigured report 99002 is ${INCOMPLETE}`,
    );
    // Not one violation of the join survives next to the error: a partial join is no verdict.
    expect(report.findings.filter((f) => f.policy === 'no-misconfigured-schedules').map((f) => f.status)).toEqual(['error']);
    expect(s.counts.getMisconfiguredReports).toBe(1);
    expect(s.counts.listReportSchedules).toBe(1);
  });

  it('an empty schedule list whose misconfigured list cannot be read is an error, never a pass', async () => {
    s.state.schedules = [];
    s.configure({ misconfiguredStatus: 403 });
    const report = await run(['no-misconfigured-schedules']);
    expect(exitCodeFor(report)).toBe(3);
    expect(errorOf(report, 'no-misconfigured-schedules')).toMatch(
      /^could not collect reportSchedule resources: the schedule list is empty and the misconfigured-reports list does not confirm it: getMisconfiguredReports: \[GET\] ".*": 403 Forbidden/,
    );
  });

  it('an empty schedule list with an empty misconfigured list passes (a run that accepts an empty one)', async () => {
    s.state.schedules = [];
    s.state.misconfigured = [];
    // Not accepted, the run is refused for evaluating nothing, not for the listing.
    const refused = await run();
    expect([refused.summary.gate, refused.stoppedBy]).toEqual(['error', [expect.objectContaining({ cause: 'the run evaluated nothing (no reportSchedule resources were found)' })]]);
    const report = await run(SCHEDULE_POLICIES, true);
    expect(report.summary.gate).toBe('pass');
    expect(exitCodeFor(report)).toBe(0);
    expect(statusOf(report)).toEqual({
      'no-misconfigured-schedules': 'pass',
      'schedule-timezone-valid': 'pass',
      'enabled-schedules-have-recipients': 'pass',
    });
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });
});
