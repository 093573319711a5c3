// A dataset's reach on the platform's captured answers (../shared/platform-fixtures), served
// verbatim with the real token header: the captured access list (one USER owner) shared as well
// with the first captured group (memberCount 15), the captured group list read once; and a group
// whose memberCount the list leaves out is drift for the datasets shared with it (exit 3).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { check } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { findingKeys, tempDir } from '../cli/helpers.js';
import { captured, REAL_TOKEN_HEADER } from '../fixtures/captured.js';

interface AccessList {
  list: { type: string; id: string; accessLevel: string; name: string }[];
  totalUserCount: number;
}
const ACCESS = captured<AccessList>('dataset-permissions');
const GROUPS = captured<{ groupId: number; name: string; memberCount?: number }[]>('groups-grouplist');
const SHARED = GROUPS[0]!;
const DATASET = 'ds-scratch';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ tokenHeader: REAL_TOKEN_HEADER });
});
afterEach(() => sandbox.close());

function serve(groups: unknown): void {
  const access = { ...ACCESS, list: [...ACCESS.list, { type: 'GROUP', id: String(SHARED.groupId), accessLevel: 'CAN_VIEW', name: SHARED.name }] };
  sandbox.scriptFault('getDatasetPermissions', { status: 200, body: JSON.stringify(access) });
  sandbox.scriptFault('listGroups', { status: 200, body: JSON.stringify(groups) });
}

async function run(): Promise<Report> {
  const dir = tempDir('steward-reach-platform-');
  writeFileSync(
    path.join(dir, 'steward.yaml'),
    `policies: [builtin]\ninstance: { tokenHeader: ${REAL_TOKEN_HEADER} }\nscope: { datasets: [${DATASET}] }\nparams: { datasets-pdp-where-wide: { maxReach: 10 } }\n`,
  );
  return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['datasets-pdp-where-wide'] });
}

describe('a dataset’s reach on the captured answers', () => {
  it('one user and a group of 15: reaches 16 people, wide against maxReach 10; one request per read', async () => {
    expect([ACCESS.totalUserCount, SHARED.memberCount]).toEqual([1, 15]);
    serve(GROUPS);
    const report = await run();
    expect(findingKeys(report)).toEqual([`datasets-pdp-where-wide dataset/${DATASET}`]);
    expect(report.findings[0]!.message).toBe(`Dataset ${DATASET} reaches 16 people without row-level security (PDP)`);
    expect(sandbox.counts).toMatchObject({ getDatasetPermissions: 1, listGroups: 1 });
  });

  it('the shared group without its memberCount: the reach is unknown, exit 3', async () => {
    const { memberCount: _gone, ...withoutCount } = SHARED;
    serve([withoutCount, ...GROUPS.slice(1)]);
    const report = await run();
    expect(findingKeys(report)).toEqual([]);
    expect(report.findings.map((f) => [f.status, f.message])).toEqual([
      ['error', `could not read dataset ${DATASET}: listGroups: API drift at memberCount of group ${SHARED.groupId}: null, so the people it reaches are unknown`],
    ]);
    expect(report.summary.gate).toBe('error');
  });
});
