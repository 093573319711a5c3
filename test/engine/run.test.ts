import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { InputError } from '../../src/core/problem.js';
import { runPolicies } from '../../src/engine/run.js';
import { emptyScope, RESOURCE_KINDS } from '../../src/resources/index.js';
import type { ResourceKind } from '../../src/resources/types.js';
import { compilePolicies, type Demo, policyEntry, startDemo, summary } from './harness.js';
import { MISSION_PLANTED, MISSION_POLICIES } from './mission-policies.js';

/** A schedule policy that reads no part, so schedules are judged page by page. */
const TIMEZONES_SET = `
  - id: timezones-set
    title: Every schedule names a time zone
    description: A schedule without a time zone runs at the server's idea of 8 o'clock, which is nobody's.
    severity: low
    resource: reportSchedule
    assert: resource.schedule.timezone != ''
    message: "Schedule {{ resource.id }} has no time zone"`;

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

describe('runPolicies on the demo instance', () => {
  it('finds exactly the planted violations of the three mission policies', async () => {
    const run = await demo.run(compilePolicies(MISSION_POLICIES));
    expect(summary(run)).toEqual(MISSION_PLANTED);
    expect(run.results.map((r) => [r.id, r.status, r.violations])).toEqual([
      ['no-misconfigured-schedules', 'fail', 3],
      ['certified-datasets-need-owner-group', 'fail', 2],
      ['queue-no-admin-for-users', 'fail', 3],
    ]);
  });

  it('counts per kind the resources some policy judged; a policy that judged them all shares the kind\'s id list', async () => {
    const policies = compilePolicies(`
policies:${TIMEZONES_SET}
  - id: enabled-only
    title: Enabled schedules name a time zone
    description: The same, for the schedules that run.
    severity: low
    resource: reportSchedule
    when: resource.schedule.enabled
    assert: resource.schedule.timezone != ''
    message: "Schedule {{ resource.id }} has no time zone"
  - id: disabled-only
    title: Disabled schedules name a time zone
    description: The same, for the schedules that do not run.
    severity: low
    resource: reportSchedule
    when: "!resource.schedule.enabled"
    assert: resource.schedule.timezone != ''
    message: "Schedule {{ resource.id }} has no time zone"
`);
    const run = await demo.run(policies);
    const [all, enabled, disabled] = run.results;
    const listed = run.collected.reportSchedule;
    expect(listed).toBe(demo.sandbox.state.schedules.length);
    expect(all.resourceIds).toHaveLength(listed);
    expect(enabled.resourceIds.length).toBeGreaterThan(0);
    expect(disabled.resourceIds.length).toBeGreaterThan(0);
    expect(enabled.resourceIds.length + disabled.resourceIds.length).toBe(listed);
    expect(new Set([...enabled.resourceIds, ...disabled.resourceIds])).toEqual(new Set(all.resourceIds));
    // One list for the policy that judged every schedule (no copy), its own for the others.
    expect(all.resourceIds).not.toBe(enabled.resourceIds);
    expect(run.evaluated).toEqual({ reportSchedule: listed });
    // Without the policy that judged them all, the count is the union of the others.
    const split = await demo.run(policies.slice(1));
    expect(split.evaluated).toEqual({ reportSchedule: listed });
    const one = await demo.run(policies.slice(1, 2));
    expect(one.evaluated).toEqual({ reportSchedule: enabled.resourceIds.length });
  });

  it('a kind judged as it is collected still fails whole when its listing fails half-way', async () => {
    // No policy reads a part, so schedules are judged page by page; the second page repeats
    // the first (the server ignores skip), after the first page's schedules were judged.
    const timezone = compilePolicies(`policies:${TIMEZONES_SET}\n`);
    demo.sandbox.configure({ ignoreSkip: true });
    try {
      const s = demo.sandbox;
      const run = await demo.run(timezone, createClient({ baseUrl: s.baseUrl, token: s.token, pageSize: 10 }));
      expect(run.results.map((r) => [r.id, r.status, r.evaluated, r.violations])).toEqual([['timezones-set', 'error', 0, 0]]);
      expect(run.findings.map((f) => [f.status, f.resource.id])).toEqual([['error', '*']]);
      expect(run.results[0].error).toMatch(/^could not collect reportSchedule resources: listReportSchedules: .*the page at skip=10 is identical to the page at skip=0/);
      expect(run.resources).toBe(0);
    } finally {
      demo.sandbox.configure({ ignoreSkip: false });
    }
  });

  it('a kind whose policies read a part is judged as it is collected too: no resource waits for the whole list', async () => {
    const base = RESOURCE_KINDS.reportSchedule;
    const part = base.parts.misconfigured;
    let yielded = 0;
    // Per resource judged: how many the collection had handed over by then.
    const handedOverWhenJudged = new Map<string, number>();
    const judged = (id: string) => {
      if (!handedOverWhenJudged.has(id)) handedOverWhenJudged.set(id, yielded);
    };
    const counting: ResourceKind = {
      ...base,
      async *collect(ctx) {
        for await (const r of base.collect(ctx)) {
          yielded++;
          yield r;
        }
      },
      parts: {
        ...base.parts,
        misconfigured: {
          ...part,
          load: (api, r, once) => {
            judged(r.id);
            return part.load(api, r, once);
          },
          loaded: (r, once) => {
            judged(r.id);
            return part.loaded!(r, once);
          },
        },
      },
    };
    const [policy] = compilePolicies(MISSION_POLICIES).filter((p) => p.id === 'no-misconfigured-schedules');
    const s = demo.sandbox;
    s.resetCounts();
    const run = await runPolicies({
      policies: [policy],
      api: createClient({ baseUrl: s.baseUrl, token: s.token, pageSize: 10 }),
      kinds: { ...RESOURCE_KINDS, reportSchedule: counting },
      scope: emptyScope(),
      manifestFiles: {},
      displayRoot: '.',
      now: new Date(),
      concurrency: 4,
    });
    const n = s.state.schedules.length;
    expect(n).toBeGreaterThan(20);
    expect(run.results.map((r) => [r.status, r.evaluated, r.violations])).toEqual([['fail', n, 3]]);
    expect([...handedOverWhenJudged.values()]).toHaveLength(n);
    // The i-th resource is judged before the collection hands over more than the pool's 4
    // waiting ones past it (collected first, every one would see n).
    const late = [...handedOverWhenJudged.values()].filter((handedOver, i) => handedOver > i + 1 + 4);
    expect(late).toEqual([]);
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });

  it('a policy whose kind’s scope names nothing is skipped by the engine, with the reason, not passed', async () => {
    const policies = compilePolicies(`
policies:
  - id: files-have-paths
    title: Files have paths
    description: A file without a path cannot be found in an audit.
    severity: low
    resource: filesetFile
    assert: resource.path != ''
`);
    const s = demo.sandbox;
    s.resetCounts();
    const run = await runPolicies({
      policies,
      api: createClient({ baseUrl: s.baseUrl, token: s.token }),
      kinds: RESOURCE_KINDS,
      scope: emptyScope(),
      manifestFiles: {},
      displayRoot: '.',
      now: new Date(),
    });
    expect(run.results.map((r) => [r.id, r.status, r.evaluated])).toEqual([['files-have-paths', 'skipped', 0]]);
    expect(run.warnings).toEqual(['policy files-have-paths checked nothing: scope.filesets is empty']);
    expect(s.totalRequests()).toBe(0);
  });
});

describe('runPolicies: what stops a run, what a run says it skipped', () => {
  it('several policies that checked nothing: one line naming each empty scope key once, and the policies', async () => {
    const run = (text: string) =>
      runPolicies({ policies: compilePolicies(`policies:${text}\n`), api: demo.api(), kinds: RESOURCE_KINDS, scope: emptyScope(), manifestFiles: {}, displayRoot: '.', now: new Date() });
    const files = policyEntry('files-a', 'filesetFile', "resource.path != ''") + policyEntry('files-b', 'filesetFile', "resource.path != ''");
    expect((await run(files)).warnings).toEqual(['2 policies checked nothing: scope.filesets is empty (files-a, files-b)']);
    const mixed = await run(files + policyEntry('datasets-a', 'dataset', "resource.name != ''"));
    expect(mixed.warnings).toEqual(['3 policies checked nothing: scope.filesets, scope.datasets are empty (files-a, files-b, datasets-a)']);
    expect(mixed.results.map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
  });

  it('a listing asked for (`all`) that gave nothing: skipped, and the line says the listing gave none, not that the scope is empty', async () => {
    const none: ResourceKind = {
      ...RESOURCE_KINDS.dataset,
      async *collect() {},
    };
    const noPages: ResourceKind = { ...RESOURCE_KINDS.page, async *collect() {} };
    const run = (text: string) =>
      runPolicies({
        policies: compilePolicies(`policies:${text}\n`),
        api: demo.api(),
        kinds: { ...RESOURCE_KINDS, dataset: none, page: noPages },
        scope: { ...emptyScope(), discover: { datasets: { exclude: [] }, pages: { exclude: [] } } },
        manifestFiles: {},
        displayRoot: '.',
        now: new Date(),
      });
    const datasets = policyEntry('datasets-a', 'dataset', "resource.name != ''");
    const alone = await run(datasets);
    expect(alone.warnings).toEqual(['policy datasets-a checked nothing: scope.datasets: all listed none']);
    expect(alone.results.map((r) => r.status)).toEqual(['skipped']);
    const both = await run(policyEntry('files-a', 'filesetFile', "resource.path != ''") + datasets);
    expect(both.warnings).toEqual(['2 policies checked nothing: scope.filesets is empty; scope.datasets: all listed none (files-a, datasets-a)']);
    const twoListings = await run(datasets + policyEntry('pages-a', 'page', "resource.title != ''"));
    expect(twoListings.warnings).toEqual(['2 policies checked nothing: scope.datasets: all, scope.pages: all listed none (datasets-a, pages-a)']);
  });

  it('a bad manifest is bad input before any request; a declared kind that fails otherwise is an error of its policies', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-run-'));
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'queue: [unclosed\n');
    const policies = compilePolicies(`policies:${TIMEZONES_SET}${policyEntry('queues-named', 'queue', "resource.id != ''")}\n`);
    const s = demo.sandbox;
    s.resetCounts();
    const base = { policies, api: demo.api(), kinds: RESOURCE_KINDS, scope: emptyScope(), displayRoot: dir, now: new Date() };
    await expect(runPolicies({ ...base, manifestFiles: { queues: [bad] } })).rejects.toBeInstanceOf(InputError);
    expect(s.totalRequests()).toBe(0);
    const failing: ResourceKind = {
      ...RESOURCE_KINDS.queue,
      // biome-ignore lint/correctness/useYield: a collection that fails before its first item
      async *collect() {
        throw new Error('EACCES: permission denied');
      },
    };
    const run = await runPolicies({ ...base, kinds: { ...RESOURCE_KINDS, queue: failing }, manifestFiles: {} });
    expect(run.results.map((r) => [r.id, r.status, r.error])).toEqual([
      ['timezones-set', expect.any(String), null],
      ['queues-named', 'error', 'could not collect queue resources: EACCES: permission denied'],
    ]);
  });
});
