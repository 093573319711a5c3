import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { InputError } from '../../src/core/problem.js';
import { applyFixes } from '../../src/fix/apply.js';
import { defaultJournalPath, readJournal } from '../../src/fix/journal.js';
import { parsePlan, renderPlanJson } from '../../src/fix/render.js';
import { writeBackChange, writeBackPlan } from '../../src/fix/writeback.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, copyDemoManifests, planRun, queueStateAfter, WAIVE_BREAK_GLASS } from './helpers.js';

let sandbox: Sandbox;
let root: string;
let journalPath: string;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(() => sandbox.close());
beforeEach(() => {
  root = copyDemoManifests();
  journalPath = defaultJournalPath(root);
  sandbox.resetCounts();
});

const QUEUES_ONLY = { only: ['queue-no-admin-for-users', 'queue-entries-grant-something'], waivers: WAIVE_BREAK_GLASS };
const options = () => ({ api: clientFor(sandbox), journalPath, root });

describe('applyFixes against the sandbox', () => {
  it('sets each resource to the planned body, one request per change, journaled in order', async () => {
    const plan = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    const marketingBefore = structuredClone(sandbox.state.queuePermissions.get('q-marketing'));
    const result = await applyFixes(plan, options());
    expect(result).toEqual({ ok: true, cancelled: false, applied: [1, 2, 3, 4, 5], failed: [], skipped: [], errors: [], journalPath });
    for (const c of plan.changes) {
      if (c.resource.kind === 'queue') expect(sandbox.state.queuePermissions.get(c.resource.id)).toEqual(queueStateAfter(c.request.body));
      else expect(sandbox.state.dataFilePermissions.get(c.resource.id)).toEqual(c.request.body);
    }
    // The removed entry (Eva Novak's empty list) is sent with `permissions: []`, never dropped.
    const hr = sandbox.received.find((w) => w.path === '/api/queues/v1/q-hr-requests/permissions');
    expect(hr?.body).toEqual([
      { id: 'g-30', name: 'HR Admins', type: 'GROUP', permissions: ['ADMIN'] },
      { id: '33', name: 'Farid Haddad', type: 'USER', permissions: ['READ', 'EXECUTE'] },
      { id: '31', name: 'Eva Novak', type: 'USER', permissions: [] },
    ]);
    expect(sandbox.state.queuePermissions.get('q-hr-requests')?.map((e) => e.id)).toEqual(['g-30', '33']);
    // q-marketing has no violation: no request for it.
    expect(sandbox.counts.updateQueuePermissions).toBe(3);
    expect(sandbox.counts.updateFilePermissions).toBe(2);
    expect(sandbox.totalRequests()).toBe(5);
    expect(sandbox.state.queuePermissions.get('q-marketing')).toEqual(marketingBefore);
    const journal = readJournal(journalPath);
    expect(journal.map((e) => [e.change, e.resource.id, e.status])).toEqual([
      [1, '42', 'applied'],
      [2, '43', 'applied'],
      [3, 'q-finance-intake', 'applied'],
      [4, 'q-hr-requests', 'applied'],
      [5, 'q-support-escalations', 'applied'],
    ]);
    expect(journal[2]).toMatchObject({
      planId: plan.id,
      policies: ['queue-no-admin-for-users'],
      request: { method: 'POST', path: '/api/queues/v1/q-finance-intake/permissions', body: plan.changes[2].request.body },
      before: plan.changes[2].before,
    });
    expect(path.relative(root, journalPath)).toMatch(/^\.steward[/\\]journal-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.jsonl$/);
  });

  it('journals each change before the next request: when request k+1 reaches the server, the journal holds 1..k as applied', async () => {
    const plan = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    const journalAt = () => (existsSync(journalPath) ? readJournal(journalPath).map((e) => [e.change, e.status]) : []);
    // Server side: the sandbox stores each write as it handles the request; read the journal then.
    const seenByServer: unknown[] = [];
    const { queuePermissions, dataFilePermissions } = sandbox.state;
    const queueSet = queuePermissions.set;
    const fileSet = dataFilePermissions.set;
    queuePermissions.set = (id, body) => {
      seenByServer.push([id, journalAt()]);
      return queueSet.call(queuePermissions, id, body);
    };
    dataFilePermissions.set = (id, body) => {
      seenByServer.push([id, journalAt()]);
      return fileSet.call(dataFilePermissions, id, body);
    };
    // Client side: onRequest fires when a response is in, before applyFixes goes on.
    const seenByClient: unknown[] = [];
    const api = createClient({
      baseUrl: sandbox.baseUrl,
      token: sandbox.token,
      retryBaseDelayMs: 1,
      onRequest: (e) => seenByClient.push([e.status, journalAt().length]),
    });
    try {
      expect(await applyFixes(plan, { ...options(), api })).toMatchObject({ ok: true, applied: [1, 2, 3, 4, 5] });
    } finally {
      queuePermissions.set = queueSet;
      dataFilePermissions.set = fileSet;
    }
    const applied = (k: number) => Array.from({ length: k }, (_, i) => [i + 1, 'applied']);
    expect(seenByServer).toEqual(['42', '43', 'q-finance-intake', 'q-hr-requests', 'q-support-escalations'].map((id, k) => [id, applied(k)]));
    expect(seenByClient).toEqual([0, 1, 2, 3, 4].map((k) => [200, k]));
  });

  it('stops at the first failure: 1st applied, 2nd failed, 3rd skipped; a re-run with --write completes the rest', async () => {
    const plan = await planRun(root, clientFor(sandbox), QUEUES_ONLY);
    expect(plan.changes.map((c) => c.resource.id)).toEqual(['q-finance-intake', 'q-hr-requests', 'q-support-escalations']);
    const result = await applyFixes(plan, {
      ...options(),
      onApplied: (change) => {
        writeBackChange(change, root);
        // The next write is answered 400 (not retried: the server received it).
        sandbox.scriptFault('updateQueuePermissions', { status: 400 }, 1);
      },
    });
    expect(result).toMatchObject({ ok: false, applied: [1], failed: [2], skipped: [3] });
    expect(result.errors[0]).toMatch(/^change 2 \(queue q-hr-requests\): /);
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    const journal = readJournal(journalPath);
    expect(journal.map((e) => [e.change, e.status])).toEqual([
      [1, 'applied'],
      [2, 'failed'],
      [3, 'skipped'],
    ]);
    expect(journal[1].error).toContain('400');
    expect(journal[2].error).toBe('not attempted: change 2 failed');
    expect(sandbox.state.queuePermissions.get('q-finance-intake')).toEqual(plan.changes[0].request.body);

    // The applied change was written back, so the re-run plans only what is left.
    sandbox.resetCounts();
    const rest = await planRun(root, clientFor(sandbox), QUEUES_ONLY);
    expect(rest.changes.map((c) => c.resource.id)).toEqual(['q-hr-requests', 'q-support-escalations']);
    const again = await applyFixes(rest, { ...options(), onApplied: (c) => void writeBackChange(c, root) });
    expect(again).toMatchObject({ ok: true, applied: [1, 2] });
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    expect(sandbox.state.queuePermissions.get('q-hr-requests')).toEqual(queueStateAfter(plan.changes[1].request.body));
    expect(sandbox.state.queuePermissions.get('q-support-escalations')).toEqual(queueStateAfter(plan.changes[2].request.body));

    // After --apply --write, a re-run plans nothing.
    expect((await planRun(root, clientFor(sandbox), QUEUES_ONLY)).changes).toEqual([]);
  });

  it('refuses a plan larger than maxChanges before any request', async () => {
    const plan = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    const attempt = applyFixes(plan, { ...options(), maxChanges: 4 });
    await expect(attempt).rejects.toThrow(InputError);
    await expect(attempt).rejects.toThrow('--max-changes: the plan has 5 changes, more than the limit of 4: nothing was applied');
    expect(sandbox.totalRequests()).toBe(0);
    expect(existsSync(journalPath)).toBe(false);
  });

  it('refuses a saved plan whose manifest changed since, before any request', async () => {
    const saved = renderPlanJson(await planRun(root, clientFor(sandbox), QUEUES_ONLY));
    appendFileSync(path.join(root, 'permissions/queues/hr-requests.yaml'), '# edited after the plan\n');
    const attempt = applyFixes(parsePlan(saved, 'plan.json'), options());
    await expect(attempt).rejects.toThrow(/^permissions\/queues\/hr-requests\.yaml: changed since plan [0-9a-f]{16} was made/);
    expect(sandbox.totalRequests()).toBe(0);
    expect(existsSync(journalPath)).toBe(false);
  });

  it('sends nothing when the confirmation is declined', async () => {
    const plan = await planRun(root, clientFor(sandbox), QUEUES_ONLY);
    const result = await applyFixes(plan, { ...options(), confirm: () => false });
    expect(result).toMatchObject({ ok: false, cancelled: true, applied: [], skipped: [] });
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('fix --write without --apply', () => {
  it('rewrites the manifests only (no request); a re-run plans nothing', async () => {
    const plan = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    expect(writeBackPlan(plan, root)).toEqual({ written: plan.manifests.map((m) => m.file), unchanged: [] });
    expect(sandbox.totalRequests()).toBe(0);
    expect(readFileSync(path.join(root, 'permissions/queues/finance-intake.yaml'), 'utf8')).toBe(
      readFileSync('demo/permissions/queues/finance-intake.yaml', 'utf8').replace(
        'permissions: [READ, ADMIN] }',
        'permissions: [READ] }',
      ),
    );
    expect(readFileSync(path.join(root, 'permissions/data-files/42.yaml'), 'utf8')).toBe(
      readFileSync('demo/permissions/data-files/42.yaml', 'utf8').replace('publicAccess: true ', 'publicAccess: false'), // the comment keeps its column
    );
    const again = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    expect(again.changes).toEqual([]);
    // Writing the same plan twice is refused: the manifests are no longer what it was made from.
    expect(() => writeBackPlan(plan, root)).toThrow(/changed since the plan was made/);
  });
});
