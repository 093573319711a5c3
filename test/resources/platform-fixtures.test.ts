// The platform's public samples (test/fixtures/platform/, each with its source) through the
// client's response validation, then served by the sandbox to the whole built-in pack over
// real HTTP: 0 evaluation errors, and exactly the findings the samples call for.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationId, operation } from '../../src/api/operations.js';
import { checkResponse } from '../../src/api/drift.js';
import type {
  CalculatedFieldStatistics,
  CertificationStatus,
  DatasetAccessList,
  FilesetFile,
  MisconfiguredReport,
} from '../../src/api/types.js';
import { check } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxSchedule, SandboxWorkflow } from '../../src/sandbox/index.js';
import { findingKeys, tempDir } from '../cli/helpers.js';

const DIR = path.resolve(import.meta.dirname, '../fixtures/platform');

interface Fixture {
  source: string;
  operation: OperationId;
  body: unknown;
}

const fixtures: Record<string, Fixture> = Object.fromEntries(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Fixture]),
);
const body = <T>(name: string): T => structuredClone(fixtures[name].body) as T;

describe('captured platform answers', () => {
  it('are all here, each with its source', () => {
    expect(Object.keys(fixtures).sort()).toEqual([
      'calculated-field-statistics',
      'certification-active',
      'certification-never',
      'data-file-duplicate',
      'dataset',
      'dataset-permissions',
      'fileset-file',
      'misconfigured-reports',
      'report-schedules',
      'workflow-models',
    ]);
    for (const f of Object.values(fixtures)) expect(f.source).toMatch(/ @ [0-9a-f]{7,}/);
  });

  it.each(Object.keys(fixtures))('%s passes the client response validation', (name) => {
    expect(checkResponse(operation(fixtures[name].operation).response!, fixtures[name].body)).toBeUndefined();
  });
});

describe('the built-in pack on the captured answers, served over HTTP', () => {
  let sandbox: Sandbox;
  const DATASET = body<{ id: string }>('dataset').id;
  const FILESET = '0f0f0f0f-0000-4000-8000-000000000001';
  beforeAll(async () => {
    sandbox = await startSandbox();
    const state = sandbox.state;
    state.schedules = body<SandboxSchedule[]>('report-schedules');
    state.misconfigured = body<MisconfiguredReport[]>('misconfigured-reports');
    state.cards = new Set(['234567', '1234']);
    state.certifications = new Map([
      ['CARD:234567', body<CertificationStatus>('certification-active')],
      ['CARD:1234', body<CertificationStatus>('certification-never')],
      [`DATA_SOURCE:${DATASET}`, body<CertificationStatus>('certification-active')],
    ]);
    state.datasetAccess = new Map([[DATASET, body<DatasetAccessList>('dataset-permissions')]]);
    state.datasetTags = new Map([[DATASET, JSON.parse(body<{ tags: string }>('dataset').tags) as string[]]]);
    const file = body<FilesetFile>('fileset-file');
    state.filesets = new Map([[FILESET, new Map([[file.path, file]])]]);
    state.calculatedFields = body<CalculatedFieldStatistics>('calculated-field-statistics');
    state.workflows = body<SandboxWorkflow[]>('workflow-models');
  });
  afterAll(() => sandbox.close());

  it('evaluates with 0 errors and finds what the samples hold', async () => {
    const dir = tempDir();
    // One extra policy reads the dataset's tags (a JSON-encoded string on the platform).
    writeFileSync(
      path.join(dir, 'tags.yaml'),
      `policies:
  - id: datasets-tagged
    title: Datasets carry a documentation tag
    description: Reads the tags part.
    severity: low
    resource: dataset
    assert: "'developer_documentation' in resource.tags"
    message: "Dataset {{ resource.id }} has tags {{ resource.tags }}"
`,
    );
    writeFileSync(
      path.join(dir, 'steward.yaml'),
      `policies: [builtin, tags.yaml]\nscope:\n  datasets: [${DATASET}]\n  filesets:\n    ${FILESET}: [rules.txt]\n`,
    );
    const report = await check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token });
    expect(report.summary.errors).toBe(0);
    expect(report.policies.filter((p) => p.status === 'error')).toEqual([]);
    expect(findingKeys(report)).toEqual([
      `certified-datasets-need-owner-group dataset/${DATASET}`,
      'calculated-fields-links-valid calculatedFields/instance',
      'no-misconfigured-schedules reportSchedule/123456',
      // The samples' owners are in no user listing served here: unknown, so never a live owner.
      `datasets-owner-active dataset/${DATASET}`,
      'report-schedules-owner-active reportSchedule/1',
      'report-schedules-owner-active reportSchedule/123456',
      'workflows-owner-active workflow/00000000-0000-0000-0000-00000000000a',
      // The sample dataset is certified (ACTIVE) and has no PDP policy.
      `datasets-pdp-where-wide dataset/${DATASET}`,
    ].sort());
    // Every live kind was evaluated on the captured shapes.
    const evaluated = Object.fromEntries(report.policies.map((p) => [p.id, p.evaluated]));
    expect(evaluated).toMatchObject({
      'no-misconfigured-schedules': 2,
      'schedule-timezone-valid': 2,
      'enabled-schedules-have-recipients': 2,
      'scheduled-cards-certification-current': 2,
      'certified-datasets-need-owner-group': 1,
      'datasets-have-an-owner': 1,
      'datasets-tagged': 1,
      'fileset-files-sha256': 1,
      'workflows-are-named': 1,
      'calculated-fields-valid': 1,
    });
  });
});
