// What a finding carries: location (manifest entry or policy), fingerprint, item, message; on
// the demo, then made alone (the manifest entry a path points at, an error's run-wide mark).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINGERPRINT_LENGTH, fingerprint } from '../../src/engine/fingerprint.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { runPolicies } from '../../src/engine/run.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { ApiError } from '../../src/api/errors.js';
import { ALL_RESOURCES_ID, errorFinding, findingLocation } from '../../src/engine/findings.js';
import type { CollectedResource } from '../../src/resources/types.js';
import { compilePolicies, type Demo, DEMO, demoManifests, demoScope, NOW, policyEntry, startDemo } from './harness.js';
import { MISSION_POLICIES } from './mission-policies.js';

const POLICIES = compilePolicies(MISSION_POLICIES, 'policies/mission.yaml');

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

describe('finding fields', () => {
  it('declared findings point at the manifest entry; live ones at the policy', async () => {
    const run = await demo.run(POLICIES);
    const queue = run.findings.filter((f) => f.policy === 'queue-no-admin-for-users');
    expect(queue.map((f) => [f.resource.id, f.path, f.item, f.location])).toEqual([
      ['q-finance-intake', 'permissions[0]', '7', { file: 'demo/permissions/queues/finance-intake.yaml', line: 4, column: 5 }],
      ['q-support-escalations', 'permissions[1]', '12', { file: 'demo/permissions/queues/support-escalations.yaml', line: 10, column: 5 }],
      ['q-support-escalations', 'permissions[2]', '15', { file: 'demo/permissions/queues/support-escalations.yaml', line: 12, column: 5 }],
    ]);
    expect(queue[0]).toMatchObject({
      severity: 'high',
      status: 'violation',
      resource: { kind: 'queue', id: 'q-finance-intake', name: null },
      message: 'User Ana Ruiz (7) holds ADMIN on queue q-finance-intake',
      baseline: null,
      fix: null,
      waiver: null,
    });
    const schedule = run.findings.find((f) => f.policy === 'no-misconfigured-schedules')!;
    expect(schedule.location).toEqual(POLICIES[0].def.location);
    expect(schedule.location?.file).toBe('policies/mission.yaml');
    expect(schedule.path).toBeNull();
    expect(schedule.resource.name).toBe(demo.sandbox.state.schedules.find((s) => s.id === 9001)?.title);
    for (const f of run.findings) expect(f.fingerprint).toMatch(new RegExp(`^[0-9a-f]{${FINGERPRINT_LENGTH}}$`));
  });

  it('fingerprints are stable across runs and change when the offending value changes', async () => {
    const first = await demo.run(POLICIES);
    const second = await demo.run(POLICIES);
    expect(second.findings.map((f) => f.fingerprint)).toEqual(first.findings.map((f) => f.fingerprint));
    expect(new Set(first.findings.map((f) => f.fingerprint)).size).toBe(first.findings.length);

    // Same queue entry, one more permission: a different violation, a new fingerprint.
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-fp-'));
    const manifests = demoManifests();
    const queues = manifests.queues.map((f) => {
      const to = path.join(dir, path.basename(f));
      copyFileSync(f, to);
      return to;
    });
    const finance = path.join(dir, 'finance-intake.yaml');
    writeFileSync(finance, readFileSync(finance, 'utf8').replace('permissions: [READ, ADMIN] }', 'permissions: [READ, ADMIN, SHARE] }'));
    const changed = await runPolicies({
      policies: POLICIES.filter((p) => p.id === 'queue-no-admin-for-users'),
      api: demo.api(),
      kinds: RESOURCE_KINDS,
      scope: demoScope(),
      manifestFiles: { queues, dataFiles: [] },
      displayRoot: DEMO,
      now: NOW,
    });
    const before = first.findings.filter((f) => f.policy === 'queue-no-admin-for-users');
    expect(changed.findings.map((f) => f.item)).toEqual(['7', '12', '15']);
    expect(changed.findings[0].fingerprint).not.toBe(before[0].fingerprint);
    expect(changed.findings.slice(1).map((f) => f.fingerprint)).toEqual(before.slice(1).map((f) => f.fingerprint));
  });

  it('fingerprints leave display names out: a manifest naming a principal the live read does not is the same finding', () => {
    const live = { policy: 'queue-no-admin-for-users', kind: 'queue', resourceId: 'q', itemKey: '7', offendingValue: { id: '7', name: null, type: 'USER', permissions: ['ADMIN'] } };
    const named = { ...live, offendingValue: { id: '7', name: 'Ana Ruiz', type: 'USER', permissions: ['ADMIN'] } };
    const nested = { ...live, offendingValue: { owner: { id: '7', displayName: 'Ana' }, list: [{ id: '7', name: 'Ana' }] } };
    expect(fingerprint(named)).toBe(fingerprint(live));
    expect(fingerprint(nested)).toBe(fingerprint({ ...nested, offendingValue: { owner: { id: '7', displayName: null }, list: [{ id: '7' }] } }));
    // Anything else still counts: one more permission is another violation.
    expect(fingerprint({ ...live, offendingValue: { ...live.offendingValue, permissions: ['ADMIN', 'SHARE'] } })).not.toBe(fingerprint(live));
  });

  it('fingerprint hashes policy, kind, resource, item and the canonical offending value', () => {
    const base = { policy: 'p', kind: 'queue', resourceId: 'q', itemKey: '7', offendingValue: { b: 1, a: [1, { d: 2, c: 3 }] } };
    const same = fingerprint({ ...base, offendingValue: { a: [1, { c: 3, d: 2 }], b: 1 } });
    expect(fingerprint(base)).toBe(same);
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}');
    for (const change of [{ policy: 'x' }, { kind: 'dataFile' }, { resourceId: 'r' }, { itemKey: null }, { offendingValue: {} }]) {
      expect(fingerprint({ ...base, ...change })).not.toBe(same);
    }
  });

  it('lists findings by severity, then kind, then resource id naturally (numbers as numbers), the same every run', async () => {
    const schedules = demo.sandbox.state.schedules;
    const template = schedules.find((s) => s.id === 9001)!;
    // Titles sort the listing (the API's orderBy) the other way round from the ids.
    schedules.push({ ...structuredClone(template), id: 90019, title: 'Aardvark report' });
    schedules.push({ ...structuredClone(template), id: 950, title: 'Zebra report' });
    try {
      const policies = compilePolicies(`
policies:
  - id: every-schedule
    title: Every schedule is flagged
    description: Flags all schedules.
    severity: low
    resource: reportSchedule
    assert: "false"
    message: "Schedule flagged"
  - id: misconfigured
    title: Misconfigured schedules
    description: The misconfigured list.
    severity: high
    resource: reportSchedule
    assert: "!resource.misconfigured"
    message: "{{ resource.title }} is misconfigured"
`);
      const run = await demo.run(policies);
      const ids = (policy: string) => run.findings.filter((f) => f.policy === policy).map((f) => f.resource.id);
      // The high policy comes first although it is listed second.
      expect(run.findings.map((f) => f.policy).slice(0, 3)).toEqual(['misconfigured', 'misconfigured', 'misconfigured']);
      expect(ids('misconfigured')).toEqual(['9001', '9002', '9003']);
      const all = ids('every-schedule');
      expect(all[0]).toBe('950');
      expect(all).toContain('90019');
      expect(all).toEqual([...all].sort((a, b) => Number(a) - Number(b)));
      expect((await demo.run(policies)).findings).toEqual(run.findings);
    } finally {
      schedules.splice(schedules.findIndex((s) => s.id === 90019), 1);
      schedules.splice(schedules.findIndex((s) => s.id === 950), 1);
    }
  });
});

describe('a finding made without a run', () => {
  const policy = compilePolicies(`policies:${policyEntry('queue-check', 'queue', "resource.id != ''")}\n`)[0].def;
  const at = (line: number) => ({ file: 'permissions/q.yaml', line, column: 5 });
  /** A declared queue whose manifest knows where `paths` are. */
  const declared = (paths: Record<string, { file: string; line: number; column: number }>): CollectedResource => ({
    kind: 'queue',
    id: 'q',
    name: null,
    doc: { id: 'q' },
    source: { file: 'permissions/q.yaml', location: at(1), paths, sha256: '0'.repeat(64) },
  });

  it('points at the longest known prefix of the path, cut at a field or an item, never inside a name', () => {
    const r = declared({ 'permissions[1]': at(4), permissions: at(3), 'a.b': at(7), a: at(6), permission: at(9) });
    expect(findingLocation(policy, r, 'permissions[1].type')).toEqual(at(4));
    expect(findingLocation(policy, r, 'permissions[2].type')).toEqual(at(3));
    // `a.b[2]` is cut at its last `[` first, then at its `.`.
    expect(findingLocation(policy, r, 'a.b[2]')).toEqual(at(7));
    expect(findingLocation(policy, r, 'a.c[2]')).toEqual(at(6));
    // No entry named `permissions`: the resource's id key, not the entry whose name is a prefix.
    expect(findingLocation(policy, declared({ permission: at(9) }), 'permissions')).toEqual(at(1));
    expect(findingLocation(policy, r, null)).toEqual(at(1));
    // A live resource: the policy's own definition.
    expect(findingLocation(policy, { ...r, source: null }, 'permissions[1]')).toEqual(policy.location);
  });

  it('an error is marked run-wide only when its cause is one, and its fingerprint is its own', () => {
    const refused = new ApiError({ kind: 'http', operation: 'listQueues', method: 'GET', path: '/api/queues', status: 401, detail: '401 Unauthorized' });
    const failed = new ApiError({ kind: 'http', operation: 'listQueues', method: 'GET', path: '/api/queues', status: 500, detail: '500 Internal Server Error' });
    const runWide = errorFinding(policy, 'queue', null, 'refused', null, null, refused);
    expect(runWide.runWide).toBe(true);
    expect([runWide.resource, runWide.status, runWide.location]).toEqual([{ kind: 'queue', id: ALL_RESOURCES_ID, name: null }, 'error', policy.location]);
    expect('runWide' in errorFinding(policy, 'queue', null, 'failed', null, null, failed)).toBe(false);
    expect('runWide' in errorFinding(policy, 'queue', null, 'failed')).toBe(false);
    // The fingerprint of an error is kept across versions (baselines and histories match on it).
    const error = errorFinding(policy, 'queue', declared({}), 'could not read', 'permissions[0]', '7');
    expect(error.fingerprint).toBe(fingerprint({ policy: 'queue-check', kind: 'queue', resourceId: 'q', itemKey: '7', offendingValue: { error: true } }));
    expect(error.fingerprint).not.toBe(fingerprint({ policy: 'queue-check', kind: 'queue', resourceId: 'q', itemKey: '7', offendingValue: {} }));
    expect(error.fingerprint).not.toBe(fingerprint({ policy: 'queue-check', kind: 'queue', resourceId: 'q', itemKey: '7', offendingValue: { error: false } }));
  });
});
