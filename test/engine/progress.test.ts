// Progress per resource kind: totals known once a kind is collected, read counted as each
// resource's needed reads come back, every kind ending with all read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProgressEvent, runPolicies } from '../../src/engine/run.js';
import { type CompiledPolicy, compilePolicy } from '../../src/policy/compile.js';
import { loadPolicies } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { compilePolicies, type Demo, demoManifests, demoScope, NOW, ROOT, startDemo } from './harness.js';

const ID_ONLY = `
policies:
  - id: dataset-ids-are-prefixed
    title: Dataset ids are prefixed
    description: Reads only the id, which the scope names.
    severity: low
    resource: dataset
    assert: resource.id.startsWith('ds-')
    message: "Dataset {{ resource.id }} is not prefixed"
`;

let demo: Demo;
let pack: CompiledPolicy[];
beforeAll(async () => {
  demo = await startDemo();
  pack = (await loadPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT })).map((d) => compilePolicy(d));
});
afterAll(() => demo.close());

async function progressOf(policies: CompiledPolicy[]): Promise<ProgressEvent[]> {
  const events: ProgressEvent[] = [];
  await runPolicies({
    policies,
    api: demo.api(),
    kinds: RESOURCE_KINDS,
    scope: demoScope(),
    manifestFiles: demoManifests(),
    displayRoot: ROOT,
    now: NOW,
    onProgress: (e) => events.push({ ...e }),
  });
  return events;
}

/** Totals never change once sent, read only grows and never passes the total. */
function expectMonotonic(events: ProgressEvent[]): void {
  const last = new Map<string, ProgressEvent>();
  for (const e of events) {
    const before = last.get(e.kind);
    expect(e.read).toBeLessThanOrEqual(e.total);
    if (before) {
      expect(e.total).toBe(before.total);
      expect(e.read).toBeGreaterThan(before.read);
    }
    last.set(e.kind, e);
  }
}

const finalByKind = (events: ProgressEvent[]) => Object.fromEntries(events.map((e) => [e.kind, `${e.read}/${e.total}`]));
const ofKind = (events: ProgressEvent[], kind: string) => events.filter((e) => e.kind === kind);
/**
 * k/n, k+1/n, …, n/n: the total once collected (k resources already judged while the list was
 * coming, at most all of them), then one resource at a time.
 */
function expectOneByOne(events: ProgressEvent[], kind: string, n: number): void {
  const mine = ofKind(events, kind);
  const first = mine[0]?.read ?? -1;
  expect(first).toBeGreaterThanOrEqual(0);
  expect(mine).toEqual(Array.from({ length: n + 1 - first }, (_, i) => ({ kind, read: first + i, total: n })));
}

describe('runPolicies onProgress', () => {
  it('the demo pack: every kind ends all read, each counted once its parts are read', async () => {
    demo.sandbox.configure({ misconfiguredStatus: 200, workflowGrant: true });
    const events = await progressOf(pack);
    expectMonotonic(events);
    const state = demo.sandbox.state;
    const schedules = state.schedules.length;
    const cards = new Set(state.schedules.map((s) => String(s.cardId))).size;
    expect(finalByKind(events)).toEqual({
      dataFile: '3/3',
      queue: '4/4',
      dataset: '25/25',
      card: `${cards}/${cards}`,
      reportSchedule: `${schedules}/${schedules}`,
      calculatedFields: '1/1',
      filesetFile: '3/3',
      workflow: `${state.workflows.length}/${state.workflows.length}`,
      // Not in this scope: nothing collected, nothing read.
      user: '0/0',
      group: '0/0',
      role: '0/0',
      accessToken: '0/0',
      page: '0/0',
      account: '0/0',
    });
    expectOneByOne(events, 'dataset', 25);
    expectOneByOne(events, 'card', cards);
    // Schedule policies read `misconfigured`, the drift policies each declared queue's and file's
    // live state, the owner policies every content item's owner; calculatedFields has no parts:
    // read when collected.
    expectOneByOne(events, 'reportSchedule', schedules);
    expectOneByOne(events, 'queue', 4);
    expectOneByOne(events, 'dataFile', 3);
    expectOneByOne(events, 'filesetFile', 3);
    expectOneByOne(events, 'workflow', state.workflows.length);
    expect(ofKind(events, 'calculatedFields')).toHaveLength(1);
  });

  it('a dataset counts as read only once its certification has come back', async () => {
    demo.sandbox.resetCounts();
    const [policy] = pack.filter((p) => p.id === 'certified-datasets-need-owner-group');
    const answered: number[] = [];
    const events: ProgressEvent[] = [];
    await runPolicies({
      policies: [policy],
      api: demo.api(),
      kinds: RESOURCE_KINDS,
      scope: demoScope(),
      manifestFiles: demoManifests(),
      displayRoot: ROOT,
      now: NOW,
      onProgress: (e) => {
        events.push({ ...e });
        answered.push(demo.sandbox.counts.getCertificationStatus);
      },
    });
    expectOneByOne(events, 'dataset', 25);
    expect(events.filter((e, i) => answered[i] < e.read)).toEqual([]);
    expect(demo.sandbox.counts.getCertificationStatus).toBe(25);
  });

  it('a kind whose policies read no part is read when collected, with no request', async () => {
    demo.sandbox.resetCounts();
    const events = await progressOf(compilePolicies(ID_ONLY));
    expect(events).toEqual([{ kind: 'dataset', read: 25, total: 25 }]);
    expect(demo.sandbox.totalRequests()).toBe(0);
  });

  it('a kind that cannot be collected ends at 0/0', async () => {
    demo.sandbox.configure({ misconfiguredStatus: 200, workflowGrant: false });
    try {
      const events = await progressOf(pack.filter((p) => p.def.resource === 'workflow'));
      expect(events).toEqual([{ kind: 'workflow', read: 0, total: 0 }]);
    } finally {
      demo.sandbox.configure({ misconfiguredStatus: 200, workflowGrant: true });
    }
  });
});
