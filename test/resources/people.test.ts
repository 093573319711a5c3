// The `owner` part of the content kinds over HTTP on the demo instance: each owner resolved
// against the one user directory (the live and the deleted listings, read once), a group owner
// without a state, and an item its kind's listing does not carry an error, never a pass.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdentityUser } from '../../src/api/types.js';
import { check } from '../../src/index.js';
import type { Report } from '../../src/core/model.js';
import { directoryUser, ownersListDrift, resolveOwner, userOwner } from '../../src/resources/people.js';
import { PLANTED_SHARE_GROUPS } from '../../src/sandbox/demo.js';
import { PLANTED_GROUPS, PLANTED_PEOPLE } from '../../src/sandbox/demo-people.js';
import { PLANTED_PAGES } from '../../src/sandbox/demo-sharing.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { REPO, tempDir } from '../cli/helpers.js';
import { captured } from '../fixtures/captured.js';

const OWNER_POLICIES = ['datasets-owner-active', 'data-files-owner-active', 'queues-owner-active', 'workflows-owner-active', 'cards-owner-active', 'report-schedules-owner-active', 'fileset-files-owner-active'];

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const run = (only = OWNER_POLICIES): Promise<Report> =>
  check({ config: 'demo/steward.yaml', cwd: REPO, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only });

describe('owner liveness on content', () => {
  it('resolves each content owner to a user with a state, in the JSON report, reading every listing once', async () => {
    const report = await run();
    expect(report.summary.errors).toBe(0);
    const dataset = report.findings.find((f) => f.policy === 'datasets-owner-active')!;
    expect(dataset.resource).toEqual({ kind: 'dataset', id: 'ds-hr-certified', name: null });
    expect(dataset.owner).toEqual({ type: 'USER', id: '31', name: 'Eva Novak', email: 'eva.novak@example.com', state: 'deactivated' });
    const workflow = report.findings.find((f) => f.policy === 'workflows-owner-active')!;
    expect(workflow.owner).toMatchObject({ id: '77', name: 'Jo Park', state: 'deleted' });
    // One directory (two searches) for seven kinds; each kind's listing once, whatever its size.
    expect(sandbox.counts).toMatchObject({ searchUsers: 2, listDatasets: 1, listDataFiles: 1, listQueues: 1, searchCards: 1, searchFilesets: 1, listReportSchedules: 1 });
  });

  it('a card is judged by every owner the card search or the card admin summary names: a co-owner who left, named by the summary alone, is caught', async () => {
    const cardOwners = sandbox.state.people.owners.cards;
    // The sandbox's summary with `extra` owners after each card's own (101 where none is planted).
    const summary = (extra: Record<string, { id: string; type: string }[]>) =>
      JSON.stringify({ cardAdminSummaries: [...sandbox.state.cards].map((id) => ({ id: Number(id), owners: [{ id: String(cardOwners.get(id) ?? 101), type: 'USER' }, ...(extra[id] ?? [])] })) });
    sandbox.scriptFault('listCardSummaries', { status: 200, body: summary({ '7002': [{ id: String(PLANTED_PEOPLE.jo), type: 'USER' }] }) });
    const report = await run(['cards-owner-active']);
    expect(report.summary.errors).toBe(0);
    expect(report.findings.map((f) => [f.resource.id, f.message]).sort()).toEqual([
      ['7001', 'Card 7001 has owners who are not active: ["Eva Novak (31): deactivated"]'],
      ['7002', 'Card 7002 has owners who are not active: ["Jo Park (77): deleted"]'],
    ]);
    // Each source read once, whole.
    expect(sandbox.counts).toMatchObject({ searchCards: 1, listCardSummaries: 1, searchUsers: 2 });
    // A summary naming another owner than the search's (Ana for 7001, where the search still names
    // Eva): the search's is judged all the same, and the finding goes to Ana, the active one.
    const summaryOwner = (id: string) => (id === '7001' ? PLANTED_PEOPLE.ana : (cardOwners.get(id) ?? 101));
    sandbox.scriptFault('listCardSummaries', { status: 200, body: JSON.stringify({ cardAdminSummaries: [...sandbox.state.cards].map((id) => ({ id: Number(id), owners: [{ id: String(summaryOwner(id)), type: 'USER' }] })) }) });
    const again = await run(['cards-owner-active']);
    expect(again.findings.map((f) => [f.resource.id, f.message, f.owner?.id])).toEqual([['7001', 'Card 7001 has owners who are not active: ["Eva Novak (31): deactivated"]', String(PLANTED_PEOPLE.ana)]]);
    // The summary listing the search's owner again, after others, and a group: each owner once, the group by its own state.
    const sales = { id: String(PLANTED_SHARE_GROUPS.salesAnalysts), type: 'GROUP' };
    sandbox.scriptFault('listCardSummaries', { status: 200, body: summary({ '7001': [{ id: String(PLANTED_PEOPLE.jo), type: 'USER' }, { id: String(PLANTED_PEOPLE.eva), type: 'USER' }, sales] }) });
    const listed = await run(['cards-owner-active']);
    expect(listed.findings.map((f) => [f.resource.id, f.message])).toEqual([['7001', 'Card 7001 has owners who are not active: ["Eva Novak (31): deactivated","Jo Park (77): deleted"]']]);
  });

  it('a group owner passes without a state: the dataset owned by a group is judged, not caught', async () => {
    const report = await run(['datasets-owner-active']);
    expect(report.findings.map((f) => f.resource.id)).toEqual(['ds-hr-certified']);
    expect(report.policies[0].evaluated).toBe(25);
  });

  it('an owner id in neither user listing is unknown: caught, never taken for a live user', async () => {
    sandbox.state.people.users = sandbox.state.people.users.filter((u) => u.id !== 7);
    const report = await run(['queues-owner-active']);
    // The planted queue owners are still listed users; a queue handed to the removed user 7 is then unknown.
    const hr = report.findings.find((f) => f.resource.id === 'q-hr-requests')!;
    expect(hr.owner?.state).toBe('deactivated');
    sandbox.state.people.owners.queues.set('q-marketing', '7');
    const again = await run(['queues-owner-active']);
    expect(again.findings.find((f) => f.resource.id === 'q-marketing')?.owner).toEqual({ type: 'USER', id: '7', name: null, email: null, state: 'unknown' });
  });

  it('a content item its listing does not carry is an error of the owner policy for that item only (exit 3)', async () => {
    sandbox.state.dataFiles.delete('43');
    const report = await run(['data-files-owner-active']);
    expect(report.summary.gate).toBe('error');
    const errors = report.findings.filter((f) => f.status === 'error');
    expect(errors.map((f) => [f.resource.id, f.message])).toEqual([['43', expect.stringContaining('listDataFiles: data file 43 is not in the listing, so its owner is unknown')]]);
    expect(report.policies[0].evaluated).toBe(2);
  });

  it('a listing whose owner field is missing is API drift for that item, not an owner-less pass', async () => {
    sandbox.scriptFault('listQueues', { status: 200, body: JSON.stringify([{ id: 'q-hr-requests', name: 'HR' }, { id: 'q-marketing', name: 'M', owner: '7' }]) });
    const report = await run(['queues-owner-active']);
    expect(report.summary.gate).toBe('error');
    const messages = report.findings.filter((f) => f.status === 'error').map((f) => `${f.resource.id}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/^q-hr-requests: .*listQueues: queue q-hr-requests carries no owner, so its owner is unknown/)]));
  });
});

describe('a dataset owner as the listing carries it (part=core: id, type, group)', () => {
  it('type and group disagreeing is drift for that dataset, never a group owner that passes', async () => {
    const item = (id: string, owner: unknown) => ({ id, name: id, owner, tags: '[]' });
    sandbox.scriptFault('listDatasets', {
      status: 200,
      body: JSON.stringify({
        _metaData: { totalCount: 3 },
        dataSources: [
          item('ds-hr-certified', { id: '31', name: 'Eva Novak', type: 'USER', group: true }),
          item('ds-sales-certified', { id: 'g-88', name: 'Finance', type: 'GROUP', group: false }),
          item('ds-finance-certified', { id: '31', name: 'Eva Novak', type: 'USER', group: false }),
        ],
      }),
    });
    const dir = tempDir('steward-dataset-owner-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\nscope: { datasets: [ds-hr-certified, ds-sales-certified, ds-finance-certified] }\n');
    const report = await check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['datasets-owner-active'] });
    expect(report.findings.map((f) => [f.resource.id, f.status, f.message]).sort()).toEqual([
      ['ds-finance-certified', 'violation', 'Dataset ds-finance-certified is owned by Eva Novak (31), who is deactivated'],
      ['ds-hr-certified', 'error', 'could not read dataset ds-hr-certified: listDatasets: API drift at owner of dataset ds-hr-certified: type USER with group true, so its owner is unknown'],
      ['ds-sales-certified', 'error', 'could not read dataset ds-sales-certified: listDatasets: API drift at owner of dataset ds-sales-certified: type GROUP with group false, so its owner is unknown'],
    ]);
  });
});

describe('every owner of a group or a page (resolvedOwners)', () => {
  it('a departed co-owner listed after an active one is caught; before, the first owner alone was judged and the group passed', async () => {
    const sales = sandbox.state.people.groups.find((g) => g.groupId === PLANTED_SHARE_GROUPS.salesAnalysts)!;
    sales.owners.push({ type: 'USER', id: String(PLANTED_PEOPLE.eva), displayName: 'Eva Novak' });
    // A page owned by an active user, then by one in no user listing.
    sandbox.state.sharing.pages.find((p) => p.pageId === PLANTED_PAGES.team)!.ownerIds.push(4040);
    const report = await run(['groups-owner-active', 'pages-owner-active']);
    expect(report.summary.errors).toBe(0);
    expect(report.findings.map((f) => [f.policy, f.resource.id, f.message]).sort()).toEqual([
      ['groups-owner-active', '304', 'Group Sales Analysts (304) has owners who are not active: ["Eva Novak (31): deactivated"]'],
      ['groups-owner-active', '307', 'Group Legacy Reporting (307) has owners who are not active: ["Jo Park (77): deleted"]'],
      ['pages-owner-active', '8002', 'Page Team Home (8002) has owners who are not active: ["4040: unknown"]'],
      ['pages-owner-active', '8003', 'Page Old Launch Plan (8003) has owners who are not active: ["Eva Novak (31): deactivated"]'],
    ]);
    // The finding is routed to the first owner, who can act on it.
    expect(report.findings.find((f) => f.resource.id === '304')!.owner).toMatchObject({ id: String(PLANTED_PEOPLE.ana), state: 'active' });
    // Owners come with the listings and their states from the one directory: nothing read per resource.
    // The one group owner (the council, owning itself) read once; the rest come with the listings and the one directory.
    expect(sandbox.counts).toMatchObject({ searchUsers: 2, listGroups: 1, listPages: 1, getGroup: 1 });
    expect(sandbox.totalRequests()).toBe(5);
  });

  it('a finding goes to the first owner who is active: a departed first owner routes it to an active co-owner, none active to the first', async () => {
    const legacy = sandbox.state.people.groups.find((g) => g.groupId === PLANTED_GROUPS.departedOwner)!;
    legacy.owners.push({ type: 'USER', id: String(PLANTED_PEOPLE.ana), displayName: 'Ana' });
    const sales = sandbox.state.people.groups.find((g) => g.groupId === PLANTED_SHARE_GROUPS.salesAnalysts)!;
    sales.owners.unshift({ type: 'USER', id: String(PLANTED_PEOPLE.eva), displayName: 'Eva Novak' });
    const report = await run(['groups-owner-active']);
    expect(report.findings.map((f) => [f.resource.id, f.owner?.id, f.owner?.state]).sort()).toEqual([
      ['304', String(PLANTED_PEOPLE.ana), 'active'],
      ['307', String(PLANTED_PEOPLE.ana), 'active'],
    ]);
    // Nobody active: the first owner, whose state says why nobody can act.
    legacy.owners.pop();
    const alone = await run(['groups-owner-active']);
    expect(alone.findings.find((f) => f.resource.id === '307')!.owner).toMatchObject({ id: '77', state: 'deleted' });
  });

  it('a group owned by a group since deleted is caught; each owning group is read once a run, however many groups it owns', async () => {
    const groups = sandbox.state.people.groups;
    groups.push({ groupId: 330, name: 'Steering Committee', groupType: 'closed', owners: [], members: [], created: '2023-06-08 20:59:05.0', deleted: true });
    const steering = { type: 'GROUP' as const, id: '330', displayName: 'Steering Committee' };
    for (const id of [PLANTED_GROUPS.selfOwned, PLANTED_SHARE_GROUPS.salesAnalysts]) groups.find((g) => g.groupId === id)!.owners.push(steering);
    const report = await run(['groups-owner-active']);
    expect(report.summary.errors).toBe(0);
    const deleted = '"Steering Committee_deleted_7ece7d46-48ef-11ee-b1a1-000000000330 (330): deleted"';
    expect(report.findings.map((f) => [f.resource.id, f.message]).sort()).toEqual([
      ['303', `Group Data Stewards Council (303) has owners who are not active: [${deleted}]`],
      ['304', `Group Sales Analysts (304) has owners who are not active: [${deleted}]`],
      ['307', 'Group Legacy Reporting (307) has owners who are not active: ["Jo Park (77): deleted"]'],
    ]);
    // Group 330 is in no group list (deleted), so it is judged only as an owner.
    expect(sandbox.counts).toMatchObject({ searchUsers: 2, listGroups: 1, getGroup: 2 });
    expect(sandbox.totalRequests()).toBe(5);
  });

  it('an owning group the instance does not have (404) is that group\'s error, never a pass', async () => {
    sandbox.state.people.groups.find((g) => g.groupId === PLANTED_SHARE_GROUPS.salesAnalysts)!.owners.push({ type: 'GROUP', id: '999', displayName: null });
    const report = await run(['groups-owner-active']);
    expect(report.summary.gate).toBe('error');
    expect(report.findings.filter((f) => f.status === 'error').map((f) => [f.resource.id, f.message.replace(/ \(trace id [^)]*\)/, '')])).toEqual([
      ['304', expect.stringMatching(/^could not read group 304: getGroup: \[GET\] "\/api\/content\/v2\/groups\/999": 404 Not Found/)],
    ]);
  });

  it('resolvedOwners is typed as a list of owners: comparing it, or an owner, with a number is a load error before any request', async () => {
    const dir = tempDir('steward-resolved-owners-');
    for (const [assert, column, said] of [
      ['resource.resolvedOwners > 1', 14, 'cannot compare list with int'],
      ["resource.resolvedOwners.exists(o, o.state > 1)", 48, 'cannot compare string or null with int'],
    ] as const) {
      writeFileSync(path.join(dir, 'owners.yaml'), `policies:\n  - id: owners-typed\n    title: T\n    severity: low\n    resource: group\n    assert: ${JSON.stringify(assert)}\n`);
      writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [owners.yaml]\nscope: { groups: all }\n');
      const checking = check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token });
      await expect(checking).rejects.toThrow(new RegExp(`owners\\.yaml:6:${column}: type error: ${said}`));
    }
    expect(sandbox.totalRequests()).toBe(0);
  });

  it("a page summary whose ownerId is not its first owner leaves every owner unknown: that page's error, never a pass", async () => {
    const team = sandbox.state.sharing.pages.find((p) => p.pageId === PLANTED_PAGES.team)!;
    team.ownerIds = [PLANTED_PEOPLE.ana, PLANTED_PEOPLE.ben];
    sandbox.scriptFault('listPages', {
      status: 200,
      body: JSON.stringify({ pageAdminSummaries: [{ pageId: team.pageId, pageTitle: team.title, ownerId: PLANTED_PEOPLE.ben, owners: team.ownerIds.map((id) => ({ id, type: 'USER', displayName: null })) }] }),
    });
    const report = await run(['pages-owner-active']);
    expect(report.findings.map((f) => [f.resource.id, f.status, f.message])).toEqual([
      ['8002', 'error', `could not read page 8002: listPages: API drift at ownerId of page 8002: ${PLANTED_PEOPLE.ben} is not its first owner (USER ${PLANTED_PEOPLE.ana}), so its owner is unknown`],
    ]);
  });
});

const searched = captured<{ users: IdentityUser[] }>('users-identity-search').users[0]!;
/** The captured user with `attributes` over its own (by key) and `top` over its top-level fields. */
const user = (attributes: Record<string, unknown>, top: Partial<IdentityUser> = {}): IdentityUser => ({
  ...searched,
  attributes: searched.attributes.map((a) => (a.key in attributes ? { key: a.key, values: [attributes[a.key]] } : a)),
  ...top,
});

describe('a user as the identity search says it (the captured answer, PLATFORM.md §8)', () => {
  it('every field read from the answer: the top-level names first, epoch milliseconds kept', () => {
    expect(directoryUser(user({ isActive: true, isSystemUser: true }, { displayName: 'Ana Ruiz', emailAddress: 'ana@example.com', roleId: 3 }), false)).toEqual({
      id: '1234', name: 'Ana Ruiz', email: 'ana@example.com', roleId: 3, state: 'active', systemUser: true,
      created: 1735689600000, lastLogin: 1735689600000, lastActivity: 1735689600000,
    });
  });

  it('a search that answers attributes alone (no top-level name, email or role) is read from them; an empty name is none', () => {
    const bare = user({ isActive: true, displayName: 'From Attribute', emailAddress: 'attr@example.com', roleId: 5 }, { displayName: '', emailAddress: undefined, roleId: undefined });
    expect(directoryUser(bare, false)).toMatchObject({ name: 'From Attribute', email: 'attr@example.com', roleId: 5, systemUser: false });
    const nothing = user({ isActive: true, displayName: '', emailAddress: 7, roleId: 'Admin' }, { displayName: undefined, emailAddress: undefined, roleId: undefined });
    expect(directoryUser(nothing, false)).toMatchObject({ name: null, email: null, roleId: null });
    // An attribute listed without a value is none.
    const empty = { ...searched, attributes: [...searched.attributes.filter((a) => a.key !== 'lastLogin'), { key: 'lastLogin', values: [] }] };
    expect(directoryUser(empty, false).lastLogin).toBeNull();
  });

  it('the state by USER_STATE_RULE, and a live user without booleans for it is drift, never a guess', () => {
    const state = (isActive: unknown, isPending: unknown, deleted = false) => directoryUser(user({ isActive, isPending }), deleted).state;
    expect([state(true, false), state(true, true), state(false, true), state(false, false), state('yes', null, true)]).toEqual(['active', 'pending', 'pending', 'deactivated', 'deleted']);
    expect(() => state(null, false)).toThrow('searchUsers: API drift at user 1234: isActive is null, not a boolean: the user\'s state is unknown');
    expect(() => state(true, 'no')).toThrow('searchUsers: API drift at user 1234: isPending is "no", not a boolean: the user\'s state is unknown');
  });
});

describe('owner ids as listings carry them', () => {
  it('a number or a non-empty string is a user; null names none; anything else leaves the owner unknown', () => {
    expect(userOwner(7, 'listAccounts: account 1')).toEqual({ type: 'USER', id: '7' });
    expect(userOwner('31', 'listAccounts: account 1')).toEqual({ type: 'USER', id: '31' });
    expect(userOwner(null, 'listAccounts: account 1')).toBeNull();
    expect(() => userOwner(undefined, 'listAccounts: account 1', 'userId')).toThrow('listAccounts: account 1 carries no userId, so its owner is unknown');
    for (const value of ['', 1.5, 2 ** 53, true, { id: 7 }]) {
      expect(() => userOwner(value, 'listAccounts: account 1'), JSON.stringify(value)).toThrow(`listAccounts: account 1: the owner ${JSON.stringify(value)} is not a user id: the owner is unknown`);
    }
  });

  it('an owners list that is absent or null is drift, an empty one is none', () => {
    expect(ownersListDrift('listGroups', 'group 301', [])).toBeUndefined();
    expect(ownersListDrift('listGroups', 'group 301', null)?.message).toBe('listGroups: API drift at owners of group 301: null, so its owners are unknown');
    expect(ownersListDrift('listGroups', 'group 301', undefined)?.message).toBe('listGroups: API drift at owners of group 301: missing, so its owners are unknown');
  });

  it('an owner resolved: a group has no state, a user the directory lacks is unknown', () => {
    const directory = new Map([['7', directoryUser(user({ isActive: true }, { id: 7, displayName: 'Ana' }), false)]]);
    expect(resolveOwner(directory, { type: 'USER', id: '7' })).toEqual({ type: 'USER', id: '7', name: 'Ana', email: '<string>', state: 'active' });
    expect(resolveOwner(directory, { type: 'USER', id: '8' })).toEqual({ type: 'USER', id: '8', name: null, email: null, state: 'unknown' });
    expect(resolveOwner(directory, { type: 'GROUP', id: '7' })).toEqual({ type: 'GROUP', id: '7', name: null, email: null, state: null });
    expect(resolveOwner(directory, null)).toBeNull();
  });
});
