// `scope.<kind>: all` over real HTTP against the sandbox: every resource found through the
// listings, the requests per operation equal to the minimum, `exclude` honoured, live state
// judged where nothing is declared, and an incomplete listing an error naming its kind (exit 3).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check, evaluateOn, exitCodeFor, planFixes, prepareRun, withConnection } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, findingKeys, runCli, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ size: { datasets: 120, cards: 30, filesets: 3, filesPerFileset: 4, workflows: 7 } });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.configure({ ignoreSkip: false });
  sandbox.resetCounts();
});

/** A project with only steward.yaml (no manifests), the built-in pack. */
function project(yaml: string): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'steward.yaml'), yaml);
  return dir;
}

const live = (dir: string, only?: string[]) => ({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only });

const ALL = 'policies: [builtin]\nscope: { datasets: all, cards: all, queues: all, dataFiles: all, filesets: all, workflows: all }\n';

describe('scope: all', () => {
  it('finds every resource of every kind, with the minimum requests per operation', async () => {
    const dir = project(ALL);
    const report = await check(live(dir));
    expect(report.summary.errors).toBe(0);
    const s = sandbox.state;
    const datasets = s.datasetAccess.size;
    const queues = s.queuePermissions.size;
    const dataFiles = s.dataFiles.size;
    const files = [...s.filesets.values()].reduce((n, f) => n + f.size, 0);
    const cards = new Set([...s.cards, ...s.schedules.map((x) => String(x.cardId))]).size;
    const evaluated = Object.fromEntries(report.policies.map((p) => [p.id, p.evaluated]));
    expect(evaluated).toMatchObject({
      'datasets-have-an-owner': datasets,
      'fileset-files-sha256': files,
      'workflows-are-named': s.workflows.length,
      'data-files-not-public': dataFiles,
    });
    expect(report.policies.find((p) => p.id === 'scheduled-cards-certification-current')!.resourceIds.length).toBeLessThanOrEqual(cards);
    const pages = (n: number, size: number) => Math.max(1, Math.ceil(n / size));
    expect(sandbox.counts).toMatchObject({
      listDatasets: pages(datasets, 50),
      searchCards: pages(s.cards.size, 100),
      listQueues: 1,
      listDataFiles: 1,
      searchFilesets: pages(s.filesets.size, 100),
      // one cursor page per file set (a few files each, directories included)
      searchFilesetFiles: s.filesets.size,
      // every file's metadata came with the listing
      getFileByPath: 0,
      getQueuePermissions: queues,
      getDataFilePermissions: dataFiles,
      getDatasetPermissions: datasets,
      getCertificationStatus: datasets + report.policies.find((p) => p.id === 'scheduled-cards-certification-current')!.resourceIds.length,
    });
  });

  it('exclude leaves out ids and globs; explicit ids add to the listing', async () => {
    const dir = project(
      'policies: [builtin]\nscope:\n  datasets: { all: true, exclude: [ds-00*, ds-scratch] }\n  filesets: { all: true, exclude: ["3f1c2a9e-*"] }\n',
    );
    const report = await check(live(dir, ['datasets-have-an-owner', 'fileset-files-sha256']));
    const ids = report.policies.find((p) => p.id === 'datasets-have-an-owner')!.resourceIds;
    expect(ids.some((id) => id.startsWith('ds-00') || id === 'ds-scratch')).toBe(false);
    expect(ids).toContain('ds-sales-certified');
    // The planted MD5 file's set is excluded: no violation left.
    // The dataset without an owner and the set holding the MD5 file are excluded: no violation is left.
    expect(findingKeys(report)).toEqual([]);
    expect(report.policies.find((p) => p.id === 'fileset-files-sha256')!.evaluated).toBe(
      [...sandbox.state.filesets.entries()].filter(([id]) => !id.startsWith('3f1c2a9e-')).reduce((n, [, f]) => n + f.size, 0),
    );
  });

  it('a workflow the scope names and the list lacks is an error of each workflow policy, never left out unseen', async () => {
    const dir = project('policies: [builtin]\nscope: { workflows: [wf-nightly-refresh, wf-gone] }\n');
    const report = await check({ ...live(dir, ['workflows-are-named', 'workflows-owner-active']), workflowUrl: sandbox.workflowUrl });
    expect(report.summary.gate).toBe('error');
    expect(report.policies.map((p) => [p.id, p.evaluated])).toEqual([
      ['workflows-are-named', 1],
      ['workflows-owner-active', 1],
    ]);
    const errors = report.findings.filter((f) => f.status === 'error').map((f) => `${f.policy} ${f.resource.id}: ${f.message}`);
    expect(errors.sort()).toEqual([
      'workflows-are-named wf-gone: could not read workflow wf-gone: workflow wf-gone is not in the workflow list',
      'workflows-owner-active wf-gone: could not read workflow wf-gone: workflow wf-gone is not in the workflow list',
    ]);
    expect(sandbox.counts.listWorkflows).toBe(1);
  });

  it('with no manifests, queues and data files are judged on their live permissions', async () => {
    const dir = project('policies: [builtin]\nscope: { queues: all, dataFiles: all }\n');
    const report = await check(live(dir, ['queue-no-admin-for-users', 'data-files-not-public', 'queue-permissions-match-manifest']));
    expect(findingKeys(report)).toEqual([
      'data-files-not-public dataFile/42',
      // 44 is public on the instance (the planted drift): live state is what an audit sees.
      'data-files-not-public dataFile/44',
      // Live entries come users first, then groups (the read's USER and GROUP lists).
      'queue-no-admin-for-users queue/q-finance-intake permissions[0]',
      'queue-no-admin-for-users queue/q-marketing permissions[1]',
      'queue-no-admin-for-users queue/q-support-escalations permissions[0]',
      'queue-no-admin-for-users queue/q-support-escalations permissions[1]',
    ]);
    // Nothing declared: nothing to drift from.
    expect(report.policies.find((p) => p.id === 'queue-permissions-match-manifest')!.evaluated).toBe(0);
    const message = report.findings.find((f) => f.resource.id === 'q-marketing')!.message;
    // The live read has no names: the id alone, never "null" or "77 (77)".
    expect(message).toBe('User 77 holds ADMIN on queue q-marketing');
  });
});

describe('drift between declared and live', () => {
  it('names each difference, and fix plans only the narrowing ones', async () => {
    const demo = copyDemo();
    // The manifest also declares a permission the instance does not grant (restoring it would widen).
    const file = path.join(demo, 'permissions/queues/finance-intake.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('permissions: [READ, WRITE]', 'permissions: [READ, WRITE, SHARE]'));
    const options = { config: path.join(demo, 'steward.yaml'), cwd: demo, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['queue-permissions-match-manifest', 'data-file-permissions-match-manifest'] };
    const prepared = await prepareRun(options);
    const { report, plan } = await withConnection(options, prepared, async (connection) => {
      const evaluation = await evaluateOn(options, prepared, connection);
      return { report: evaluation.report, plan: await planFixes(evaluation, connection, { displayRoot: demo }) };
    });
    expect(report.findings.filter((f) => f.status === 'violation').map((f) => f.message).sort()).toEqual([
      'Data file 44: publicAccess is true on the instance, false in the manifest',
      'Queue q-finance-intake: USER 9 (Ben Okafor) lacks SHARE the manifest grants',
      'Queue q-marketing: USER 77 was added outside the repository with ADMIN',
    ]);
    expect(plan.changes.map((c) => [c.resource.id, c.request.method, c.request.body])).toEqual([
      ['44', 'PUT', { publicAccess: false, entries: [{ entityType: 'USER', entityId: '9', grant: 'READ', pass: 'NONE' }, { entityType: 'USER', entityId: 'g-88', grant: 'READ', pass: 'NONE' }] }],
    ]);
    // The queue write requires each entry's name; the live read has none and USER 77 is declared nowhere.
    expect(plan.notPlanned.map((n) => n.reason)).toEqual([
      'fix "restore" not planned: restoring USER 9 would widen access (SHARE): reported, never applied',
      'fix "restore" not planned: the queue write requires each entry\'s name and neither the manifest nor the live read names USER 77: declare it in the manifest (with permissions: []) to remove, or change the queue by hand',
    ]);
  });
});

describe('incomplete listings', () => {
  it('a listing that ignores its offset repeats ids: exit 3 naming the kind', async () => {
    sandbox.configure({ ignoreSkip: true });
    const dir = project('policies: [builtin]\nscope: { datasets: all }\n');
    const r = await runCli(['check', '--only', 'datasets-have-an-owner', '--format', 'json'], {
      cwd: dir,
      env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
    });
    expect(r.code).toBe(3);
    const error = (JSON.parse(r.stdout) as { policies: { error: string }[] }).policies[0].error;
    expect(error).toMatch(/^could not collect dataset resources: listDatasets: \[GET\] ".*offset=50": the listing is incomplete: id "ds-0001" appears twice/);
  });

  it('a listing whose total is never reached ends as incomplete, not shorter', async () => {
    sandbox.scriptFault('listDatasets', { status: 200, body: JSON.stringify({ dataSources: [], _metadata: { totalCount: 5 } }) });
    const dir = project('policies: [builtin]\nscope: { datasets: all }\n');
    const report = await check(live(dir, ['datasets-have-an-owner']));
    expect(exitCodeFor(report)).toBe(3);
    expect(report.policies[0].error).toMatch(/the listing is incomplete: an empty page at offset=0 of 5/);
  });
});
