// Owners on every finding (src/engine/owners.ts) over HTTP on the demo instance with the built-in
// pack: each finding carries its resource's platform owner, or `owner: null` with why; the owner
// reads are made once per listing and only for resources with a finding; a declared resource's
// owner is not read from the instance. Routing by the config's `owners:` map (library/owners.ts).
// Then `attachOwners` alone, on a kind of the test's own: each answer it gives, and one read a resource.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InstanceApi } from '../../src/api/types.js';
import { ALL_RESOURCES_ID, errorFinding, violationFinding } from '../../src/engine/findings.js';
import { createPartMemo, createRunMemo } from '../../src/engine/memo.js';
import { attachOwners } from '../../src/engine/owners.js';
import { check } from '../../src/index.js';
import type { Finding, Report } from '../../src/core/model.js';
import { InputError } from '../../src/core/problem.js';
import { formatReport } from '../../src/report/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../../src/resources/types.js';
import { REPO, tempDir } from '../cli/helpers.js';
import { reportValidator, sarifValidator } from '../report/schema-validators.js';
import { compilePolicies, policyEntry } from './harness.js';

const validateReport = reportValidator();

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const run = (options: { only?: string[]; config?: string } = {}): Promise<Report> =>
  check({ config: options.config ?? 'demo/steward.yaml', cwd: REPO, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only: options.only });

const key = (f: Finding) => `${f.policy} ${f.resource.kind}/${f.resource.id}`;

/** A copy of the demo project (config, manifests, waivers) with `extra` appended to its config. */
function demoConfigWith(extra: string): string {
  const dir = tempDir('steward-owners-');
  cpSync(path.join(REPO, 'demo'), dir, { recursive: true });
  const file = path.join(dir, 'steward.yaml');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n${extra}`);
  return file;
}

describe('owners on every finding', () => {
  it('the built-in pack on the sandbox: every finding has an owner or says why not, and the report validates', async () => {
    const report = await run();
    expect(report.findings.length).toBeGreaterThan(20);
    for (const f of report.findings) {
      if (f.owner) {
        expect([key(f), f.owner.type, typeof f.owner.id, f.ownerUnknown]).toEqual([key(f), expect.stringMatching(/^(USER|GROUP)$/), 'string', undefined]);
      } else {
        expect([key(f), f.owner]).toEqual([key(f), null]);
        expect(f.ownerUnknown, key(f)).toMatch(/\S/);
      }
    }
    const by = (k: string) => report.findings.find((f) => key(f) === k)!;
    expect(by('datasets-owner-active dataset/ds-hr-certified').owner).toEqual({ type: 'USER', id: '31', name: 'Eva Novak', email: 'eva.novak@example.com', state: 'deactivated' });
    // A queue whose owner a policy read (queues-owner-active): known, though its manifest declares it.
    expect(by('queue-no-admin-for-users queue/q-finance-intake').owner?.name).toBe('Priya Shah');
    // Kinds that have no owner say so.
    const role = report.findings.find((f) => f.resource.kind === 'role')!;
    expect(role.ownerUnknown).toBe("a role belongs to the instance, not to a person: route it with the config's owners: map");
    // A group with no owner on the platform.
    expect(by('groups-have-owners group/302')).toMatchObject({ owner: null, ownerUnknown: 'the platform names no owner for group 302' });
    expect(validateReport(JSON.parse(formatReport('json', report, { color: false }))).slice(0, 3)).toEqual([]);
    // One directory (two searches) for the whole run, however many findings need it.
    expect(sandbox.counts.searchUsers).toBe(2);
  });

  it('a declared resource no policy read the owner of: not read from the instance (the pre-release gate sends nothing)', async () => {
    const report = await run({ only: ['queue-no-admin-for-users'] });
    const f = report.findings.find((x) => x.resource.id === 'q-finance-intake')!;
    expect(f).toMatchObject({ owner: null, ownerUnknown: "declared in demo/permissions/queues/finance-intake.yaml: the instance is not read for a declared resource's owner; route it with the config's owners: map" });
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('reads owners only for resources with a finding: a passing run reads no owner', async () => {
    const passing = await run({ only: ['card-sharing-matches-manifest'] });
    expect(passing.findings).toEqual([]);
    expect(passing.summary.checks).toBeGreaterThan(0);
    expect(sandbox.counts.searchUsers ?? 0).toBe(0);
    sandbox.resetCounts();
    const failing = await run({ only: ['workflows-are-named'] });
    expect(failing.findings.map((f) => [key(f), f.owner?.name])).toEqual([['workflows-are-named workflow/wf-unnamed', 'Ana Ruiz']]);
    expect(sandbox.counts.searchUsers).toBe(2);
  });

  it('an owner listing that fails leaves the finding with ownerUnknown naming why: the verdict and the gate do not change', async () => {
    sandbox.scriptFault('searchUsers', { status: 503 }, 10);
    const report = await run({ only: ['workflows-are-named'] });
    expect(report.summary.gate).toBe('fail');
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0].owner).toBeNull();
    expect(report.findings[0].ownerUnknown).toMatch(/^searchUsers: .*503/);
  });
});

describe('owners: routing to teams', () => {
  const RULES = `owners:
  - team: identity
    kinds: [role, user, group, accessToken]
  - team: stewards
    ownerGroups: ["305"]
  - team: hr-data
    owners: [EVA.NOVAK@example.com]
  - team: data-platform
    policies: ["datasets-*", "data-files-*"]
  - team: certification
    tags: [certification]
`;

  it('the first matching rule names the team: kind, owner group, owner email (any case), policy glob, tag; null when none matches', async () => {
    const report = await run({ config: demoConfigWith(RULES) });
    const by = (k: string) => report.findings.find((f) => key(f) === k)!;
    expect(report.findings.filter((f) => f.resource.kind === 'role').map((f) => f.team)).toEqual(['identity', 'identity']);
    // Eva owns it (rule 3 matches before the policy glob of rule 4), on the owner too.
    const hr = by('datasets-owner-active dataset/ds-hr-certified');
    expect([hr.team, hr.owner?.team]).toEqual(['hr-data', 'hr-data']);
    expect(by('datasets-have-an-owner dataset/ds-scratch').team).toBe('data-platform');
    // Owned by group 305 (Finance Admins): rule 2, before the policy glob.
    expect(by('datasets-pdp-open-policy-narrow dataset/ds-finance-certified').team).toBe('stewards');
    // By tag only.
    expect(by('certified-datasets-certification-current dataset/ds-legacy-expired').team).toBe('certification');
    expect(by('workflows-are-named workflow/wf-unnamed')).toMatchObject({ team: null });
    expect(by('workflows-are-named workflow/wf-unnamed').owner?.team).toBeUndefined();
    expect(report.findings.every((f) => f.team !== undefined)).toBe(true);
    expect(validateReport(JSON.parse(formatReport('json', report, { color: false }))).slice(0, 3)).toEqual([]);
  });

  it('without owners: a finding carries no team at all', async () => {
    const report = await run({ only: ['workflows-are-named'] });
    expect('team' in report.findings[0]).toBe(false);
  });

  it('a notify channel for a team no rule names is bad input with its line, before any request', async () => {
    const config = demoConfigWith(`${RULES}notify:\n  - type: webhook\n    url: env:HOOK\n    teams: [identity, platfrom]\n`);
    const attempt = run({ config });
    await expect(attempt).rejects.toThrow(InputError);
    await expect(attempt).rejects.toThrow(/steward\.yaml:\d+:\d+: notify: team "platfrom" is named by no owners: rule/);
    expect(sandbox.totalRequests()).toBe(0);
  });
});

describe('owners in the other formats', () => {
  it('SARIF results carry the owner (or why not) and the team in their properties', async () => {
    const report = await run({ only: ['workflows-are-named', 'admins-at-most'] });
    const sarif = JSON.parse(formatReport('sarif', report, { color: false, cwd: REPO })) as { runs: { results: { ruleId: string; properties: Record<string, unknown> }[] }[] };
    expect(sarifValidator()(sarif)).toEqual([]);
    const props = (rule: string) => sarif.runs[0].results.find((r) => r.ruleId === rule)!.properties;
    expect(props('workflows-are-named').owner).toEqual({ type: 'USER', id: '7', name: 'Ana Ruiz', email: 'ana.ruiz@example.com', state: 'active' });
    expect(props('admins-at-most')).toMatchObject({ owner: null, ownerUnknown: "a role belongs to the instance, not to a person: route it with the config's owners: map" });
    expect('team' in props('admins-at-most')).toBe(false);
  });
});

describe('attachOwners, one kind at a time', () => {
  const policy = compilePolicies(`policies:${policyEntry('things-named', 'reportSchedule', "resource.title != ''")}\n`)[0].def;
  const resource = (id: string, doc: Record<string, unknown> = {}): CollectedResource => ({ kind: 'thing', id, name: null, doc: { id, ...doc }, source: null });
  const finding = (r: CollectedResource | null) => (r ? violationFinding(policy, r, { path: null, itemKey: null, offendingValue: null }) : errorFinding(policy, 'thing', null, 'listing failed'));
  const context = (partMemo = createPartMemo()) => ({ api: {} as InstanceApi, once: createRunMemo().once, partMemo });
  const owned = (load: DocumentPart['load']): ResourceKind => ({ name: 'thing', parts: { owner: { name: 'owner', operation: 'searchUsers', load } } }) as unknown as ResourceKind;
  const answers = (findings: Finding[]) => findings.map((f) => [f.resource.id, f.owner, f.ownerUnknown]);

  it('a kind without an owner part says so, in its own words or the default', async () => {
    const findings = [finding(resource('1'))];
    await attachOwners(context(), { name: 'thing', parts: {} } as unknown as ResourceKind, findings, new Map([['1', resource('1')]]), 2);
    expect(answers(findings)).toEqual([['1', null, 'a thing names no owner']]);
    const own = [finding(resource('1'))];
    await attachOwners(context(), { name: 'thing', parts: {}, ownerless: 'things are shared' } as unknown as ResourceKind, own, new Map([['1', resource('1')]]), 2);
    expect(answers(own)).toEqual([['1', null, 'things are shared']]);
  });

  it('an owner value that names no user or group is none; a read that fails says why; an error of the kind or a resource not collected names no owner', async () => {
    const values: Record<string, unknown> = {
      '1': { type: 'USER', id: '7', name: 'Ana Ruiz' },
      '2': null,
      '3': 'Ana Ruiz',
      '4': { type: 'ROBOT', id: '9' },
      '5': { type: 'GROUP', id: 88 },
    };
    const kind = owned(async (_api, r) => {
      if (r.id === '6') throw new Error('searchUsers: 503 Service Unavailable');
      return values[r.id];
    });
    const rs = ['1', '2', '3', '4', '5', '6'].map((id) => resource(id));
    const findings = [...rs.map(finding), finding(null), finding(resource('99'))];
    await attachOwners(context(), kind, findings, new Map(rs.map((r) => [r.id, r])), 3);
    expect(answers(findings)).toEqual([
      ['1', { type: 'USER', id: '7', name: 'Ana Ruiz', email: null, state: null }, undefined],
      ['2', null, 'the platform names no owner for thing 2'],
      ['3', null, 'the platform names no owner for thing 3'],
      ['4', null, 'the platform names no owner for thing 4'],
      ['5', null, 'the platform names no owner for thing 5'],
      ['6', null, 'searchUsers: 503 Service Unavailable'],
      [ALL_RESOURCES_ID, null, 'the error concerns every thing resource, not one'],
      ['99', null, 'thing 99 was not collected'],
    ]);
  });

  it("reads a resource's owner once: not again when a policy's read left it in the document or in the run's part memo", async () => {
    const loads: string[] = [];
    const kind = owned(async (_api, r) => {
      loads.push(r.id);
      return { type: 'GROUP', id: `g-${r.id}` };
    });
    const partMemo = createPartMemo();
    const read = resource('1', { owner: { type: 'USER', id: '7', name: 'Ana Ruiz', email: 'ana@example.com', state: 'active' } });
    const memoised = resource('2');
    await partMemo(memoised, 'owner', async () => ({ type: 'USER', id: '8' }));
    const fresh = resource('3');
    const findings = [finding(read), finding(memoised), finding(fresh), finding(fresh)];
    await attachOwners(context(partMemo), kind, findings, new Map([read, memoised, fresh].map((r) => [r.id, r])), 2);
    expect(loads).toEqual(['3']);
    expect(findings.map((f) => f.owner?.id)).toEqual(['7', '8', 'g-3', 'g-3']);
    expect(findings[0].owner).toEqual({ type: 'USER', id: '7', name: 'Ana Ruiz', email: 'ana@example.com', state: 'active' });
  });

  it('a kind that resolves every owner routes to the first active one (a user or a group), else the first, else none; its one owner is not read', async () => {
    const owner = (id: string, type: string, state: string | null) => ({ type, id, name: null, email: null, state });
    const lists: Record<string, unknown> = {
      '1': [owner('77', 'USER', 'deleted'), owner('31', 'USER', 'deactivated'), owner('9', 'USER', 'active')],
      '2': [owner('77', 'USER', 'deleted'), owner('330', 'GROUP', 'active'), owner('9', 'USER', 'active')],
      '3': [owner('77', 'USER', 'deleted'), owner('40', 'USER', 'pending')],
      '4': [],
    };
    const kind = {
      name: 'thing',
      parts: {
        owner: { name: 'owner', operation: 'searchUsers', load: async () => owner('0', 'USER', 'active') },
        resolvedOwners: { name: 'resolvedOwners', operation: 'searchUsers', load: async (_api: InstanceApi, r: CollectedResource) => lists[r.id] },
      },
    } as unknown as ResourceKind;
    // A policy's read of resolvedOwners left it in the document: routed from there, not read again.
    const read = resource('5', { resolvedOwners: [owner('31', 'USER', 'deactivated'), owner('8', 'USER', 'active')] });
    const rs = [...['1', '2', '3', '4'].map((id) => resource(id)), read];
    const findings = rs.map(finding);
    await attachOwners(context(), kind, findings, new Map(rs.map((r) => [r.id, r])), 2);
    expect(findings.map((f) => [f.resource.id, f.owner?.id ?? null, f.owner?.state ?? null, f.ownerUnknown])).toEqual([
      ['1', '9', 'active', undefined],
      ['2', '330', 'active', undefined],
      // Pending is not yet anyone who acts: the first.
      ['3', '77', 'deleted', undefined],
      ['4', null, null, 'the platform names no owner for thing 4'],
      ['5', '8', 'active', undefined],
    ]);
  });
});
