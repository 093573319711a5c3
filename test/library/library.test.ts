// The library API in-process: check(), exitCodeFor(), InputError before any request.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, evaluateOn, exitCodeFor, InputError, type ProgressEvent, prepareRun, withConnection } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { findingKeys, PLANTED, REPO, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('check()', () => {
  it('returns the report of the demo instance, with progress per kind and exit code 1', async () => {
    sandbox.resetCounts();
    const progress: ProgressEvent[] = [];
    const report = await check({
      config: 'demo/steward.yaml',
      cwd: REPO,
      env: {},
      baseUrl: sandbox.baseUrl,
      workflowUrl: sandbox.workflowUrl,
      token: sandbox.token,
      onProgress: (e) => progress.push(e),
    });
    expect(findingKeys(report)).toEqual(PLANTED);
    expect(exitCodeFor(report)).toBe(1);
    expect(report.http.requests).toBe(sandbox.totalRequests());
    // Per kind: resources read of resources to read, ending all read.
    const last = Object.fromEntries(progress.map((e) => [e.kind, e]));
    const people = sandbox.state.people;
    const n = {
      schedules: sandbox.state.schedules.length,
      workflows: sandbox.state.workflows.length,
      users: people.users.length,
      groups: people.groups.length,
      roles: people.roles.length,
      tokens: people.accessTokens.length,
    };
    const cards = new Set(sandbox.state.schedules.map((s) => String(s.cardId))).size;
    expect(last).toEqual({
      reportSchedule: { kind: 'reportSchedule', read: n.schedules, total: n.schedules },
      dataset: { kind: 'dataset', read: 25, total: 25 },
      card: { kind: 'card', read: cards, total: cards },
      queue: { kind: 'queue', read: 4, total: 4 },
      dataFile: { kind: 'dataFile', read: 3, total: 3 },
      filesetFile: { kind: 'filesetFile', read: 3, total: 3 },
      calculatedFields: { kind: 'calculatedFields', read: 1, total: 1 },
      workflow: { kind: 'workflow', read: n.workflows, total: n.workflows },
      user: { kind: 'user', read: n.users, total: n.users },
      group: { kind: 'group', read: n.groups, total: n.groups },
      role: { kind: 'role', read: n.roles, total: n.roles },
      accessToken: { kind: 'accessToken', read: n.tokens, total: n.tokens },
      page: { kind: 'page', read: sandbox.state.sharing.pages.length, total: sandbox.state.sharing.pages.length },
      account: { kind: 'account', read: sandbox.state.sharing.accounts.length, total: sandbox.state.sharing.accounts.length },
    });
    // The total once the scope's datasets are collected (some judged by then), then one at a time.
    const datasetReads = progress.filter((e) => e.kind === 'dataset').map((e) => e.read);
    expect(datasetReads).toEqual(Array.from({ length: 26 - datasetReads[0] }, (_, i) => datasetReads[0] + i));
  });

  it('throws one InputError naming what a live run lacks, before any request', async () => {
    sandbox.resetCounts();
    const attempt = check({ cwd: tempDir(), env: {} });
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toMatchObject({
      problems: [
        expect.objectContaining({ file: 'STEWARD_BASE_URL' }),
        expect.objectContaining({ file: 'STEWARD_TOKEN' }),
      ],
    });
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('without a workflow URL reads workflows from the instance host with the developer token', async () => {
    sandbox.resetCounts();
    const base = { config: 'demo/steward.yaml', cwd: REPO, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token };
    const report = await check({ ...base, only: ['workflows-are-named'] });
    expect(findingKeys(report)).toEqual(['workflows-are-named workflow/wf-unnamed']);
    // Plus the finding owner's user directory (two searches).
    expect([sandbox.counts.listWorkflowModels, sandbox.counts.listWorkflows, sandbox.counts.searchUsers, sandbox.totalRequests()]).toEqual([1, 0, 2, 3]);
  });

  it('runs against a sandbox given by URL and token with the demo config (the library carries no emulator)', async () => {
    const demo = { baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token };
    const report = await check({ ...demo, config: 'demo/steward.yaml', cwd: REPO, env: {}, only: ['calculated-fields-valid'], failOn: 'high' });
    expect(findingKeys(report)).toEqual(['calculated-fields-valid calculatedFields/instance']);
    expect(exitCodeFor(report)).toBe(0);
  });
});

describe('the package entry', () => {
  it('dist/index.js exports the library API the CLI and the Action call', async () => {
    const entry = (await import(path.join(REPO, 'dist/index.js'))) as Record<string, unknown>;
    for (const name of ['check', 'planFixes', 'applyFixes', 'listPolicies', 'testPolicies', 'validate', 'doctor']) {
      expect(typeof entry[name], name).toBe('function');
    }
    // The emulator is not part of the library.
    expect(entry.startSandbox).toBeUndefined();
  });
});

describe('manifests read once per run', () => {
  it('prepareRun reads the declared kinds; the run evaluates those documents without reading the files again', async () => {
    const options = { config: 'demo/steward.yaml', cwd: REPO, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['data-files-not-public'] };
    const prepared = await prepareRun(options);
    expect([...prepared.declared.keys()]).toEqual(['card', 'queue', 'dataFile', 'page']);
    expect(prepared.declared.get('dataFile')!.map((r) => r.id)).toEqual(['42', '43', '44']);
    // Change the document read at prepare time: the run judges it, not the file on disk.
    prepared.declared.get('dataFile')![0].doc.publicAccess = false;
    const evaluation = await withConnection(options, prepared, (connection) => evaluateOn(options, prepared, connection));
    expect(findingKeys(evaluation.report)).toEqual([]);
  });
});
