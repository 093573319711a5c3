// One policy on one resource, through runPolicies (src/engine/judge.ts, engine/run.ts): a
// resource whose own read failed, a part one resource could not read, a shared read that failed
// or whose check failed once the kind was collected: each an error, never a pass, and what each
// counts as judged. Schedules here come from a kind of the test's own (the report-schedule kind
// with its collection and parts replaced), so each failure is placed exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { DEFAULT_ENFORCEMENT } from '../../src/core/model.js';
import { InputError } from '../../src/core/problem.js';
import { runPolicies } from '../../src/engine/run.js';
import type { CompiledPolicy } from '../../src/policy/compile.js';
import { emptyScope, RESOURCE_KINDS } from '../../src/resources/index.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../../src/resources/types.js';
import { compilePolicies, type Demo, NOW, policyEntry, startDemo } from './harness.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

const POLICIES = `
policies:
  - id: titled
    title: Schedules are titled
    description: A schedule without a title cannot be found.
    severity: low
    resource: reportSchedule
    assert: resource.title != ''
    message: "schedule {{ resource.id }} has no title"
  - id: misconfigured-titled
    title: Misconfigured schedules say what is wrong
    description: Reads the misconfigured part to select, the misconfiguration to judge.
    severity: high
    resource: reportSchedule
    when: resource.misconfigured
    assert: resource.misconfiguration == null
    message: "schedule {{ resource.id }} is misconfigured"
`;

const schedule = (id: string, extra: Partial<CollectedResource> = {}): CollectedResource => ({
  kind: 'reportSchedule',
  id,
  name: id,
  doc: { id, title: `Schedule ${id}`, items: Array.from({ length: 20 }, (_, i) => ({ id: `${id}-${i}`, ok: true })) },
  source: null,
  ...extra,
});

interface Parts {
  /** Per schedule id: the misconfigured part's value, or an error its load rejects with. */
  misconfigured?: (id: string, once: NonNullable<Parameters<DocumentPart['load']>[2]>) => Promise<unknown>;
  verify?: { misconfigured?: Error; misconfiguration?: Error };
}

/** The report-schedule kind, its schedules `resources`, its two misconfiguration parts the test's. */
function kindOf(resources: CollectedResource[], parts: Parts = {}, seen: { reads?: unknown; loads: string[]; verified: string[] } = { loads: [], verified: [] }): ResourceKind {
  const part = (name: 'misconfigured' | 'misconfiguration', value: (id: string) => unknown): DocumentPart => ({
    name,
    operation: 'getMisconfiguredReports',
    load: async (_api, r, once) => {
      seen.loads.push(`${name} ${r.id}`);
      return name === 'misconfigured' && parts.misconfigured ? parts.misconfigured(r.id, once!) : value(r.id);
    },
    verify: async () => {
      seen.verified.push(name);
      const failed = parts.verify?.[name];
      if (failed) throw failed;
    },
  });
  return {
    ...RESOURCE_KINDS.reportSchedule,
    async *collect(ctx) {
      seen.reads = ctx.reads;
      yield resources;
    },
    parts: {
      misconfigured: part('misconfigured', (id) => id === 's3'),
      misconfiguration: part('misconfiguration', (id) => (id === 's3' ? { id: 3, title: 'no card' } : null)),
      owner: RESOURCE_KINDS.reportSchedule.parts.owner,
    },
  };
}

function run(policies: CompiledPolicy[], kind: ResourceKind, extra: Partial<Parameters<typeof runPolicies>[0]> = {}) {
  return runPolicies({
    policies,
    api: demo.api(),
    kinds: { ...RESOURCE_KINDS, reportSchedule: kind },
    scope: emptyScope(),
    manifestFiles: {},
    displayRoot: '.',
    now: NOW,
    ...extra,
  });
}

const lines = (r: Awaited<ReturnType<typeof run>>) => r.findings.map((f) => `${f.status} ${f.policy} ${f.resource.id}: ${f.message}`);
const results = (r: Awaited<ReturnType<typeof run>>) => r.results.map((p) => [p.id, p.status, p.evaluated, p.resourceIds]);

describe('judging a resource', () => {
  it('a resource whose own read failed is an error on every policy of its kind, counted as judged, its parts never read', async () => {
    const seen: { reads?: unknown; loads: string[]; verified: string[] } = { loads: [], verified: [] };
    const failed = schedule('s2', { loadError: new Error('403 Forbidden') });
    const r = await run(compilePolicies(POLICIES), kindOf([schedule('s1'), failed, schedule('s3')], {}, seen));
    expect(lines(r)).toEqual([
      'error misconfigured-titled s2: could not read reportSchedule s2: 403 Forbidden',
      'violation misconfigured-titled s3: schedule s3 is misconfigured',
      'error titled s2: could not read reportSchedule s2: 403 Forbidden',
    ]);
    expect(results(r)).toEqual([
      ['titled', 'error', 2, ['s1', 's2', 's3']],
      ['misconfigured-titled', 'error', 1, ['s2', 's3']],
    ]);
    expect(r.evaluated).toEqual({ reportSchedule: 3 });
    expect(seen.loads.sort()).toEqual(['misconfiguration s3', 'misconfigured s1', 'misconfigured s3']);
    // The collection was told which parts the run reads.
    expect(seen.reads).toEqual({ parts: new Set(['misconfigured', 'misconfiguration']), kinds: new Set(['reportSchedule']) });
  });

  it("a part one resource could not read is that resource's error; the others are judged", async () => {
    const misconfigured = async (id: string) => {
      if (id === 's2') throw new Error('timeout');
      return id === 's3';
    };
    const r = await run(compilePolicies(POLICIES).slice(1), kindOf([schedule('s1'), schedule('s2'), schedule('s3')], { misconfigured }));
    expect(lines(r)).toEqual(['error misconfigured-titled s2: could not read reportSchedule s2: timeout', 'violation misconfigured-titled s3: schedule s3 is misconfigured']);
    expect(results(r)).toEqual([['misconfigured-titled', 'error', 1, ['s2', 's3']]]);
  });

  it('a read shared by every resource that failed: one error for the policy, at no resource, none of its findings; the other policy judged', async () => {
    const misconfigured = (id: string, once: Parameters<NonNullable<Parts['misconfigured']>>[1]) =>
      once('the misconfigured list', async () => {
        throw new Error('503 Service Unavailable');
      }).then(() => id === 's3');
    const r = await run(compilePolicies(POLICIES), kindOf([schedule('s1'), schedule('s2'), schedule('s3')], { misconfigured }));
    expect(lines(r)).toEqual([
      'error misconfigured-titled *: could not read reportSchedule data shared by all resources: 503 Service Unavailable',
    ]);
    expect(results(r)).toEqual([
      ['titled', 'pass', 3, ['s1', 's2', 's3']],
      ['misconfigured-titled', 'error', 0, []],
    ]);
    // An error of the instance, not of the run's reach: nothing stopped.
    expect(r.stoppedBy).toEqual([]);
  });

  it("a shared read whose check fails once the kind is collected: the policies reading it keep none of their findings, and judged nothing", async () => {
    const seen = { loads: [] as string[], verified: [] as string[] };
    const orphans = new Error('misconfigured report 9 is not in the schedule list');
    // The second part the policy reads fails its check, the first passes.
    const kind = kindOf([schedule('s1'), schedule('s2'), schedule('s3')], { verify: { misconfiguration: orphans } }, seen);
    const [titled, misconfigured] = compilePolicies(POLICIES);
    const r = await run([titled!, misconfigured!], kind);
    expect(lines(r)).toEqual([`error misconfigured-titled *: could not read reportSchedule data shared by all resources: ${orphans.message}`]);
    expect(results(r)).toEqual([
      ['titled', 'pass', 3, ['s1', 's2', 's3']],
      ['misconfigured-titled', 'error', 0, []],
    ]);
    expect(seen.verified.sort()).toEqual(['misconfiguration', 'misconfigured']);
    // Alone, the policy whose check failed counts no resource judged.
    const alone = await run([misconfigured!], kind);
    expect(alone.evaluated).toEqual({ reportSchedule: 0 });
    // A part no resource read is not checked: no request for it.
    seen.verified.length = 0;
    await run([titled!], kind);
    expect(seen.verified).toEqual([]);
  });

  it('an `each` of more items than the shared verdicts hold: every item counted', async () => {
    const [each] = compilePolicies(`
policies:
  - id: items-ok
    title: Items are ok
    description: Every item passes.
    severity: low
    resource: reportSchedule
    each: resource.items
    assert: item.ok
    message: "item {{ item.id }} is not ok"
`);
    const r = await run([each!], kindOf([schedule('s1'), schedule('s2')]));
    expect(r.findings).toEqual([]);
    expect(results(r)).toEqual([['items-ok', 'pass', 40, ['s1', 's2']]]);
  });

  it('an expression that fails on a resource, or a failure anywhere in judging it, is an error finding there, never a pass', async () => {
    const [, misconfigured] = compilePolicies(POLICIES);
    const failing = compilePolicies(POLICIES.replace("assert: resource.title != ''", 'assert: resource.title.size() > 100'));
    // A document whose title fails CEL's size() on s2 (a number), and one whose field throws the
    // second time it is read: after the assert read it, when the finding's value is taken.
    let reads = 0;
    const odd = schedule('s3');
    Object.defineProperty(odd.doc, 'title', {
      enumerable: true,
      get: () => {
        reads++;
        if (reads > 1) throw new Error('the document changed under the judge');
        return 'short';
      },
    });
    const r = await run([failing[0]!, misconfigured!], kindOf([schedule('s1'), schedule('s2', { doc: { id: 's2', title: 12, items: [] } }), odd]));
    expect(lines(r)).toEqual([
      'violation misconfigured-titled s3: schedule s3 is misconfigured',
      'violation titled s1: schedule s1 has no title',
      "error titled s2: could not evaluate: policy titled: assert: found no matching overload for 'size' applied to '(int)'",
      'error titled s3: could not evaluate: the document changed under the judge',
    ]);
  });

  it('`explain`: the one resource of the one policy is handed over with every part either expression reads', async () => {
    const handed: Record<string, unknown>[] = [];
    const failed = schedule('s2', { loadError: new Error('403 Forbidden') });
    const kind = kindOf([schedule('s1'), failed, schedule('s3')]);
    const inspect = (resource: string, policy = 'titled') => ({ policy, resource, found: (doc: Record<string, unknown>) => handed.push({ ...doc }) });
    // Every part the inspected policy reads, its selection's and its judgement's, even where the
    // selection alone would not read the judgement's (s1 is not misconfigured).
    await run(compilePolicies(POLICIES), kind, { inspect: inspect('s1', 'misconfigured-titled') });
    expect(handed.map((d) => [d.id, d.misconfigured, d.misconfiguration])).toEqual([['s1', false, null]]);
    handed.length = 0;
    await run(compilePolicies(POLICIES), kind, { inspect: inspect('s3') });
    expect(handed.map((d) => [d.id, 'misconfigured' in d])).toEqual([['s3', true]]);
    handed.length = 0;
    // A resource that could not be read is not handed over.
    await run(compilePolicies(POLICIES), kind, { inspect: inspect('s2', 'misconfigured-titled') });
    expect(handed).toEqual([]);
  });
});

describe('a run of kinds', () => {
  it('a policy of a kind the run does not know is an error with no owner, no resource judged', async () => {
    const [titled] = compilePolicies(POLICIES);
    const { reportSchedule: _, ...others } = RESOURCE_KINDS;
    const r = await runPolicies({ policies: [titled!], api: demo.api(), kinds: others, scope: emptyScope(), manifestFiles: {}, displayRoot: '.', now: NOW });
    expect(r.findings.map((f) => [f.status, f.policy, f.resource.kind, f.resource.id, f.message, f.owner, f.ownerUnknown])).toEqual([
      ['error', 'titled', 'reportSchedule', '*', 'unknown resource kind reportSchedule', null, 'the kind is unknown'],
    ]);
    expect(results(r)).toEqual([['titled', 'error', 0, []]]);
  });

  it("a policy's result carries its definition's defaults", async () => {
    const r = await run(compilePolicies(POLICIES).slice(0, 1), kindOf([schedule('s1')]));
    expect(r.results[0]).toStrictEqual({
      id: 'titled',
      title: 'Schedules are titled',
      description: 'A schedule without a title cannot be found.',
      severity: 'low',
      resource: 'reportSchedule',
      status: 'pass',
      evaluated: 1,
      violations: 0,
      error: null,
      resourceIds: ['s1'],
      location: r.results[0]!.location,
      origin: null,
      tags: [],
      enforcement: DEFAULT_ENFORCEMENT,
      controls: {},
    });
    expect(r.results[0]!.location).toMatchObject({ file: 'policies/test.yaml' });
    const declared = POLICIES.replace("    severity: low\n", "    severity: low\n    enforcement: soft\n    tags: [naming]\n    controls: { SOC2: [CC6.1] }\n");
    const [soft] = (await run(compilePolicies(declared).slice(0, 1), kindOf([schedule('s1')]))).results;
    expect([soft!.enforcement, soft!.tags, soft!.controls]).toEqual(['soft', ['naming'], { SOC2: ['CC6.1'] }]);
    // A policy a pack by name brought in says which package and version.
    const [packed] = compilePolicies(POLICIES).slice(0, 1);
    packed!.def.source = { package: '@acme/steward-policies', version: '1.2.0' };
    expect((await run([packed!], kindOf([schedule('s1')]))).results[0]!.source).toEqual({ package: '@acme/steward-policies', version: '1.2.0' });
  });

  it("bad input met while a kind is collected stops the run as bad input, not as the kind's error", async () => {
    const badScope: ResourceKind = {
      ...RESOURCE_KINDS.reportSchedule,
      // biome-ignore lint/correctness/useYield: a collection that refuses its input before reading
      async *collect() {
        throw new InputError([{ file: 'steward.yaml', line: 3, column: 5, message: 'scope: not a schedule id' }]);
      },
    };
    await expect(run(compilePolicies(POLICIES), badScope)).rejects.toBeInstanceOf(InputError);
  });

  it('a failed collection: an error per policy, no resource ids', async () => {
    const broken: ResourceKind = {
      ...RESOURCE_KINDS.reportSchedule,
      // biome-ignore lint/correctness/useYield: a collection that fails before its first page
      async *collect() {
        throw new Error('500 Internal Server Error');
      },
    };
    const r = await run(compilePolicies(POLICIES), broken);
    expect(lines(r)).toEqual([
      'error misconfigured-titled *: could not collect reportSchedule resources: 500 Internal Server Error',
      'error titled *: could not collect reportSchedule resources: 500 Internal Server Error',
    ]);
    expect(results(r)).toEqual([
      ['titled', 'error', 0, []],
      ['misconfigured-titled', 'error', 0, []],
    ]);
  });

  it('a token the instance refuses stops the run once, whichever kinds met it', async () => {
    const s = demo.sandbox;
    const refused = createClient({ baseUrl: s.baseUrl, workflowUrl: s.workflowUrl, token: 'tok-revoked', workflowToken: 'wf-revoked', retryBaseDelayMs: 1 });
    const policies = compilePolicies(
      `policies:${policyEntry('titled', 'reportSchedule', "resource.title != ''")}${policyEntry('users-named', 'user', "resource.name != ''")}${policyEntry('workflows-named', 'workflow', "resource.name != ''")}\n`,
    );
    const scope = { ...emptyScope(), discover: { users: { exclude: [] } } };
    const r = await runPolicies({ policies, api: refused, kinds: RESOURCE_KINDS, scope, manifestFiles: {}, displayRoot: '.', now: NOW });
    expect(r.results.map((p) => p.status)).toEqual(['error', 'error', 'error']);
    // Two kinds met the developer token's refusal, one the workflow token's: each cause once.
    expect(r.stoppedBy.map((c) => c.cause).sort()).toEqual([
      'the instance refused the developer token (401 Unauthorized)',
      'the workflow API refused the workflow token (401 Unauthorized)',
    ]);
  });
});
