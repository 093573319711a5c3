// The built-in pack against the demo instance finds exactly what demo/PLANTED.md lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/run.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { loadPolicies } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { type Demo, ROOT, startDemo, summary } from './harness.js';
import { MISSION_PLANTED } from './mission-policies.js';

const MISSION = ['no-misconfigured-schedules', 'certified-datasets-need-owner-group', 'queue-no-admin-for-users'];

let demo: Demo;
let all: RunResult;
let requests: number;
let counts: Record<string, number>;
const pack = async () => (await loadPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT })).map((d) => compilePolicy(d));
beforeAll(async () => {
  demo = await startDemo();
  all = await demo.run(await pack());
  requests = demo.sandbox.totalRequests();
  counts = { ...demo.sandbox.counts };
});
afterAll(() => demo.close());

describe('built-in pack on the demo instance', () => {
  it('the three mission policies find exactly their planted violations', async () => {
    const mission = (await pack()).filter((p) => MISSION.includes(p.id));
    expect(mission).toHaveLength(3);
    const run = await demo.run(mission);
    expect(summary(run)).toEqual(MISSION_PLANTED);
  });

  it('every policy finds exactly the planted violations and nothing else', () => {
    const fs = '3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77';
    expect(summary(all)).toEqual(
      [
        'violation no-misconfigured-schedules 9001',
        'violation no-misconfigured-schedules 9002',
        'violation no-misconfigured-schedules 9003',
        'violation schedule-timezone-valid 9004',
        'violation enabled-schedules-have-recipients 9005',
        'violation certified-datasets-need-owner-group ds-sales-certified',
        'violation certified-datasets-need-owner-group ds-hr-certified',
        'violation datasets-have-an-owner ds-scratch',
        'violation scheduled-cards-certification-current 7001',
        'violation queue-no-admin-for-users q-finance-intake 7',
        'violation queue-no-admin-for-users q-support-escalations 12',
        'violation queue-no-admin-for-users q-support-escalations 15',
        'violation queue-entries-grant-something q-hr-requests 31',
        'violation data-files-not-public 42',
        'violation data-files-no-admin-grant 43 7',
        'violation calculated-fields-valid instance',
        'violation calculated-fields-links-valid instance',
        `violation fileset-files-sha256 ${fs}:/raw/legacy.csv`,
        'violation workflows-are-named wf-unnamed',
        'violation queue-permissions-match-manifest q-marketing 77',
        'violation data-file-permissions-match-manifest 44 publicAccess',
        'violation report-schedules-owner-active 9003',
        'violation datasets-owner-active ds-hr-certified',
        'violation cards-owner-active 7001',
        'violation queues-owner-active q-hr-requests',
        'violation data-files-owner-active 43',
        `violation fileset-files-owner-active ${fs}:/raw/a.parquet`,
        `violation fileset-files-owner-active ${fs}:/raw/legacy.csv`,
        `violation fileset-files-owner-active ${fs}:/reports/q1.csv`,
        'violation workflows-owner-active wf-nightly-refresh',
        // Who can see what: cards in this scope, datasets' PDP and listed certification, file-set access, workflow permissions.
        'violation cards-share-through-groups 7002',
        'violation datasets-pdp-where-wide ds-sales-certified',
        'violation datasets-pdp-open-policy-narrow ds-finance-certified',
        'violation datasets-pdp-no-departed-users ds-hr-certified',
        'violation certification-requests-current ds-scratch',
        'violation certified-datasets-certification-current ds-legacy-expired',
        `violation fileset-files-edit-through-groups ${fs}:/raw/a.parquet 12`,
        `violation fileset-files-edit-through-groups ${fs}:/raw/legacy.csv 12`,
        `violation fileset-files-edit-through-groups ${fs}:/reports/q1.csv 12`,
        'violation workflows-edit-through-groups wf-nightly-refresh 9',
      ].sort(),
    );
    // The people, page and account kinds are not in this run's scope: their policies checked
    // nothing (skipped). The rest fail, but the card sharing manifest's: card 7001 is shared as declared.
    const identity = ['user', 'group', 'role', 'accessToken', 'page', 'account'];
    const statuses = Object.fromEntries(all.results.filter((r) => !identity.includes(r.resource)).map((r) => [r.id, r.status]));
    expect(Object.entries(statuses).filter(([, status]) => status !== 'fail')).toEqual([['card-sharing-matches-manifest', 'pass']]);
    expect(all.results.filter((r) => identity.includes(r.resource)).every((r) => r.status === 'skipped')).toBe(true);
  });

  it('reads each thing once: one request per dataset part, card certification, file and list page', () => {
    const c = counts;
    const scopeDatasets = 25;
    expect({
      requests,
      certification: c.getCertificationStatus,
      access: c.getDatasetPermissions,
      misconfigured: c.getMisconfiguredReports,
      files: c.getFileByPath,
      stats: c.getCalculatedFieldStatistics,
      workflows: c.listWorkflows,
      schedules: c.listReportSchedules,
      queues: c.getQueuePermissions,
      dataFiles: c.getDataFilePermissions,
    }).toMatchObject({ misconfigured: 1, files: 3, stats: 1, workflows: 1, access: scopeDatasets, schedules: 1, queues: 4, dataFiles: 3 });
    // nothing else: no writes, no repeated reads (the drift policies read each declared queue and file once)
    const reads = ['getCertificationStatus', 'getDatasetPermissions', 'getMisconfiguredReports', 'getFileByPath', 'getQueuePermissions', 'getDataFilePermissions'];
    // The owner parts: each content kind's listing once (one page each here), the users twice (live, deleted).
    const owners = ['listDatasets', 'searchCards', 'listQueues', 'listDataFiles', 'searchFilesets'];
    for (const op of owners) expect(c[op], op).toBe(1);
    expect(c.searchUsers).toBe(2);
    // Sharing: one access list per card, one PDP read per dataset, one file-set access read per set, one permission read per workflow.
    const state = demo.sandbox.state;
    expect({ cardAccess: c.getCardAccessList, pdp: c.getPdpPolicies, filesetAccess: c.getFilesetAccess, workflowPermissions: c.getWorkflowPermissions, cardSummaries: c.listCardSummaries }).toEqual({
      cardAccess: all.results.find((r) => r.id === 'cards-share-through-groups')!.resourceIds.length,
      pdp: scopeDatasets,
      filesetAccess: 1,
      workflowPermissions: state.workflows.length,
      // cards-owner-active judges every owner the card admin summary names: read once, one page here.
      cardSummaries: 1,
    });
    const sharing = ['getCardAccessList', 'getPdpPolicies', 'getFilesetAccess', 'getWorkflowPermissions', 'listCardSummaries'];
    // The datasets' reach: the group list once (one page here).
    expect(c.listGroups).toBe(1);
    const listed = [...reads, ...owners, ...sharing, 'searchUsers', 'listGroups', 'getCalculatedFieldStatistics', 'listWorkflows', 'listReportSchedules'];
    expect(requests).toBe(listed.reduce((n, op) => n + c[op], 0));
    const cards = all.results.find((r) => r.id === 'scheduled-cards-certification-current')!.resourceIds.length;
    expect(c.getCertificationStatus).toBe(scopeDatasets + cards);
  });
});
