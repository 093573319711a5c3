// The identity reads on the platform's real answers (../shared/platform-fixtures, each with its
// public source), served verbatim with the real token header (X-DOMO-Developer-Token): every new
// kind discovered with `all`, every identity policy evaluated with 0 errors and exactly the
// findings the captured answers hold, at one request per listing; and what the answers could
// say that steward must not take for a pass (a state it cannot read, an owner no listing has).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import type { Report } from '../../src/core/model.js';
import { check, doctor } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { findingKeys, tempDir } from '../cli/helpers.js';
import { captured, REAL_TOKEN_HEADER } from '../fixtures/captured.js';


interface SearchAnswer {
  count: number;
  users: { id: number; attributes: { key: string; values: unknown[] }[] }[];
}
const SEARCH = captured<SearchAnswer>('users-identity-search');
// The captured search asked for one user of 233 (limit 1): served whole, the count is what it lists.
const LIVE_USERS = { ...SEARCH, count: SEARCH.users.length };
const ROLES = captured<{ id: number; name: string }[]>('roles-list');
const GRANTS = captured<string[]>('role-authorities');
const AUTHORITIES = captured<{ authority: string; adminLevel: boolean }[]>('authorities-list');
const HOLDERS = captured<{ users: unknown[] }>('role-users');
const GROUPS = captured<{ groupId: number; owners: unknown[] }[]>('groups-grouplist');
// The captured group answer is a deleted group's (`active: false`); group 17, which owns itself,
// answers in its shape as a live group: its id and name, `active: true`.
const DELETED_GROUP = captured<{ id: number; name: string; active: boolean }>('group-get');
const GROUP_17 = { ...DELETED_GROUP, id: GROUPS[0]!.groupId, name: 'Group 17', active: true };
const TOKENS = captured<{ list: { id: number; ownerId: number }[] }>('access-tokens-live').list;
const CUSTOM_ROLES = ROLES.filter((r) => r.id > 5);

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ tokenHeader: REAL_TOKEN_HEADER });
});
afterEach(() => sandbox.close());

/** Each operation's next answers are the captured bodies, verbatim (the sandbox's own state is not read). */
function serve(answers: Partial<Record<OperationId, unknown[]>>): void {
  for (const [op, bodies] of Object.entries(answers)) {
    for (const body of bodies!) sandbox.scriptFault(op as OperationId, { status: 200, body: JSON.stringify(body) });
  }
}

function serveCaptured(over: Partial<Record<OperationId, unknown[]>> = {}): void {
  serve({
    searchUsers: [LIVE_USERS, { count: 0, users: [] }],
    listGroups: [GROUPS],
    getGroup: [GROUP_17],
    listRoles: [ROLES],
    // Only the custom roles' grants are read (the policy selects on `system` first).
    getRoleAuthorities: CUSTOM_ROLES.map(() => GRANTS),
    listAuthorities: [AUTHORITIES],
    listRoleUsers: [HOLDERS],
    listAccessTokens: [TOKENS],
    ...over,
  });
}

const ONLY = [
  'custom-roles-no-admin-grants',
  'admins-at-most',
  'access-tokens-short-lived',
  'access-tokens-not-expired',
  'access-tokens-owner-active',
  'groups-have-members',
  'groups-have-owners',
  'groups-owner-active',
  'users-not-dormant',
  'invitations-not-stale',
];

async function run(scope = 'users: all, groups: all, roles: all, accessTokens: all'): Promise<Report> {
  const dir = tempDir('steward-identity-');
  writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenHeader: ${REAL_TOKEN_HEADER} }\nscope: { ${scope} }\n`);
  return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ONLY });
}

const errorsOf = (report: Report) => [
  ...report.policies.filter((p) => p.status === 'error').map((p) => `${p.id}: ${p.error}`),
  ...report.findings.filter((f) => f.status === 'error').map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id}: ${f.message}`),
];
const evaluated = (report: Report) => Object.fromEntries(report.policies.map((p) => [p.id, p.evaluated]));

describe('the identity policies on the platform’s captured answers', () => {
  it('every kind discovered with all, 0 errors, exactly the findings the answers hold, one request per read', async () => {
    serveCaptured();
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    expect(evaluated(report)).toEqual({
      'custom-roles-no-admin-grants': CUSTOM_ROLES.length,
      'admins-at-most': 1,
      'access-tokens-short-lived': TOKENS.length,
      'access-tokens-not-expired': TOKENS.length,
      'access-tokens-owner-active': TOKENS.length,
      'groups-have-members': GROUPS.length,
      'groups-have-owners': GROUPS.length,
      'groups-owner-active': GROUPS.length,
      // The captured user is deactivated (isActive false): neither dormant nor pending.
      'users-not-dormant': 0,
      'invitations-not-stale': 0,
    });
    expect(findingKeys(report)).toEqual(
      [
        // The captured grants (the Admin role's) hold *.admin grants: every custom role given them is caught.
        ...CUSTOM_ROLES.map((r) => `custom-roles-no-admin-grants role/${r.id}`),
        // Both captured tokens expired in June 2024, and their owner is in no user listing served.
        ...TOKENS.map((t) => `access-tokens-not-expired accessToken/${t.id}`),
        ...TOKENS.map((t) => `access-tokens-owner-active accessToken/${t.id}`),
        // The second captured group is owned by user 2456, in no user listing served (the first owns itself).
        `groups-owner-active group/${GROUPS[1]!.groupId}`,
      ].sort(),
    );
    const tokenOwner = report.findings.find((f) => f.policy === 'access-tokens-owner-active')!;
    expect(tokenOwner.owner).toEqual({ type: 'USER', id: String(TOKENS[0].ownerId), name: null, email: null, state: 'unknown' });
    // Owners on every finding, from the captured answers: roles have none, and say so.
    expect(report.findings.filter((f) => f.resource.kind === 'role').map((f) => [f.owner, f.ownerUnknown])).toEqual(
      CUSTOM_ROLES.map(() => [null, "a role belongs to the instance, not to a person: route it with the config's owners: map"]),
    );
    expect(report.findings.filter((f) => f.resource.kind === 'accessToken').every((f) => f.owner?.state === 'unknown')).toBe(true);
    // Every listing once (the users twice: live, deleted); grants of the custom roles only; holders of Admin only.
    expect(sandbox.counts).toMatchObject({
      searchUsers: 2,
      listGroups: 1,
      listRoles: 1,
      getRoleAuthorities: CUSTOM_ROLES.length,
      listAuthorities: 1,
      listRoleUsers: 1,
      listAccessTokens: 1,
      getGroupUsers: 0,
      // Group 17 owns itself: its state read once.
      getGroup: 1,
    });
    expect(sandbox.totalRequests()).toBe(2 + 1 + 1 + 1 + CUSTOM_ROLES.length + 1 + 1 + 1);
    // The captured Admin grants the authorities list marks admin-level, and every *.admin one, in the role's order.
    const level = new Map(AUTHORITIES.map((a) => [a.authority, a.adminLevel]));
    const admin = GRANTS.filter((g) => level.get(g) === true || g.endsWith('.admin'));
    expect(admin).toEqual(expect.arrayContaining(['authorization.roles', 'user.edit', 'developer.token.manage', 'customer.edit', 'workflow.admin']));
    expect(report.findings.find((f) => f.policy === 'custom-roles-no-admin-grants')!.message).toBe(
      `Custom role ${CUSTOM_ROLES[0].name} (${CUSTOM_ROLES[0].id}) holds admin grants ${JSON.stringify(admin)}`,
    );
  });

  it('a group owned by the captured deleted group (active: false, served verbatim) is caught, the owner named as the answer names it', async () => {
    // Group 18 owned by the captured group instead of user 2456; group 17 left out.
    const owned = { ...GROUPS[1]!, owners: [{ type: 'GROUP', id: String(DELETED_GROUP.id), displayName: 'Group 19' }] };
    serveCaptured({ listGroups: [[owned]], getGroup: [DELETED_GROUP] });
    const report = await run('groups: all');
    expect(errorsOf(report)).toEqual([]);
    expect(report.findings.filter((f) => f.policy === 'groups-owner-active').map((f) => f.message)).toEqual([
      `Group Group 18 (${owned.groupId}) has owners who are not active: ["${DELETED_GROUP.name} (${DELETED_GROUP.id}): deleted"]`,
    ]);
    expect(sandbox.counts.getGroup).toBe(1);
  });

  it('a group answer without its active flag is drift: that group\'s error (exit 3), never a live owner', async () => {
    const { active: _gone, ...withoutActive } = GROUP_17;
    serveCaptured({ getGroup: [withoutActive] });
    const report = await run('groups: all');
    expect(report.summary.gate).toBe('error');
    expect(report.findings.filter((f) => f.status === 'error').map((f) => [f.policy, f.resource.id, f.message])).toEqual([
      ['groups-owner-active', String(GROUPS[0]!.groupId), `could not read group ${GROUPS[0]!.groupId}: getGroup: API drift at active: missing ([GET] "/api/content/v2/groups/${GROUPS[0]!.groupId}")`],
    ]);
  });

  it('an answer about another group than the one asked for is drift: that group\'s error (exit 3), never its owner\'s state', async () => {
    serveCaptured({ getGroup: [DELETED_GROUP] });
    const report = await run('groups: all');
    expect(report.summary.gate).toBe('error');
    expect(report.findings.filter((f) => f.status === 'error').map((f) => [f.policy, f.resource.id, f.message])).toEqual([
      ['groups-owner-active', String(GROUPS[0]!.groupId), `could not read group ${GROUPS[0]!.groupId}: getGroup: API drift: asked for group ${GROUPS[0]!.groupId}, answered about group ${DELETED_GROUP.id}, so the owner's state is unknown`],
    ]);
  });

  describe('doctor reads the first listed group by id, as the owner policies will', () => {
    const diagnose = async () => {
      const dir = tempDir('steward-identity-doctor-group-');
      writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenHeader: ${REAL_TOKEN_HEADER} }\nscope: { groups: all }\n`);
      const diagnosis = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['groups-have-owners', 'groups-owner-active'] });
      return diagnosis.checks.find((c) => c.id === 'groupRead');
    };

    it('the captured list and group 17 in the captured answer\'s shape: ok, one read each', async () => {
      serve({ listGroups: [GROUPS], getGroup: [GROUP_17] });
      expect(await diagnose()).toMatchObject({ status: 'ok', check: "a group can be read by id (an owning group's state)", detail: 'GET the first listed group by its id: answered' });
      expect(sandbox.counts).toMatchObject({ listGroups: 1, getGroup: 1 });
    });

    it('refused (403, or 404 as for a group the user may not see): missing, naming the grant and the policy it leaves in error', async () => {
      for (const status of [403, 404]) {
        serve({ listGroups: [GROUPS] });
        sandbox.scriptFault('getGroup', { status, body: '' });
        expect(await diagnose()).toMatchObject({ status: 'missing', fix: expect.stringContaining('group.admin'), uncovered: ['groups-owner-active'] });
      }
    });

    it('the captured deleted group answering for group 17: drift, refused, never ok', async () => {
      serve({ listGroups: [GROUPS], getGroup: [DELETED_GROUP] });
      expect(await diagnose()).toMatchObject({
        status: 'refused',
        detail: `getGroup: API drift: asked for group ${GROUPS[0]!.groupId}, answered about group ${DELETED_GROUP.id}, so the owner's state is unknown`,
        fix: expect.stringContaining('did not answer as the platform does'),
        uncovered: ['groups-owner-active'],
      });
    });
  });

  it('a custom role holding only grants the authorities list marks admin-level, none named *.admin, is caught', async () => {
    // `authorization.roles`: "Create, edit and delete custom roles. Assign anyone to any role" (the captured list).
    serveCaptured({ getRoleAuthorities: CUSTOM_ROLES.map(() => ['content.card.edit', 'authorization.roles', 'user.edit']) });
    const report = await run('roles: all');
    expect(errorsOf(report)).toEqual([]);
    expect(report.findings.filter((f) => f.policy === 'custom-roles-no-admin-grants').map((f) => f.message)).toEqual(
      CUSTOM_ROLES.map((r) => `Custom role ${r.name} (${r.id}) holds admin grants ["authorization.roles","user.edit"]`),
    );
  });

  it('an authorities list that is drift (a level that is no boolean) is an error of the roles read through it: exit 3', async () => {
    serveCaptured({ listAuthorities: [AUTHORITIES.map((a, i) => (i === 0 ? { ...a, adminLevel: 'true' } : a))] });
    const report = await run('roles: all');
    expect(report.summary.gate).toBe('error');
    // One read shared by every role: one error, never a role judged without it.
    expect(report.findings.filter((f) => f.policy === 'custom-roles-no-admin-grants').map((f) => [f.status, f.message])).toEqual([
      ['error', 'could not read role data shared by all resources: listAuthorities: API drift at [0].adminLevel: expected boolean, got string ([GET] "/api/authorization/v1/authorities")'],
    ]);
  });

  it('a grant the authorities list does not hold has no known level: an error of the role, never a harmless grant', async () => {
    // `ui.admin` ends in .admin: admin-level whatever the list says. The first role holds one unknown grant, the second two.
    const [one, two] = CUSTOM_ROLES;
    serveCaptured({ getRoleAuthorities: [] });
    const held = new Map([[one.id, ['content.card.edit', 'ui.datacenter', 'ui.admin']], [two.id, ['ui.datacenter', 'ui.reports']]]);
    for (const [id, grants] of held) sandbox.scriptFault('getRoleAuthorities', { status: 200, body: JSON.stringify(grants), path: `/api/authorization/v1/roles/${id}/authorities` });
    const report = await run('roles: all');
    expect(report.summary.gate).toBe('error');
    expect(report.findings.filter((f) => f.policy === 'custom-roles-no-admin-grants').map((f) => [f.resource.id, f.status, f.message]).sort()).toEqual([
      [String(one.id), 'error', `could not read role ${one.id}: listAuthorities: role ${one.id} holds "ui.datacenter", which the authorities list does not hold: its admin level is unknown`],
      [String(two.id), 'error', `could not read role ${two.id}: listAuthorities: role ${two.id} holds "ui.datacenter", "ui.reports", which the authorities list does not hold: their admin level is unknown`],
    ].sort());
  });

  it.each(['isActive', 'isPending'])('a user whose %s the answer does not carry, or carries null, is an error of the user policies, never a state guessed', async (key) => {
    const user = structuredClone(SEARCH.users[0]);
    const nulled = structuredClone(SEARCH.users[0]);
    user.attributes = user.attributes.filter((a) => a.key !== key);
    nulled.attributes = nulled.attributes.map((a) => (a.key === key ? { ...a, values: [null] } : a));
    for (const answer of [user, nulled]) {
      serveCaptured({ searchUsers: [{ count: 1, users: [answer] }, { count: 0, users: [] }] });
      const report = await run('users: all');
      expect(report.summary.gate).toBe('error');
      expect(errorsOf(report).join('\n')).toContain(`searchUsers: API drift at user ${user.id}: ${key} is null, not a boolean`);
    }
  });

  it('the captured user made active: its last sign-in (2025-01-01) is more than 90 days ago, so it is dormant', async () => {
    const active = structuredClone(SEARCH.users[0]);
    active.attributes = active.attributes.map((a) => (a.key === 'isActive' ? { ...a, values: [true] } : a));
    serveCaptured({ searchUsers: [{ count: 1, users: [active] }, { count: 0, users: [] }] });
    const report = await run('users: all');
    expect(errorsOf(report)).toEqual([]);
    expect(findingKeys(report)).toEqual([`users-not-dormant user/${active.id}`]);
  });

  it('a user listed by the onlyDeleted search is deleted, whatever its attributes say', async () => {
    const gone = structuredClone(SEARCH.users[0]);
    // Active by its attributes, and last seen 2025-01-01: were it not deleted, it would be dormant.
    gone.attributes = gone.attributes.map((a) => (a.key === 'isActive' ? { ...a, values: [true] } : a));
    serveCaptured({ searchUsers: [{ count: 0, users: [] }, { count: 1, users: [gone] }] });
    const report = await run('users: all');
    expect(errorsOf(report)).toEqual([]);
    // Deleted: neither dormant (not active) nor a stale invitation.
    expect(evaluated(report)['users-not-dormant']).toBe(0);
    expect(findingKeys(report)).toEqual([]);
  });

  it('a listing that reports more users than it lists is incomplete: exit 3, never a shorter directory', async () => {
    serveCaptured({ searchUsers: [SEARCH, { count: 0, users: [] }] });
    sandbox.scriptFault('searchUsers', { status: 200, body: JSON.stringify({ count: SEARCH.count, users: [] }) }, 5);
    const report = await run('users: all');
    expect(report.summary.gate).toBe('error');
    expect(findingKeys(report)).toEqual([]);
  });

  it('a refused token list names the grant, and doctor names the policies it leaves uncovered', async () => {
    sandbox.scriptFault('listAccessTokens', { status: 403, body: '' });
    const report = await run('accessTokens: all');
    expect(report.summary.gate).toBe('error');
    expect(report.policies.filter((p) => p.status === 'error').map((p) => p.id).sort()).toEqual([
      'access-tokens-not-expired',
      'access-tokens-owner-active',
      'access-tokens-short-lived',
    ]);

    sandbox.scriptFault('listAccessTokens', { status: 403, body: '' }, 2);
    const dir = tempDir('steward-identity-doctor-');
    writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenHeader: ${REAL_TOKEN_HEADER} }\nscope: { accessTokens: all }\n`);
    const diagnosis = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ONLY });
    const tokens = diagnosis.checks.find((c) => c.id === 'accessTokens')!;
    expect(tokens).toMatchObject({ status: 'missing', fix: expect.stringContaining('developer.token.manage') });
    expect(tokens.uncovered).toEqual(['access-tokens-short-lived', 'access-tokens-not-expired', 'access-tokens-owner-active']);
  });

  describe('check with instance.tokenId: the grants complete listings need, from the captured answers', () => {
    /** The check of the group policies with the token's id set, the captured list's first token. */
    async function runWithTokenId(): Promise<Report> {
      const dir = tempDir('steward-identity-grants-');
      writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenHeader: ${REAL_TOKEN_HEADER}, tokenId: ${TOKENS[0].id} }\nscope: { groups: all }\n`);
      return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['groups-have-members'] });
    }
    const groupCoverage = (report: Report) => report.coverage?.find((c) => c.kind === 'group');

    it('the captured token’s owner (1001010) is in no captured user listing: not told, the listing not taken for partial', async () => {
      serve({ listAccessTokens: [TOKENS], searchUsers: [LIVE_USERS, { count: 0, users: [] }], listGroups: [GROUPS], listAuthorities: [AUTHORITIES] });
      const report = await runWithTokenId();
      expect(groupCoverage(report)).toMatchObject({ completeWith: 'group.admin', partial: null, blocking: false });
      expect(sandbox.counts).toMatchObject({ listAccessTokens: 1, searchUsers: 2, listAuthorities: 1, listGroups: 1 });
    });

    it('owned by the captured user (role 1, which the captured list gives group.admin): whole; in a role it does not: partial, exit 3', async () => {
      const owned = TOKENS.map((t) => ({ ...t, ownerId: SEARCH.users[0].id }));
      serve({ listAccessTokens: [owned], searchUsers: [LIVE_USERS, { count: 0, users: [] }], listGroups: [GROUPS], listAuthorities: [AUTHORITIES] });
      expect(groupCoverage(await runWithTokenId())).toMatchObject({ partial: null });
      const lacking = AUTHORITIES.map((a) => (a.authority === 'group.admin' ? { ...a, roleIds: [1234] } : a));
      serve({ listAccessTokens: [owned], searchUsers: [LIVE_USERS, { count: 0, users: [] }], listGroups: [GROUPS], listAuthorities: [lacking] });
      const report = await runWithTokenId();
      // The captured user's displayName is the capture's placeholder, "<string>".
      expect(groupCoverage(report)).toMatchObject({ partial: `the token's user <string> (${SEARCH.users[0].id}), role 1 does not hold group.admin: the listing holds only what that user can see`, blocking: true });
      expect(report.summary.gate).toBe('error');
    });
  });
});
