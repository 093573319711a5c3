// `steward doctor` over real HTTP against the sandbox: every check ok on the demo; with a
// token whose user lacks the content admin and the Workflow API grants, both named as missing
// (exit 3); a wrong token refused; scope ids that do not exist named.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { doctor, operationsOf } from '../../src/library/doctor.js';
import { loadCompiledPolicies } from '../../src/policy/policy-set.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { PLANTED_PEOPLE, PLANTED_TOKENS } from '../../src/sandbox/demo-people.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, REPO, runCli, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.configure({ adminGrant: true, workflowGrant: true });
  sandbox.resetCounts();
});

/** The demo config, live against the sandbox, with workflows read from the instance host. */
const live = (extra: Record<string, unknown> = {}) => ({
  config: 'demo/steward.yaml',
  cwd: REPO,
  env: {},
  baseUrl: sandbox.baseUrl,
  token: sandbox.token,
  ...extra,
});

/** Every check the demo config asks of doctor, in order. */
const DEMO_CHECKS = [
  ...['token', 'scheduleFilter', 'misconfigured', 'calculatedFields', 'workflowGrant', 'userSearch', 'groups', 'groupRead', 'roles', 'accessTokens', 'pages', 'accounts'],
  // The listings content kinds' owner parts read, which no kind's probe covers: their first page each.
  ...['read.listCardSummaries', 'read.searchCards', 'read.listDataFiles', 'read.listDatasets', 'read.searchFilesets', 'read.listQueues'],
  ...['scope.datasets', 'scope.filesets', 'discover.users', 'discover.groups', 'discover.roles', 'discover.accessTokens', 'discover.pages', 'discover.accounts'],
  // Each read of one resource a selected policy makes, for the first resource of its kind.
  ...['read.dataset.getDatasetPermissions', 'read.dataset.getCertificationStatus', 'read.dataset.getPdpPolicies', 'read.card.getCertificationStatus', 'read.card.getCardAccessList'],
  ...['read.queue.getQueuePermissions', 'read.dataFile.getDataFilePermissions', 'read.filesetFile.getFilesetAccess', 'read.workflow.getWorkflowPermissions'],
];

describe('steward doctor', () => {
  it('all ok on the demo instance: one request per grant plus one per scope id', async () => {
    const report = await doctor(live());
    // The demo's checks, in order: a new kind's probe may join them (the registry decides), never replace one.
    const ids = report.checks.map((c) => c.id);
    expect(ids.slice(0, 2)).toEqual(['token', 'scheduleFilter']);
    expect(ids.filter((id) => DEMO_CHECKS.includes(id))).toEqual(DEMO_CHECKS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(report.checks.find((c) => c.id === 'read.listDatasets')).toEqual({ id: 'read.listDatasets', check: 'listDatasets can be read', status: 'ok', detail: 'listDatasets (first page): answered', fix: '' });
    // The first resource each kind collects: the scope's first dataset, the declared queue, data file and card first.
    const detail = (id: string) => report.checks.find((c) => c.id === id)?.detail;
    expect(report.checks.find((c) => c.id === 'read.dataset.getPdpPolicies')).toEqual({
      id: 'read.dataset.getPdpPolicies',
      check: 'getPdpPolicies can be read for one dataset',
      status: 'ok',
      detail: 'getPdpPolicies for dataset ds-0001 (its pdp): answered',
      fix: '',
    });
    expect(detail('read.queue.getQueuePermissions')).toBe('getQueuePermissions for queue q-finance-intake (its permissions): answered');
    expect(detail('read.dataFile.getDataFilePermissions')).toBe('getDataFilePermissions for data file 42 (its publicAccess): answered');
    expect(detail('read.card.getCardAccessList')).toBe('getCardAccessList for card 7001 (its access): answered');
    expect(detail('read.filesetFile.getFilesetAccess')).toBe('getFilesetAccess for file 3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/reports/q1.csv (its filesetAccess): answered');
    expect(report.ok).toBe(true);
    // Every selected kind's grant for a complete listing is named; only a refusing probe can check one.
    expect(report.grants).toEqual(expect.arrayContaining([
      { kind: 'reportSchedule', grant: 'content.admin', probed: true, held: null },
      { kind: 'dataset', grant: 'dataset.admin', probed: false, held: null },
      { kind: 'queue', grant: 'queue.admin', probed: false, held: null },
    ]));
    expect(sandbox.counts).toMatchObject({
      // The token probe, the filter probe, and the first page the card kind collects from.
      listReportSchedules: 3,
      getMisconfiguredReports: 1,
      // The grant probe, and the first page the workflow kind collects from.
      listWorkflowModels: 2,
      getCalculatedFieldStatistics: 1,
      // One per scope id: the first dataset's access list is the scope check's answer, kept by the client.
      getDatasetPermissions: 25,
      // One resource each: a dataset's and a card's certification, a dataset's row-level security
      // (its policies alone: not the directory whole its part joins), ...
      getCertificationStatus: 2,
      getPdpPolicies: 1,
      getCardAccessList: 1,
      getQueuePermissions: 1,
      getDataFilePermissions: 1,
      getFilesetAccess: 1,
      getWorkflowPermissions: 1,
      // The user probe's first page and the user discovery's, nothing more.
      searchUsers: 2,
      getFileByPath: 3,
      // The first listed group read by id (an owning group's state is a read of its own); the
      // list's first page is the group probe's, read once.
      getGroup: 1,
      listGroups: 1,
      // Each listing read once, whatever number of policies read it.
      listDatasets: 1,
      listQueues: 1,
      listDataFiles: 1,
      searchFilesets: 1,
      searchCards: 1,
      listCardSummaries: 1,
    });
    // Every request doctor made on the demo: 47 before the reads of one resource, 10 for them.
    expect(Object.values(sandbox.counts).reduce((a, b) => a + b, 0)).toBe(57);
    expect(report.policies.find((p) => p.id === 'certified-datasets-need-owner-group')?.operations).toEqual([
      'getDatasetPermissions',
      'getCertificationStatus',
    ]);
    // A card's owners are the search's and the admin summary's, each user against the directory, each group read.
    expect(report.policies.find((p) => p.id === 'cards-owner-active')?.operations).toEqual(['listReportSchedules', 'searchUsers', 'listCardSummaries', 'searchCards', 'getGroup']);
    // Live queues are judged on their live permissions: the policy may read them.
    expect(report.policies.find((p) => p.id === 'queue-no-admin-for-users')?.operations).toEqual(['getQueuePermissions']);
  });

  it('a refused listing that only owner parts read is missing, naming the grant of its kind and the policies it leaves in error: exit 3', async () => {
    sandbox.scriptFault('listDatasets', { status: 403, body: '' });
    const report = await doctor(live({ only: ['datasets-owner-active', 'certified-datasets-certification-current', 'datasets-have-an-owner'] }));
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([
      {
        id: 'read.listDatasets',
        check: 'listDatasets can be read',
        status: 'missing',
        detail: expect.stringMatching(/^listDatasets: .*403/),
        fix: "give the token's user access to it (dataset.admin), or leave the policies reading it out with --only",
        uncovered: ['datasets-owner-active', 'certified-datasets-certification-current'],
      },
    ]);
    expect(report.ok).toBe(false);
    expect(sandbox.counts.listDatasets).toBe(1);
  });

  it('an empty scope a selected policy reads is a warning naming the policies that would check nothing; still ok', async () => {
    const dir = tempDir('steward-doctor-empty-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [ds-0001] }\n');
    const report = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['datasets-have-an-owner', 'groups-have-members', 'groups-have-owners'] });
    expect(report.checks.filter((c) => c.status === 'warn').map((c) => [c.id, c.detail])).toEqual([
      ['empty.groups', 'scope.groups is empty: 2 selected policies check nothing (groups-have-members, groups-have-owners)'],
    ]);
    expect(report.ok).toBe(true);
  });

  it('names the admin grant and the Workflow API grant as missing, with what to do: exit 3', async () => {
    sandbox.configure({ adminGrant: false, workflowGrant: false });
    const r = await runCli(['doctor', '--config', 'demo/steward.yaml'], {
      env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
    });
    expect(r.code).toBe(3);
    const rows = r.stdout.split('\n');
    const row = (check: string) => rows.find((l) => l.startsWith(check)) ?? '';
    expect(row('report schedules can be listed with filter=ALL')).toMatch(/ missing +listReportSchedules: .*403 Forbidden/);
    expect(row('the Workflow API grant is held')).toMatch(/ missing +listWorkflowModels: .*403 Forbidden/);
    expect(r.stdout).toContain('→ give the token\'s user the content admin (content.admin) grant, or set instance.scheduleFilter: USER');
    expect(r.stdout).toContain("→ give the token's user the Workflow API grant (Admin › Roles › Grants)");
    // Each missing grant names the selected policies it leaves uncovered.
    expect(r.stdout).toContain('without it, in error (exit 3): workflows-are-named, workflows-owner-active');
    expect(row('base URL answers and the token is accepted')).toMatch(/ ok /);
    expect(r.stdout).toMatch(/\n2 checks not ok\n$/);
    expect(r.stdout).not.toContain(sandbox.token);

    const json = await runCli(['doctor', '--config', 'demo/steward.yaml', '--format', 'json'], {
      env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
    });
    const report = JSON.parse(json.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
    expect([json.code, report.ok]).toEqual([3, false]);
    expect(report.checks.filter((c) => c.status !== 'ok').map((c) => [c.id, c.status])).toEqual([
      ['scheduleFilter', 'missing'],
      ['workflowGrant', 'missing'],
    ]);
  });

  describe('the grants complete listings need, told from the token user’s role (instance.tokenId)', () => {
    const ONLY = ['datasets-have-an-owner', 'queue-no-admin-for-users', 'fileset-files-sha256', 'groups-have-owners'];
    const diagnose = (tokenId: number | null) => {
      const dir = tempDir('steward-doctor-grants-');
      const instance = tokenId === null ? '' : `instance: { tokenId: ${tokenId} }\n`;
      writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\n${instance}scope: { datasets: [ds-0001], queues: all, filesets: all, groups: all }\n`);
      return doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ONLY });
    };

    it('an Admin’s token: every grant the authorities list names is held; one it does not name is not told', async () => {
      // ci-deploy belongs to Ana Ruiz (7), an Admin: the Admin role holds dataset.admin, queue.admin and group.admin.
      const report = await diagnose(PLANTED_TOKENS.longLived);
      expect(report.checks.find((c) => c.id === 'grantsHeld')).toEqual({
        id: 'grantsHeld',
        check: "the token's user holds the grants complete listings need",
        status: 'ok',
        detail: 'user Ana Ruiz (7), role 1 holds dataset.admin, group.admin, queue.admin; not in the authorities list, so not told: fileset.admin',
        fix: '',
      });
      expect(report.grants).toEqual([
        { kind: 'dataset', grant: 'dataset.admin', probed: false, held: true },
        { kind: 'group', grant: 'group.admin', probed: false, held: true },
        { kind: 'filesetFile', grant: 'fileset.admin', probed: false, held: null },
        { kind: 'queue', grant: 'queue.admin', probed: false, held: true },
      ]);
      expect(report.ok).toBe(true);
      // The token list once (shared with the expiry check), the directory's two searches whole, the authorities once.
      expect(sandbox.counts).toMatchObject({ listAccessTokens: 1, searchUsers: 2, listAuthorities: 1 });
    });

    it('an Editor’s token: each grant its role lacks is missing (exit 3), naming the kinds that would judge a partial listing', async () => {
      const ben = sandbox.state.people.users.find((u) => u.id === PLANTED_PEOPLE.ben)!;
      ben.roleId = 3;
      const report = await diagnose(PLANTED_TOKENS.expired);
      expect(report.checks.find((c) => c.id === 'grantsHeld')).toMatchObject({
        status: 'missing',
        detail:
          'user Ben Okafor (9), role 3 lacks dataset.admin (dataset: 1 policy would judge only what the user can see), group.admin (group: 1 policy would judge only what the user can see), queue.admin (queue: 1 policy would judge only what the user can see); not in the authorities list, so not told: fileset.admin',
        fix: "give the token user's role those grants (Admin › Roles), or use a token of a user who holds them",
      });
      expect(report.grants.map((g) => g.held)).toEqual([false, false, null, false]);
      expect(report.ok).toBe(false);
      // The role gains the dataset grant: that kind is held, the others still missing.
      sandbox.state.people.roles.find((r) => r.id === 3)!.grants.push('dataset.admin');
      expect((await diagnose(PLANTED_TOKENS.expired)).grants.map((g) => [g.kind, g.held])).toEqual([['dataset', true], ['group', false], ['filesetFile', null], ['queue', false]]);
    });

    it('an authorities list or user search that cannot be trusted is refused (exit 3); a refused token list cannot tell (a warning)', async () => {
      sandbox.scriptFault('listAuthorities', { status: 200, body: JSON.stringify([{ authority: 'dataset.admin', adminLevel: 'yes', roleIds: [1] }]) });
      const drifted = await diagnose(PLANTED_TOKENS.longLived);
      expect(drifted.checks.find((c) => c.id === 'grantsHeld')).toMatchObject({ status: 'refused', detail: expect.stringContaining('listAuthorities: API drift at [0].adminLevel') });
      expect(drifted.grants.every((g) => g.held === null)).toBe(true);
      expect(drifted.ok).toBe(false);
      // One page of one of the two searches without its users list.
      sandbox.scriptFault('searchUsers', { status: 200, body: JSON.stringify({ count: 1 }) });
      const drift = await diagnose(PLANTED_TOKENS.longLived);
      expect(drift.checks.find((c) => c.id === 'grantsHeld')).toMatchObject({ status: 'refused', detail: expect.stringContaining('searchUsers: API drift at users') });
      expect(drift.ok).toBe(false);
      // Read once a run (the expiry check shares it): one answer refused.
      sandbox.scriptFault('listAccessTokens', { status: 403, body: '' });
      const refused = await diagnose(PLANTED_TOKENS.longLived);
      expect(refused.checks.find((c) => c.id === 'grantsHeld')).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^cannot be told: the access-token list was refused \(.*403.*\); the token user needs developer.token.manage$/) });
    });

    it('cannot be told without instance.tokenId (no check), or for a token the list does not hold (a warning)', async () => {
      const none = await diagnose(null);
      expect(none.checks.some((c) => c.id === 'grantsHeld')).toBe(false);
      expect(none.grants.every((g) => g.held === null)).toBe(true);
      expect(sandbox.counts.listAuthorities ?? 0).toBe(0);
      const gone = await diagnose(424242);
      expect(gone.checks.find((c) => c.id === 'grantsHeld')).toMatchObject({ status: 'warn', detail: 'cannot be told: access token 424242 (instance.tokenId) is not in the access-token list' });
      expect(gone.ok).toBe(true);
    });
  });

  it('a wrong token is refused after one request, and nothing else is probed', async () => {
    const report = await doctor(live({ token: 'wrong-token-123' }));
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ id: 'token', status: 'refused' });
    expect(report.checks[0].fix).toMatch(/^the token was refused: set STEWARD_TOKEN .* \(sent in X-SERVICE-Developer-Token; instance.tokenHeader/);
    expect(sandbox.totalRequests()).toBe(1);
  });

  it('names scope ids that do not exist, and reads a resource\'s own reads for the first one that does', async () => {
    const dir = copyDemo();
    const config = path.join(dir, 'steward.yaml');
    writeFileSync(config, 'policies: [builtin]\nscope:\n  datasets: [ds-gone-1, ds-scratch, ds-gone-2]\n  cards: [7001]\n');
    const report = await doctor({ config, cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['datasets-have-an-owner'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['token', 'ok'],
      ['scope.datasets', 'missing'],
      ['scope.cards', 'ok'],
      ['read.dataset.getDatasetPermissions', 'ok'],
    ]);
    expect(report.checks[1].detail).toMatch(/^2 of 3 could not be read: ds-gone-1, ds-gone-2 \(first: getDatasetPermissions: .*404 Not Found/);
    // Not the first named, which the scope's check found missing: the first it read, whose answer the client kept.
    expect(report.checks[3].detail).toBe('getDatasetPermissions for dataset ds-scratch (its access): answered');
    expect(sandbox.counts.getDatasetPermissions).toBe(3);
  });

  it('with `all`, probes the first page of the kind\'s listing, and reads the first listed resource\'s own reads', async () => {
    const dir = copyDemo();
    const config = path.join(dir, 'steward.yaml');
    writeFileSync(config, 'policies: [builtin]\nscope: { datasets: all, queues: all }\n');
    const report = await doctor({ config, cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['datasets-have-an-owner', 'queue-no-admin-for-users'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['token', 'ok'],
      ['discover.datasets', 'ok'],
      ['discover.queues', 'ok'],
      ['read.dataset.getDatasetPermissions', 'ok'],
      ['read.queue.getQueuePermissions', 'ok'],
    ]);
    // The first page each, read once: the resource's kind finds its first one in the page the discovery read.
    expect([sandbox.counts.listDatasets, sandbox.counts.listQueues, sandbox.counts.getDatasetPermissions, sandbox.counts.getQueuePermissions]).toEqual([1, 1, 1, 1]);
  });

  it('finds the first resource a kind collects in the first page of each listing behind it', async () => {
    // 1,050 schedules: 11 pages of the schedule list, which a card's collection reads whole in
    // check; 250 datasets: 5 pages of the dataset list (50 a page), planned from its total.
    const big = await startSandbox({ size: { schedules: 1050, datasets: 250 } });
    try {
      const dir = copyDemo();
      writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { cards: all, datasets: all }\n');
      const only = ['scheduled-cards-certification-current', 'datasets-have-an-owner'];
      const report = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: big.baseUrl, token: big.token, only });
      expect(report.checks.filter((c) => c.id.startsWith('read.') || c.id.startsWith('discover.')).map((c) => [c.id, c.status])).toEqual([
        ['discover.datasets', 'ok'],
        ['discover.cards', 'ok'],
        ['read.dataset.getDatasetPermissions', 'ok'],
        ['read.card.getCertificationStatus', 'ok'],
      ]);
      // The token probe's, the filter probe's, and the collection's first page; one card read.
      expect([big.counts.listReportSchedules, big.counts.getCertificationStatus]).toEqual([3, 1]);
      // The dataset list's first page, once: no page past it is asked for when none is read.
      expect([big.counts.listDatasets, big.counts.getDatasetPermissions]).toEqual([1, 1]);
    } finally {
      await big.close();
    }
  });

  it('a refused read of one resource is missing, naming the policies it leaves in error; one that cannot be trusted is refused: exit 3', async () => {
    sandbox.scriptFault('getPdpPolicies', { status: 403, body: '' });
    sandbox.scriptFault('getCardAccessList', { malformedJson: true });
    sandbox.scriptFault('getQueuePermissions', { status: 404, body: '' });
    const only = ['datasets-pdp-no-departed-users', 'datasets-have-an-owner', 'card-sharing-matches-manifest', 'queue-no-admin-for-users'];
    const report = await doctor(live({ only }));
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([
      {
        id: 'read.dataset.getPdpPolicies',
        check: 'getPdpPolicies can be read for one dataset',
        status: 'missing',
        detail: expect.stringMatching(/^getPdpPolicies: .*403/),
        fix: "give the token's user access to it (dataset.admin), or leave the policies reading it out with --only",
        uncovered: ['datasets-pdp-no-departed-users'],
      },
      {
        id: 'read.card.getCardAccessList',
        check: 'getCardAccessList can be read for one card',
        status: 'refused',
        detail: expect.stringMatching(/^getCardAccessList: API drift at \(body\): expected JSON/),
        fix: 'the answer is not one steward can trust (see the detail): check would end the same policies in error',
        uncovered: ['card-sharing-matches-manifest'],
      },
      {
        id: 'read.queue.getQueuePermissions',
        check: 'getQueuePermissions can be read for one queue',
        status: 'missing',
        detail: expect.stringMatching(/^getQueuePermissions: .*404/),
        fix: "give the token's user access to it (queue.admin), or leave the policies reading it out with --only",
        uncovered: ['queue-no-admin-for-users'],
      },
    ]);
    expect(report.ok).toBe(false);
    expect([sandbox.counts.getPdpPolicies, sandbox.counts.getCardAccessList, sandbox.counts.getQueuePermissions]).toEqual([1, 1, 1]);
  });

  it('a kind whose listing fails leaves its reads of one resource untried: not ok, with the listing\'s error', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { queues: all }\n');
    sandbox.scriptFault('listQueues', { status: 403, body: '' });
    const report = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['queue-no-admin-for-users'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['token', 'ok'],
      ['discover.queues', 'missing'],
      ['read.queue.getQueuePermissions', 'missing'],
    ]);
    expect(report.checks[2]).toMatchObject({ detail: expect.stringMatching(/^no queue could be collected to read it for: listQueues: .*403/), uncovered: ['queue-no-admin-for-users'] });
    // The discovery's first page, whose failure the client keeps: the kind's first page is that answer.
    expect([sandbox.counts.listQueues, sandbox.counts.getQueuePermissions]).toEqual([1, 0]);
  });

  it('a part the listing carried needs no read; a kind that collects nothing has nothing to read', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'tags.yaml'), `policies:\n  - { id: local-tagged, title: T, severity: low, resource: dataset, assert: "size(resource.tags) > 0" }\n  - { id: local-queue, title: Q, severity: low, resource: queue, assert: "size(resource.permissions) > 0" }\n`);
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [tags.yaml]\nscope: { datasets: all }\n');
    const report = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token });
    expect(report.checks.filter((c) => c.id.startsWith('read.')).map((c) => [c.id, c.status, c.detail, c.fix])).toEqual([
      ['read.dataset.getDataset', 'ok', expect.stringMatching(/^getDataset for dataset \S+: carried by its listing, no read$/), ''],
      ['read.queue.getQueuePermissions', 'ok', 'no queue in scope to read it for', ''],
    ]);
    expect(sandbox.counts.getDataset).toBe(0);
  });
});

/** Three policies of the test's own, each reading one part of a people kind. */
const READS_DIR = tempDir('steward-doctor-reads-');
writeFileSync(
  path.join(READS_DIR, 'reads.yaml'),
  `policies:
  - { id: local-members, title: M, severity: low, resource: group, each: resource.members, assert: "item.state == 'active'" }
  - { id: local-account-owner, title: O, severity: low, resource: account, assert: "resource.owner == null || resource.owner.state == 'active'" }
  - { id: local-user-role, title: R, severity: low, resource: user, assert: '!resource.role.system' }
`,
);

describe('the reads each policy makes (what doctor probes for it)', () => {
  it("a kind's listing, and each part a policy reads with the reads behind it: the user directory for people's states", async () => {
    const policies = await loadCompiledPolicies(['builtin', 'reads.yaml'], { kinds: RESOURCE_KINDS, cwd: READS_DIR });
    const ops = (id: string) => operationsOf(policies.find((p) => p.id === id)!, null).sort();
    expect(ops('users-not-dormant')).toEqual(['searchUsers']);
    expect(ops('custom-roles-no-admin-grants')).toEqual(['getRoleAuthorities', 'listAuthorities', 'listRoles']);
    expect(ops('admins-at-most')).toEqual(['listRoleUsers', 'listRoles', 'searchUsers']);
    expect(ops('access-tokens-owner-active')).toEqual(['listAccessTokens', 'searchUsers']);
    expect(ops('local-members')).toEqual(['getGroupUsers', 'listGroups', 'searchUsers']);
    expect(ops('local-account-owner')).toEqual(['listAccounts', 'searchUsers']);
    expect(ops('local-user-role')).toEqual(['listRoles', 'searchUsers']);
    // A dataset's row-level security: its policies, joined with its access list and the directory.
    expect(ops('datasets-pdp-no-departed-users')).toEqual(['getDatasetPermissions', 'getPdpPolicies', 'searchUsers']);
    // A dataset's reach: its access list, and the group list for each shared group's members.
    expect(ops('datasets-pdp-where-wide')).toEqual(['getCertificationStatus', 'getDatasetPermissions', 'getPdpPolicies', 'listGroups', 'searchUsers']);
    // Every owner of a group or a page: its listing, a user's state from the directory, a group's from the group.
    expect(ops('groups-owner-active')).toEqual(['getGroup', 'listGroups', 'searchUsers']);
    expect(ops('pages-owner-active')).toEqual(['getGroup', 'listPages', 'searchUsers']);
  });
});
