// Fixes where the platform's write semantics are not shown publicly (PLATFORM.md §7 E6, E7): a
// plan sends only what is right under every reading of them, or nothing.
// - The tag POST replaces the list: a dataset read without a `tags` field (the official "Get
//   Metadata" answer has none) says nothing about the tags, so no tag list is built from it.
// - The queue write takes `name` as required, and may replace the list or set each entity sent:
//   restore sends the whole live list, narrowed, each entry named as its manifest names it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateOn, planFixes, prepareRun, renderPlanText, withConnection } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function plan(dir: string, only: string[], allowOptIn = false) {
  const options = { config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only };
  const prepared = await prepareRun(options);
  return withConnection(options, prepared, async (connection) => planFixes(await evaluateOn(options, prepared, connection), connection, { displayRoot: dir, allowOptIn }));
}

describe('the tag fix', () => {
  it('is not planned from a dataset read that has no tags field: nothing would say what the POST replaces', async () => {
    const dir = copyDemo();
    writeFileSync(
      path.join(dir, 'tagged.yaml'),
      `policies:
  - id: datasets-tagged-reviewed
    title: Datasets carry the reviewed tag
    description: Tags each dataset missing it.
    severity: low
    resource: dataset
    assert: "has(resource.certification) && false"
    fix: { tag: [reviewed] }
`,
    );
    writeFileSync(path.join(dir, 'steward.yaml'), readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace(/^policies:.*$/m, 'policies: [builtin, tagged.yaml]'));
    const datasets = [...sandbox.state.datasetAccess.keys()];
    // Every dataset read answers the official "Get Metadata" form: no tags field at all.
    for (const id of datasets) sandbox.scriptFault('getDataset', { status: 200, body: JSON.stringify({ id, name: id, owner: null }) });
    sandbox.resetCounts();
    const result = await plan(dir, ['datasets-tagged-reviewed'], true);
    expect(result.changes).toEqual([]);
    expect(result.notPlanned.length).toBeGreaterThan(0);
    for (const n of result.notPlanned) {
      expect(n.reason).toMatch(/^fix "tag" could not be planned: getDataset: the answer for dataset \S+ has no tags field: its tags are unknown/);
    }
    expect(sandbox.received).toEqual([]);
  });
});

describe('the queue restore fix', () => {
  it('sends the whole live list with the narrowed entry and every name the manifest gives', async () => {
    const dir = copyDemo();
    const manifest = path.join(dir, 'permissions/queues/marketing.yaml');
    // USER 77 (planted with ADMIN on the instance) is declared with READ only, and named.
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}  - { id: "77", name: Jo Park, type: USER, permissions: [READ] }\n`);
    const result = await plan(dir, ['queue-permissions-match-manifest']);
    const restore = result.changes.find((c) => c.resource.id === 'q-marketing');
    expect(restore?.request.method).toBe('POST');
    // The live read comes users first, then groups; each entry keeps what the manifest also grants.
    expect(restore?.request.body).toEqual([
      { id: '22', name: 'Dana Kim', type: 'USER', permissions: ['READ', 'CREATE_CONTENT', 'UPDATE_CONTENT'] },
      { id: '77', name: 'Jo Park', type: 'USER', permissions: [] },
      { id: 'g-40', name: 'Marketing Ops', type: 'GROUP', permissions: ['ADMIN', 'SHARE'] },
      { id: 'g-41', name: 'Marketing Analysts', type: 'GROUP', permissions: ['READ', 'READ_CONTENT'] },
    ]);
  });
});

describe('the sharing restore fix (no documented write removes a share)', () => {
  it('plans no request: the plan says the exact change to make by hand, and nothing is sent', async () => {
    const dir = copyDemo();
    sandbox.resetCounts();
    const result = await plan(dir, ['page-sharing-matches-manifest', 'card-sharing-matches-manifest']);
    expect(result.changes).toEqual([]);
    expect(result.notPlanned.map((n) => [n.resource, n.reason])).toEqual([
      [
        { kind: 'page', id: '8002', name: 'Team Home' },
        'fix "restore" by hand: remove USER 22 (Dana Kim) from the sharing of page 8002 (Share › the user › remove), or declare it in the manifest; no documented write removes a share',
      ],
    ]);
    expect(sandbox.received).toEqual([]);
  });

  it('a share declared but gone is reported as widening, by hand too', async () => {
    const dir = copyDemo();
    const manifest = path.join(dir, 'permissions/cards/margin-review.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('users: []', 'users:\n  - { id: "9", name: Ben Okafor }'));
    const result = await plan(dir, ['card-sharing-matches-manifest']);
    expect(result.notPlanned.map((n) => n.reason)).toEqual([
      'fix "restore" by hand: USER 9 (Ben Okafor) is declared but not shared: share card 7001 with it again by hand, or remove it from the manifest (re-sharing widens access: never applied)',
    ]);
  });
});

describe('fix says why', () => {
  it('a live resource with no manifest: the reason says fixes are planned on manifests and how to add one; violations with no fix are counted', async () => {
    const dir = copyDemo();
    // No manifests: the queues are discovered and judged on their live permissions.
    const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace(/^manifests:\n(?: {2}.*\n)+/m, '').replace('scope:\n', 'scope:\n  queues: all\n');
    writeFileSync(path.join(dir, 'steward.yaml'), config);
    const result = await plan(dir, ['queue-no-admin-for-users', 'workflows-are-named']);
    expect(result.changes).toEqual([]);
    expect(result.notPlanned.map((n) => n.reason)).toEqual(
      result.notPlanned.map((n) => `fixes of a queue are planned on its manifest, and queue ${n.resource.id} has none: add one under manifests.queues in steward.yaml declaring its state as it should be, then run fix --write (or change it in the product)`),
    );
    expect(result.notPlanned.length).toBeGreaterThan(0);
    expect(result.withoutFix).toBe(1); // workflows-are-named names no fix
    expect(renderPlanText(result)).toContain('1 violation of policies that name no fix: fixed by hand');
  });
});
