// Resuming from a journal (`fix --journal FILE`): after a failure mid-way without --write, a
// re-run plans only what is left, and a change whose manifest was edited since is planned again.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { applyFixes } from '../../src/fix/apply.js';
import { readJournal } from '../../src/fix/journal.js';
import { findingsWithFixes } from '../../src/fix/plan.js';
import { parsePlan, renderPlanJson, renderPlanText } from '../../src/fix/render.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { readResumeJournal, resumePlan } from '../../src/fix/resume.js';
import { PLAN_SCHEMA } from '../../src/fix/schema.js';
import type { FixPlan } from '../../src/fix/types.js';
import { writeBackPlan } from '../../src/fix/writeback.js';
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
  journalPath = path.join(root, 'j.jsonl');
  sandbox.resetCounts();
});

const QUEUES = { only: ['queue-no-admin-for-users', 'queue-entries-grant-something'], waivers: WAIVE_BREAK_GLASS };
const options = () => ({ api: clientFor(sandbox), journalPath, root });
const ids = (plan: FixPlan) => plan.changes.map((c) => [c.n, c.resource.id]);
const journal = () => readResumeJournal(journalPath, 'j.jsonl');

/** The 1st of 3 queue writes succeeds, the 2nd is answered 400, the 3rd is not attempted. */
async function applyFailingSecond(): Promise<FixPlan> {
  const plan = await planRun(root, clientFor(sandbox), QUEUES);
  expect(ids(plan)).toEqual([
    [1, 'q-finance-intake'],
    [2, 'q-hr-requests'],
    [3, 'q-support-escalations'],
  ]);
  sandbox.scriptFault('updateQueuePermissions', {}, 1);
  sandbox.scriptFault('updateQueuePermissions', { status: 400 }, 1);
  const result = await applyFixes(plan, options());
  expect(result).toMatchObject({ ok: false, applied: [1], failed: [2], skipped: [3] });
  expect(readJournal(journalPath).map((e) => e.status)).toEqual(['applied', 'failed', 'skipped']);
  sandbox.resetCounts();
  return plan;
}

describe('planFixes with a journal', () => {
  it('plans only what is left after a failure mid-way, then nothing', async () => {
    const first = await applyFailingSecond();
    const entries = readJournal(journalPath);

    const rest = await planRun(root, clientFor(sandbox), { ...QUEUES, journal: journal() });
    expect(ids(rest)).toEqual([
      [1, 'q-hr-requests'],
      [2, 'q-support-escalations'],
    ]);
    expect(rest.changes.map((c) => c.request)).toEqual(first.changes.slice(1).map((c) => c.request));
    expect(rest.manifests.map((m) => m.file)).toEqual(['permissions/queues/hr-requests.yaml', 'permissions/queues/support-escalations.yaml']);
    expect(rest.id).not.toBe(first.id);
    expect(rest.alreadyApplied).toEqual([
      {
        type: 'state',
        policies: ['queue-no-admin-for-users'],
        findings: first.changes[0].findings,
        resource: first.changes[0].resource,
        manifest: first.changes[0].manifest,
        request: first.changes[0].request,
        after: first.changes[0].after,
        journal: { file: 'j.jsonl', planId: first.id, change: 1, time: entries[0].time },
      },
    ]);
    const text = renderPlanText(rest);
    expect(text.split('\n')[0]).toBe(`Fix plan ${rest.id}: 2 changes, 1 already applied`);
    expect(text).toContain(
      `\nAlready applied:\n- queue q-finance-intake (queue-no-admin-for-users): POST /api/queues/v1/q-finance-intake/permissions — already applied (journal j.jsonl, change 1 at ${entries[0].time})\n`,
    );
    // The finding of the applied change says so.
    const fp = first.changes[0].findings[0];
    const finding = { fingerprint: fp, fix: null } as unknown as Parameters<typeof findingsWithFixes>[0][number];
    expect(findingsWithFixes([finding], rest)[0].fix).toEqual({
      planned: false,
      reason: `already applied (journal j.jsonl, change 1 at ${entries[0].time})`,
    });
    expect(sandbox.totalRequests()).toBe(0);

    // New lines are appended to the same journal; exactly the 2 remaining requests are sent.
    const again = await applyFixes(rest, options());
    expect(again).toMatchObject({ ok: true, applied: [1, 2], failed: [], skipped: [] });
    expect(sandbox.counts.updateQueuePermissions).toBe(2);
    expect(sandbox.totalRequests()).toBe(2);
    for (const c of first.changes) expect(sandbox.state.queuePermissions.get(c.resource.id)).toEqual(queueStateAfter(c.request.body));
    expect(readJournal(journalPath).map((e) => [e.planId, e.change, e.status])).toEqual([
      [first.id, 1, 'applied'],
      [first.id, 2, 'failed'],
      [first.id, 3, 'skipped'],
      [rest.id, 1, 'applied'],
      [rest.id, 2, 'applied'],
    ]);

    sandbox.resetCounts();
    const none = await planRun(root, clientFor(sandbox), { ...QUEUES, journal: journal() });
    expect(none.changes).toEqual([]);
    expect(none.alreadyApplied?.map((a) => [a.resource.id, a.journal.planId, a.journal.change])).toEqual([
      ['q-finance-intake', first.id, 1],
      ['q-hr-requests', rest.id, 1],
      ['q-support-escalations', rest.id, 2],
    ]);
    expect(await applyFixes(none, options())).toMatchObject({ ok: true, applied: [] });
    expect(sandbox.totalRequests()).toBe(0);
    expect(renderPlanText(none)).toContain('Nothing to change.');
  });

  it('plans an applied change again when its manifest declares something else since (a comment is not a change)', async () => {
    await applyFailingSecond();
    const finance = path.join(root, 'permissions/queues/finance-intake.yaml');
    appendFileSync(finance, '# reviewed\n');
    const commented = await planRun(root, clientFor(sandbox), { ...QUEUES, journal: journal() });
    expect(commented.alreadyApplied?.map((a) => a.resource.id)).toEqual(['q-finance-intake']);

    writeFileSync(finance, readFileSync(finance, 'utf8').replace('permissions: [READ, WRITE]', 'permissions: [READ]'));
    const edited = await planRun(root, clientFor(sandbox), { ...QUEUES, journal: journal() });
    expect(ids(edited)).toEqual([
      [1, 'q-finance-intake'],
      [2, 'q-hr-requests'],
      [3, 'q-support-escalations'],
    ]);
    expect(edited.changes[0].request.body).toEqual([
      { id: '7', name: 'Ana Ruiz', type: 'USER', permissions: ['READ'] },
      { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: ['ADMIN'] },
      { id: '9', name: 'Ben Okafor', type: 'USER', permissions: ['READ'] },
    ]);
    expect(edited.alreadyApplied).toEqual([]);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('plans a change again when the last request to its endpoint failed, or the journal entry was made from another state', async () => {
    const plan = await planRun(root, clientFor(sandbox), QUEUES);
    const entry = (n: number, status: string, extra: object = {}) =>
      JSON.stringify({
        time: '2026-06-01T00:00:00.000Z',
        planId: plan.id,
        change: n,
        policies: plan.changes[n - 1].policies,
        resource: { kind: 'queue', id: plan.changes[n - 1].resource.id },
        request: plan.changes[n - 1].request,
        before: plan.changes[n - 1].before,
        status,
        ...extra,
      });
    writeFileSync(
      journalPath,
      [
        entry(1, 'applied'),
        entry(1, 'failed', { error: 'HTTP 500' }),
        entry(2, 'applied', { before: { ...plan.changes[1].before, permissions: [] } }),
        entry(3, 'applied'),
        entry(3, 'skipped'),
        '',
      ].join('\n'),
    );
    const resumed = resumePlan(plan, journal()!);
    expect(ids(resumed)).toEqual([
      [1, 'q-finance-intake'],
      [2, 'q-hr-requests'],
    ]);
    expect(resumed.alreadyApplied?.map((a) => [a.resource.id, a.journal.change])).toEqual([['q-support-escalations', 3]]);
    // Key order does not matter: bodies and states compare as canonical JSON.
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[{"x":2,"y":1}]}');
  });

  it('a resumed plan validates against the plan schema, round-trips, and --write rewrites the applied change too', async () => {
    await applyFailingSecond();
    const rest = await planRun(root, clientFor(sandbox), { ...QUEUES, journal: journal() });
    expect(new Ajv({ strict: false }).compile(PLAN_SCHEMA)(JSON.parse(renderPlanJson(rest)))).toBe(true);
    expect(parsePlan(renderPlanJson(rest), 'plan.json')).toEqual(rest);

    expect(writeBackPlan(rest, root).written).toEqual([
      'permissions/queues/hr-requests.yaml',
      'permissions/queues/support-escalations.yaml',
      'permissions/queues/finance-intake.yaml',
    ]);
    const after = await planRun(root, clientFor(sandbox), QUEUES);
    expect([after.changes, after.alreadyApplied]).toEqual([[], undefined]);
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('readResumeJournal', () => {
  it('refuses a file that is not a journal at file:line; a missing file is a new journal', async () => {
    expect(readResumeJournal(path.join(root, 'none.jsonl'), 'none.jsonl')).toBeNull();
    const good = JSON.stringify({
      time: 't',
      planId: 'p',
      change: 1,
      policies: [],
      resource: { kind: 'queue', id: 'q' },
      request: { method: 'POST', path: '/x', body: [] },
      before: { id: 'q' },
      status: 'applied',
    });
    writeFileSync(journalPath, `${good}\n\nqueue: q-finance-intake\n${good.replace('"applied"', '"done"')}\n[1]\n`);
    let error: unknown;
    try {
      readResumeJournal(journalPath, 'j.jsonl');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.split('\n')).toEqual([
      expect.stringMatching(/^j\.jsonl:3:1: not a steward journal entry: not JSON \(.+\)$/),
      'j.jsonl:4:1: not a steward journal entry: "status" must be applied, failed or skipped',
      'j.jsonl:5:1: not a steward journal entry: not a JSON object',
    ]);
  });
});
