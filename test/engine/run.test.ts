import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePolicies, type Demo, startDemo, summary } from './harness.js';
import { MISSION_POLICIES } from './mission-policies.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

describe('runPolicies on the demo instance', () => {
  it('finds exactly the planted violations of the three mission policies', async () => {
    const run = await demo.run(compilePolicies(MISSION_POLICIES));
    expect(summary(run)).toEqual([
      'violation certified-datasets-need-owner-group ds-hr-certified',
      'violation certified-datasets-need-owner-group ds-sales-certified',
      'violation no-misconfigured-schedules 9001',
      'violation no-misconfigured-schedules 9002',
      'violation no-misconfigured-schedules 9003',
      'violation queue-no-admin-for-users q-finance-intake 7',
      'violation queue-no-admin-for-users q-support-escalations 12',
      'violation queue-no-admin-for-users q-support-escalations 15',
    ]);
    expect(run.results.map((r) => [r.id, r.status, r.violations])).toEqual([
      ['no-misconfigured-schedules', 'fail', 3],
      ['certified-datasets-need-owner-group', 'fail', 2],
      ['queue-no-admin-for-users', 'fail', 3],
    ]);
  });
});
