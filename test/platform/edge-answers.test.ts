// The platform's real answers (../shared/platform-fixtures, each with its public source) served
// by the sandbox with the real token header (X-DOMO-Developer-Token), to the whole built-in pack
// and a policy reading dataset tags: the baseline evaluates with 0 errors, and so does each edge
// answer the public sources show as possible (PLATFORM.md §7 E1–E5), at the minimum requests.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CertificationStatus, DatasetAccessList, FilesetFile, MisconfiguredReport } from '../../src/api/types.js';
import type { Report } from '../../src/core/model.js';
import { check } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxSchedule, SandboxWorkflow } from '../../src/sandbox/index.js';
import { tempDir } from '../cli/helpers.js';
import { captured, REAL_TOKEN_HEADER } from '../fixtures/captured.js';


const DATASET = captured<{ id: string }>('dataset-object').id;
const FILESET = '11111111-1111-1111-1111-111111111111';
/** The listing's part=core owner of the captured dataset (dataset-part-core-permission.json). */
const OWNER = JSON.stringify(captured<{ owner: unknown }>('dataset-part-core-permission').owner);
const EMPTY_FILESET = '22222222-2222-2222-2222-222222222222';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ tokenHeader: REAL_TOKEN_HEADER });
  const state = sandbox.state;
  state.schedules = captured<SandboxSchedule[]>('list-report-schedules');
  state.misconfigured = captured<MisconfiguredReport[]>('misconfigured-reports');
  state.cards = new Set(['234567', '1234']);
  state.certifications = new Map([
    ['CARD:234567', captured<CertificationStatus>('certification-active')],
    ['CARD:1234', captured<CertificationStatus>('certification-never')],
    [`DATA_SOURCE:${DATASET}`, captured<CertificationStatus>('certification-never')],
  ]);
  state.datasetAccess = new Map([[DATASET, captured<DatasetAccessList>('dataset-permissions')]]);
  state.datasetTags = new Map([[DATASET, JSON.parse(captured<{ tags: string }>('dataset-object').tags) as string[]]]);
  const file = captured<FilesetFile>('fileset-file-by-path');
  state.filesets = new Map([
    [FILESET, new Map([[file.path, file]])],
    [EMPTY_FILESET, new Map()],
  ]);
  state.calculatedFields = captured('calculated-field-statistics');
  state.workflows = captured<SandboxWorkflow[]>('workflow-models');
  state.queuePermissions = new Map();
  state.dataFiles = new Set();
  state.dataFilePermissions = new Map();
});
afterEach(() => sandbox.close());

/** The built-in pack plus one policy reading the tags part, over every discoverable kind. */
async function run(): Promise<Report> {
  const dir = tempDir('steward-edge-');
  writeFileSync(
    path.join(dir, 'tags.yaml'),
    `policies:
  - id: datasets-documented
    title: Datasets carry no draft tag
    description: Reads the tags part.
    severity: low
    resource: dataset
    assert: "!('draft' in resource.tags)"
`,
  );
  writeFileSync(
    path.join(dir, 'steward.yaml'),
    `policies: [builtin, tags.yaml]
instance: { tokenHeader: ${REAL_TOKEN_HEADER} }
scope: { datasets: all, cards: all, filesets: all, workflows: all }
`,
  );
  return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token });
}

const errorsOf = (report: Report) => [
  ...report.policies.filter((p) => p.status === 'error').map((p) => `${p.id}: ${p.error}`),
  ...report.findings.filter((f) => f.status === 'error').map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id}: ${f.message}`),
];
const evaluated = (report: Report) => Object.fromEntries(report.policies.map((p) => [p.id, p.evaluated]));

describe('the built-in pack on the platform’s real answers, with the real token header', () => {
  it('baseline: 0 errors, every live kind evaluated', async () => {
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(evaluated(report)).toMatchObject({
      'no-misconfigured-schedules': 2,
      'scheduled-cards-certification-current': 2,
      'datasets-have-an-owner': 1,
      'datasets-documented': 1,
      'fileset-files-sha256': 1,
      'workflows-are-named': 2,
      'calculated-fields-valid': 1,
    });
  });

  it('E1: a page schedule’s cardId 0 is no card: card 0 is never read, 0 errors', async () => {
    sandbox.state.schedules[1] = { ...sandbox.state.schedules[1], cardId: 0, pageId: 345678 };
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(report.findings.some((f) => f.resource.kind === 'card' && f.resource.id === '0')).toBe(false);
    // The two cards the search lists (one of them also sent by the other schedule): 0 is not read.
    expect(sandbox.counts.getCertificationStatus).toBe(2);
  });

  it.each([
    ['an empty string', '""', 1],
    ['null', 'null', 1],
  ])('E2: a listed dataset whose tags are %s has no tags: 0 errors, no dataset read', async (_, tags, evaluatedTags) => {
    sandbox.scriptFault('listDatasets', { status: 200, body: `{"dataSources":[{"id":"${DATASET}","name":"domo_kbs","owner":${OWNER},"tags":${tags}}],"_metaData":{"totalCount":1}}` });
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(evaluated(report)['datasets-documented']).toBe(evaluatedTags);
    expect(sandbox.counts.getDataset ?? 0).toBe(0);
  });

  it('E2: unparseable listed tags fail only the policy that reads tags, for that dataset', async () => {
    sandbox.scriptFault('listDatasets', { status: 200, body: `{"dataSources":[{"id":"${DATASET}","name":"domo_kbs","owner":${OWNER},"tags":"[draft"}],"_metaData":{"totalCount":1}}` });
    const report = await run();
    const drift = `could not read dataset ${DATASET}: listDatasets: API drift at tags of dataset ${DATASET}: expected a JSON list of strings, got "[draft"`;
    expect(errorsOf(report)).toEqual([`datasets-documented: ${drift}`, `datasets-documented dataset/${DATASET}: ${drift}`]);
    expect(sandbox.counts.getDataset ?? 0).toBe(0);
    expect(evaluated(report)['datasets-have-an-owner']).toBe(1);
  });

  it('E3: an empty file set answers files: null and pageContext: null: no files, 0 errors', async () => {
    sandbox.state.filesets.delete(FILESET);
    sandbox.scriptFault('searchFilesetFiles', { status: 200, body: '{"files":null,"pageContext":null}' });
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(sandbox.counts.searchFilesetFiles).toBe(1);
    expect(evaluated(report)['fileset-files-sha256']).toBe(0);
  });

  it('E4: a file-set search without any total (the official FileSetPage) pages until a short page: 0 errors', async () => {
    sandbox.scriptFault('searchFilesets', { status: 200, body: JSON.stringify({ fileSets: [{ id: FILESET, name: 'rules', owner: '1234' }] }) });
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(sandbox.counts.searchFilesets).toBe(1);
    expect(evaluated(report)['fileset-files-sha256']).toBe(1);
  });

  it('E5: a cursor handed out with every empty page ends the listing at the first empty page, in under 50 requests', async () => {
    const file = captured<{ files: FilesetFile[] }>('search-fileset-files').files[0];
    sandbox.scriptFault('searchFilesetFiles', { status: 200, body: JSON.stringify({ files: [file], pageContext: { next: 'cursor-1' } }) });
    for (let i = 2; i < 12_000; i++) sandbox.scriptFault('searchFilesetFiles', { status: 200, body: JSON.stringify({ files: [], pageContext: { next: `cursor-${i}` } }) });
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(sandbox.totalRequests()).toBeLessThan(50);
    expect(sandbox.counts.searchFilesetFiles).toBe(3); // two pages of the first set, one of the second
  });
});
