// Plan guards on synthetic findings (no engine run needed), and action fixes sent to the sandbox.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFixes } from '../../src/fix/apply.js';
import { readJournal } from '../../src/fix/journal.js';
import { findingsWithFixes, planFixes } from '../../src/fix/plan.js';
import type { Finding } from '../../src/core/model.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import type { CollectedResource, FixKind, ResourceDocument } from '../../src/resources/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, NOW } from './helpers.js';

function finding(policy: string, kind: string, id: string, path: string | null, status: Finding['status'] = 'violation'): Finding {
  return {
    policy,
    severity: 'high',
    status,
    resource: { kind, id, name: null },
    path,
    message: policy,
    location: null,
    fingerprint: `${policy}:${id}:${path}:${status}`,
    baseline: null,
    fix: null,
    waiver: null,
  };
}

const queueDoc: ResourceDocument = {
  id: 'q1',
  permissions: [{ id: '7', name: 'Ana', type: 'USER', permissions: ['READ', 'ADMIN'] }],
};
const queueResource: CollectedResource = { kind: 'queue', id: 'q1', name: null, doc: queueDoc, source: null };
const noViolations = async () => [];

describe('plan guards', () => {
  it('refuses a fix that would widen access, whatever the fix kind says', async () => {
    const grant: FixKind = {
      name: 'grant',
      schema: {},
      perItem: true,
      apply: (doc) => ({ ...doc, permissions: [...(doc.permissions as object[]), { id: '8', name: 'Bo', type: 'USER', permissions: ['ADMIN'] }] }),
    };
    const kinds = { ...RESOURCE_KINDS, queue: { ...RESOURCE_KINDS.queue, fixes: { ...RESOURCE_KINDS.queue.fixes, grant } } };
    const plan = await planFixes({
      findings: [finding('p-grant', 'queue', 'q1', 'permissions[0]')],
      policies: [{ id: 'p-grant', fix: { grant: true } }],
      resources: [queueResource],
      kinds,
      check: noViolations,
      now: NOW,
    });
    expect(plan.changes).toEqual([]);
    expect(plan.notPlanned.map((p) => p.reason)).toEqual(['refused: the fix would widen access (USER 8 would be added)']);
  });

  it('does not fix waived findings nor errors, and fills each finding’s fix', async () => {
    const findings = [
      finding('p-revoke', 'queue', 'q1', 'permissions[0]', 'waived'),
      finding('p-revoke', 'queue', 'q1', null, 'error'),
    ];
    const input = {
      policies: [{ id: 'p-revoke', fix: { revoke: ['ADMIN'] } }],
      resources: [queueResource],
      kinds: RESOURCE_KINDS,
      check: noViolations,
      now: NOW,
    };
    expect(await planFixes({ ...input, findings })).toMatchObject({ changes: [], notPlanned: [] });
    const live = finding('p-revoke', 'queue', 'q1', 'permissions[0]');
    const plan = await planFixes({ ...input, findings: [live] });
    expect(plan.changes[0].request.body).toEqual([{ id: '7', name: 'Ana', type: 'USER', permissions: ['READ'] }]);
    expect(findingsWithFixes([live, findings[0]], plan).map((f) => f.fix)).toEqual([
      { planned: true, change: 1, method: 'POST', path: '/api/queues/v1/q1/permissions', body: plan.changes[0].request.body },
      null,
    ]);
  });
});

describe('action fixes (datasets)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({});
  });
  afterAll(() => sandbox.close());

  const findings = [finding('ds-indexed', 'dataset', 'ds-scratch', null), finding('ds-tagged', 'dataset', 'ds-scratch', null)];
  const policies = [
    { id: 'ds-indexed', fix: { index: true } },
    { id: 'ds-tagged', fix: { tag: ['reviewed'] } },
  ];

  it('tag fixes are opt-in and carry their warning; index is sent as planned', async () => {
    const base = { findings, policies, resources: [], kinds: RESOURCE_KINDS, check: noViolations, now: NOW };
    const plan = await planFixes(base);
    expect(plan.changes.map((c) => [c.type, c.request.method, c.request.path])).toEqual([
      ['action', 'POST', '/api/query/v1/datasources/ds-scratch'],
    ]);
    expect(plan.notPlanned.map((p) => p.reason)).toEqual([`fix "tag" is opt-in: ${RESOURCE_KINDS.dataset.fixes?.tag.warning}`]);

    // Without an API the current tags cannot be read: the tag fix is not planned.
    const blind = await planFixes({ ...base, allowOptIn: true });
    expect(blind.notPlanned.map((p) => p.reason)).toEqual([
      'fix "tag" could not be planned: it needs the current tags, and this plan has no API to read them',
    ]);

    // The POST replaces the list: the plan reads the current tags and sends the union.
    sandbox.state.datasetTags.set('ds-scratch', ['raw']);
    sandbox.resetCounts();
    const optedIn = await planFixes({ ...base, allowOptIn: true, api: clientFor(sandbox) });
    expect(sandbox.counts.getDataset).toBe(1);
    expect(optedIn.changes[1]).toMatchObject({
      request: { operation: 'createDatasetTags', body: ['raw', 'reviewed'] },
      warnings: [RESOURCE_KINDS.dataset.fixes?.tag.warning],
    });
    sandbox.resetCounts();
    const journalPath = path.join(mkdtempSync(path.join(tmpdir(), 'steward-fix-')), 'journal.jsonl');
    const result = await applyFixes(optedIn, { api: clientFor(sandbox), journalPath, root: '.' });
    expect(result).toMatchObject({ ok: true, applied: [1, 2] });
    expect(sandbox.counts.indexDataset).toBe(1);
    expect(sandbox.counts.createDatasetTags).toBe(1);
    expect(sandbox.state.indexRequests).toEqual(['ds-scratch']);
    expect(sandbox.state.datasetTags.get('ds-scratch')).toEqual(['raw', 'reviewed']);
    expect(readJournal(journalPath).map((e) => e.status)).toEqual(['applied', 'applied']);
  });
});
