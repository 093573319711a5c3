// A dataset's reach (the `reach` part, DATASET_REACH_RULE) over HTTP from the sandbox: its
// direct users plus each shared group's memberCount from the group list, read once a run; and
// `datasets-pdp-where-wide` judging a dataset shared with one large group as wide, where the
// access list's totalUserCount alone (the users it names) made it pass. A group the list does
// not hold, or an access list without its count, leaves the reach unknown: an error, exit 3.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/core/model.js';
import { check } from '../../../src/index.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { makeAccessList } from '../../../src/sandbox/entities.js';
import { findingKeys, tempDir } from '../../cli/helpers.js';

const WIDE = 4_001;
let s: Sandbox;
beforeEach(async () => {
  s = await startSandbox();
  // "All Staff": 60 members, none of them named on the dataset's access list.
  s.state.people.groups.push({ groupId: WIDE, name: 'All Staff', groupType: 'open', owners: [{ type: 'USER', id: '7', displayName: 'Ana Ruiz' }], members: Array.from({ length: 60 }, (_, i) => 500 + i), created: '2024-01-01T00:00:00' });
  s.state.datasetAccess.set('ds-scratch', makeAccessList([
    { type: 'USER', id: '12', name: 'Chen Wei', accessLevel: 'OWNER' },
    { type: 'GROUP', id: String(WIDE), name: 'All Staff', accessLevel: 'CAN_VIEW' },
  ]));
});
afterEach(() => s.close());

async function run(datasets: string[], extra = ''): Promise<Report> {
  const dir = tempDir('steward-reach-');
  writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\nscope:\n  datasets: [${datasets.join(', ')}]\n${extra}`);
  return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: s.baseUrl, token: s.token, only: ['datasets-pdp-where-wide'] });
}

const errorsOf = (report: Report) => report.findings.filter((f) => f.status === 'error').map((f) => `${f.resource.id}: ${f.message}`);

describe('a dataset’s reach', () => {
  it('counts the members of a shared group: one user and a group of 60 is wide, where its totalUserCount (1) passed', async () => {
    const report = await run(['ds-scratch']);
    expect(s.state.datasetAccess.get('ds-scratch')!.totalUserCount).toBe(1);
    expect(findingKeys(report)).toEqual(['datasets-pdp-where-wide dataset/ds-scratch']);
    expect(report.findings[0]!.message).toBe('Dataset ds-scratch reaches 61 people without row-level security (PDP)');
    expect(report.summary.gate).toBe('fail');
  });

  it('reads the group list once a run, however many datasets share groups, and each access list once', async () => {
    const report = await run(['ds-scratch', 'ds-sales-certified', 'ds-finance-certified', 'ds-0001', 'ds-0002']);
    expect(errorsOf(report)).toEqual([]);
    // ds-sales-certified: Ana and Sales Analysts (3); ds-finance-certified: Ana, Ben and Finance
    // Admins (3, Ana and Ben among them: counted twice, never fewer).
    const messages = Object.fromEntries(report.findings.map((f) => [f.resource.id, f.message]));
    expect(messages['ds-sales-certified']).toBe('Dataset ds-sales-certified reaches 4 people and is certified without row-level security (PDP)');
    expect(s.counts).toMatchObject({ listGroups: 1, getDatasetPermissions: 5 });
  });

  it('a dataset shared with no group reads no group list', async () => {
    // Shared with Eva alone, certified and under PDP (its policies name her): judged, and passed.
    const report = await run(['ds-hr-certified']);
    expect([report.findings, report.policies[0]!.evaluated, report.summary.gate]).toEqual([[], 1, 'pass']);
    expect(s.counts).toMatchObject({ getDatasetPermissions: 1, listGroups: 0 });
  });

  it('takes the larger of totalUserCount and the users the list names', async () => {
    s.state.datasetAccess.set('ds-scratch', { ...makeAccessList([{ type: 'USER', id: '12', name: 'Chen Wei', accessLevel: 'OWNER' }]), totalUserCount: 70 });
    expect(findingKeys(await run(['ds-scratch']))).toEqual(['datasets-pdp-where-wide dataset/ds-scratch']);
    s.state.datasetAccess.set('ds-scratch', { ...makeAccessList(Array.from({ length: 51 }, (_, i) => ({ type: 'USER' as const, id: String(600 + i), name: `U${i}`, accessLevel: 'CAN_VIEW' as const }))), totalUserCount: 0 });
    expect(findingKeys(await run(['ds-scratch']))).toEqual(['datasets-pdp-where-wide dataset/ds-scratch']);
  });

  it('is exactly maxReach at the line: 50 people is not wide, 51 is', async () => {
    s.state.people.groups.find((g) => g.groupId === WIDE)!.members.length = 49;
    expect(findingKeys(await run(['ds-scratch']))).toEqual([]);
    s.state.people.groups.find((g) => g.groupId === WIDE)!.members.push(999);
    expect(findingKeys(await run(['ds-scratch']))).toEqual(['datasets-pdp-where-wide dataset/ds-scratch']);
  });

  it('a shared group the group list does not hold leaves the reach unknown: an error, exit 3, never narrow', async () => {
    s.state.people.groups = s.state.people.groups.filter((g) => g.groupId !== WIDE);
    const report = await run(['ds-scratch']);
    expect(findingKeys(report)).toEqual([]);
    expect(errorsOf(report)).toEqual([
      `ds-scratch: could not read dataset ds-scratch: dataset ds-scratch is shared with group ${WIDE}, which the group list does not hold (the token's user may lack group.admin): the people it reaches are unknown`,
    ]);
    expect(report.summary.gate).toBe('error');
  });

  it('an access list without totalUserCount leaves the reach unknown: exit 3', async () => {
    const { totalUserCount: _gone, ...rest } = s.state.datasetAccess.get('ds-scratch')!;
    s.state.datasetAccess.set('ds-scratch', rest as never);
    const report = await run(['ds-scratch']);
    expect(errorsOf(report)).toEqual(['ds-scratch: could not read dataset ds-scratch: getDatasetPermissions: dataset ds-scratch: the access list has no totalUserCount, so the people it reaches are unknown']);
    expect(report.summary.gate).toBe('error');
  });
});
