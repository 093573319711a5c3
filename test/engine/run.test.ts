import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePolicies, type Demo, startDemo, summary } from './harness.js';
import { MISSION_PLANTED, MISSION_POLICIES } from './mission-policies.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

describe('runPolicies on the demo instance', () => {
  it('finds exactly the planted violations of the three mission policies', async () => {
    const run = await demo.run(compilePolicies(MISSION_POLICIES));
    expect(summary(run)).toEqual(MISSION_PLANTED);
    expect(run.results.map((r) => [r.id, r.status, r.violations])).toEqual([
      ['no-misconfigured-schedules', 'fail', 3],
      ['certified-datasets-need-owner-group', 'fail', 2],
      ['queue-no-admin-for-users', 'fail', 3],
    ]);
  });
});
