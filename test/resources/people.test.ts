// The `owner` part of the content kinds over HTTP on the demo instance: each owner resolved
// against the one user directory (the live and the deleted listings, read once), a group owner
// without a state, and an item its kind's listing does not carry an error, never a pass.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { check } from '../../src/index.js';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { REPO } from '../cli/helpers.js';

const OWNER_POLICIES = ['datasets-owner-active', 'data-files-owner-active', 'queues-owner-active', 'workflows-owner-active', 'cards-owner-active', 'report-schedules-owner-active', 'fileset-files-owner-active'];

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const run = (only = OWNER_POLICIES): Promise<Report> =>
  check({ config: 'demo/steward.yaml', cwd: REPO, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only });

describe('owner liveness on content', () => {
  it('resolves each content owner to a user with a state, in the JSON report, reading every listing once', async () => {
    const report = await run();
    expect(report.summary.errors).toBe(0);
    const dataset = report.findings.find((f) => f.policy === 'datasets-owner-active')!;
    expect(dataset.resource).toEqual({ kind: 'dataset', id: 'ds-hr-certified', name: null });
    expect(dataset.owner).toEqual({ type: 'USER', id: '31', name: 'Eva Novak', email: 'eva.novak@example.com', state: 'deactivated' });
    const workflow = report.findings.find((f) => f.policy === 'workflows-owner-active')!;
    expect(workflow.owner).toMatchObject({ id: '77', name: 'Jo Park', state: 'deleted' });
    // One directory (two searches) for seven kinds; each kind's listing once, whatever its size.
    expect(sandbox.counts).toMatchObject({ searchUsers: 2, listDatasets: 1, listDataFiles: 1, listQueues: 1, searchCards: 1, searchFilesets: 1, listReportSchedules: 1 });
  });

  it('a group owner passes without a state: the dataset owned by a group is judged, not caught', async () => {
    const report = await run(['datasets-owner-active']);
    expect(report.findings.map((f) => f.resource.id)).toEqual(['ds-hr-certified']);
    expect(report.policies[0].evaluated).toBe(25);
  });

  it('an owner id in neither user listing is unknown: caught, never taken for a live user', async () => {
    sandbox.state.people.users = sandbox.state.people.users.filter((u) => u.id !== 7);
    const report = await run(['queues-owner-active']);
    // The planted queue owners are still listed users; a queue handed to the removed user 7 is then unknown.
    const hr = report.findings.find((f) => f.resource.id === 'q-hr-requests')!;
    expect(hr.owner?.state).toBe('deactivated');
    sandbox.state.people.owners.queues.set('q-marketing', '7');
    const again = await run(['queues-owner-active']);
    expect(again.findings.find((f) => f.resource.id === 'q-marketing')?.owner).toEqual({ type: 'USER', id: '7', name: null, email: null, state: 'unknown' });
  });

  it('a content item its listing does not carry is an error of the owner policy for that item only (exit 3)', async () => {
    sandbox.state.dataFiles.delete('43');
    const report = await run(['data-files-owner-active']);
    expect(report.summary.gate).toBe('error');
    const errors = report.findings.filter((f) => f.status === 'error');
    expect(errors.map((f) => [f.resource.id, f.message])).toEqual([['43', expect.stringContaining('listDataFiles: data file 43 is not in the listing, so its owner is unknown')]]);
    expect(report.policies[0].evaluated).toBe(2);
  });

  it('a listing whose owner field is missing is API drift for that item, not an owner-less pass', async () => {
    sandbox.scriptFault('listQueues', { status: 200, body: JSON.stringify([{ id: 'q-hr-requests', name: 'HR' }, { id: 'q-marketing', name: 'M', owner: '7' }]) });
    const report = await run(['queues-owner-active']);
    expect(report.summary.gate).toBe('error');
    const messages = report.findings.filter((f) => f.status === 'error').map((f) => `${f.resource.id}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/^q-hr-requests: .*listQueues: queue q-hr-requests carries no owner, so its owner is unknown/)]));
  });
});
