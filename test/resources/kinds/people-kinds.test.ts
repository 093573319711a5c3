// The people kinds over the sandbox: the user directory's states, a role's holders paged (50 a
// page) with their states, a group's members as a part (one read per group that a policy reads
// it for), and nothing read for a kind no scope names.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../../../src/api/index.js';
import type { OperationId } from '../../../src/api/operations.js';
import { check } from '../../../src/index.js';
import { createRunMemo } from '../../../src/engine/memo.js';
import { emptyScope, RESOURCE_KINDS } from '../../../src/resources/index.js';
import { rolePart } from '../../../src/resources/kinds/role.js';
import type { CollectedResource, Scope } from '../../../src/resources/types.js';
import { userDirectory } from '../../../src/resources/people.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { tempDir } from '../../cli/helpers.js';
import { captured, REAL_TOKEN_HEADER } from '../../fixtures/captured.js';

let s: Sandbox;
beforeEach(async () => {
  s = await startSandbox();
});
afterEach(() => s.close());

async function run(yaml: string, only?: string[]) {
  const dir = tempDir('steward-people-');
  writeFileSync(path.join(dir, 'steward.yaml'), yaml);
  return check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: s.baseUrl, token: s.token, ...(only ? { only } : {}) });
}

describe('the user directory', () => {
  it('one run: both searches once, every planted state as the platform would say it', async () => {
    const api = createClient({ baseUrl: s.baseUrl, token: s.token });
    const { once } = createRunMemo();
    const [a, b] = await Promise.all([userDirectory(api, once), userDirectory(api, once)]);
    expect(a).toBe(b);
    expect(s.counts.searchUsers).toBe(2);
    const state = (id: string) => a.get(id)?.state;
    expect([state('7'), state('60'), state('31'), state('77'), a.get('999')]).toEqual(['active', 'pending', 'deactivated', 'deleted', undefined]);
    expect(a.get('60')).toMatchObject({ name: 'Invited Contractor', lastLogin: null, roleId: 4 });
  });

  it('a kind no scope names reads nothing', async () => {
    const api = createClient({ baseUrl: s.baseUrl, token: s.token });
    const { RESOURCE_KINDS } = await import('../../../src/resources/index.js');
    for (const kind of ['user', 'group', 'role', 'accessToken']) {
      const out = [];
      for await (const r of RESOURCE_KINDS[kind].collect({ api, scope: emptyScope(), manifestFiles: {}, displayRoot: '.' })) out.push(r);
      expect(out, kind).toEqual([]);
    }
    expect(s.totalRequests()).toBe(0);
  });
});

describe('role holders and group members', () => {
  it('holders are paged 50 at a time and counted by state: 120 more active Admins are 3 pages, all named', async () => {
    for (let i = 0; i < 120; i++) {
      s.state.people.users.push({ id: 300_000 + i, name: `Admin ${i}`, email: `a${i}@example.com`, roleId: 1, state: 'active', systemUser: false, created: Date.now(), lastLogin: Date.now() });
    }
    const report = await run('policies: [builtin]\nparams:\n  admins-at-most: { maxAdmins: 125 }\nscope: { roles: all }\n', ['admins-at-most']);
    expect(s.counts.listRoleUsers).toBe(3);
    const finding = report.findings.find((f) => f.policy === 'admins-at-most')!;
    expect(finding.message).toMatch(/^126 users hold the Admin role and are not deactivated or deleted \(at most 125\): \[/);
    expect(finding.message).toContain('"Admin 119 (300119)"');
  });

  it('members are read only for the groups a policy reads them of, each with its state', async () => {
    const dir = tempDir('steward-members-');
    writeFileSync(
      path.join(dir, 'members.yaml'),
      `policies:
  - id: groups-no-departed-members
    title: Groups hold no deactivated or deleted member
    description: Reads the members part.
    severity: low
    resource: group
    when: resource.memberCount > 0
    each: resource.members
    assert: item.state == 'active'
    message: "{{ item.id }} is {{ item.state }}"
`,
    );
    s.state.people.groups.find((g) => g.groupId === 302)!.members.push(31);
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [members.yaml]\nscope: { groups: all }\n');
    const report = await check({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: s.baseUrl, token: s.token });
    expect(report.summary.errors).toBe(0);
    expect(report.findings.map((f) => `${f.resource.id} ${f.message}`)).toEqual(['302 31 is deactivated']);
    // Every group's members once (`each` is part of the selection: read before `when`).
    expect(s.counts.getGroupUsers).toBe(s.state.people.groups.length);
    expect(s.counts.listGroups).toBe(1);
  });
});

describe("each people kind's documents, on the platform's captured answers", () => {
  // The answers served as the real platform serves them: under its token header.
  beforeEach(async () => {
    await s.close();
    s = await startSandbox({ tokenHeader: REAL_TOKEN_HEADER });
  });
    const serve = (op: OperationId, body: unknown) => s.scriptFault(op, { status: 200, body: JSON.stringify(body) });
  const api = () => createClient({ baseUrl: s.baseUrl, token: s.token, tokenHeader: REAL_TOKEN_HEADER });
  async function collected(kind: string, scope: Scope): Promise<CollectedResource[]> {
    const out: CollectedResource[] = [];
    for await (const r of RESOURCE_KINDS[kind]!.collect({ api: api(), scope, manifestFiles: {}, displayRoot: '.' })) out.push(...[r].flat());
    return out;
  }
  const named = (key: string, ids: string[]): Scope => ({ ...emptyScope(), ids: { [key]: ids } });
  const all = (key: string): Scope => ({ ...emptyScope(), discover: { [key]: { exclude: [] } } });

  it('users named in scope, without all: each of them, and one no listing has is its own error', async () => {
    const users = await collected('user', named('users', ['31', '999']));
    expect(users.map((u) => [u.id, u.name, u.doc.state, u.loadError?.message ?? null])).toEqual([
      ['31', 'Eva Novak', 'deactivated', null],
      ['999', null, 'deleted', 'user 999 is not in the live or the deleted user listing'],
    ]);
    // doctor's check of a named user: the directory holds it, or the scope names nobody.
    const exists = RESOURCE_KINDS.user!.inputs!.scope!.exists!;
    await expect(exists(api(), '31')).resolves.toBeUndefined();
    await expect(exists(api(), '999')).rejects.toThrow('user 999 is in neither the live nor the deleted user listing');
  });

  it("a user's role from the role list: system by id alone; a role the list lacks is an error", async () => {
    const roles = captured<{ id: number; name: string }[]>('roles-list');
    const custom = roles.find((r) => r.id > 5)!;
    for (let i = 0; i < 4; i++) serve('listRoles', roles);
    const load = (roleId: unknown) => rolePart.load(api(), { kind: 'user', id: '7', name: null, doc: { id: '7', state: 'active', roleId }, source: null });
    await expect(load(1)).resolves.toEqual({ id: 1, name: 'Admin', system: true });
    await expect(load(custom.id)).resolves.toEqual({ id: custom.id, name: custom.name, system: false });
    await expect(load(42)).rejects.toThrow('listRoles: role 42 of user 7 is not in the role list');
    await expect(load(undefined)).rejects.toThrow('listRoles: role null of user 7 is not in the role list');
  });

  it('roles: every field of the list, absent ones null', async () => {
    const roles = captured<Record<string, unknown>[]>('roles-list');
    serve('listRoles', [roles[0], { id: 428016579, name: 'Bare' }]);
    expect((await collected('role', all('roles'))).map((r) => r.doc)).toEqual([
      { id: 1, name: 'Admin', description: 'Full access to everything', system: true, authorityCount: 104, userCount: 0 },
      { id: 428016579, name: 'Bare', description: null, system: false, authorityCount: null, userCount: null },
    ]);
  });

  it('groups: owners as principals, a listing item without owners or a member count is drift of that group', async () => {
    const [first, second] = captured<Record<string, unknown>[]>('groups-grouplist');
    const { owners: _, ...ownerless }: Record<string, unknown> = { ...second!, groupId: 5 };
    const { memberCount: __, ...uncounted }: Record<string, unknown> = { ...second!, groupId: 6 };
    serve('listGroups', [first, { ...second, owners: [{ type: 'USER', id: '2456' }] }, ownerless, uncounted]);
    const groups = await collected('group', all('groups'));
    expect(groups.map((g) => [g.id, g.loadError?.message ?? null])).toEqual([
      ['49793884', null],
      ['1234', null],
      ['5', 'listGroups: API drift at owners of group 5: missing, so its owners are unknown'],
      ['6', 'listGroups: API drift at memberCount of group 6: missing, so the group cannot be judged'],
    ]);
    expect(groups[0]!.doc).toEqual({ id: 49793884, name: 'Group 17', type: 'open', memberCount: 15, owners: [{ type: 'GROUP', id: '49793884', name: 'Group 17' }], created: '2023-06-08 20:59:05.0' });
    expect(groups[1]!.doc.owners).toEqual([{ type: 'USER', id: '2456', name: null }]);
    // The first owner, resolved: a group owning itself has no state; a user in no listing is unknown.
    const owner = RESOURCE_KINDS.group!.parts!.owner!;
    await expect(owner.load(api(), groups[0]!)).resolves.toEqual({ type: 'GROUP', id: '49793884', name: null, email: null, state: null });
    await expect(owner.load(api(), groups[1]!)).resolves.toEqual({ type: 'USER', id: '2456', name: null, email: null, state: 'unknown' });
    await expect(owner.load(api(), { ...groups[1]!, doc: { ...groups[1]!.doc, owners: [] } })).resolves.toBeNull();
  });

  it("a group's members and a role's holders, each with the directory's state; what the answer leaves out is null or the directory's", async () => {
    const { groupUserList } = captured<{ groupUserList: Record<string, unknown>[] }>('group-users');
    const { roleId: _, lastSignIn: __, ...bare } = groupUserList[1]!;
    serve('getGroupUsers', { groupUserList: [groupUserList[0], { ...bare, userId: 31 }] });
    const group = { kind: 'group', id: '201', name: null, doc: { id: 201, owners: [] }, source: null };
    await expect(RESOURCE_KINDS.group!.parts!.members!.load(api(), group)).resolves.toEqual([
      { id: '1001006', name: null, roleId: 2097000001, lastSignIn: '2021-04-19 16:36:26.944', state: 'unknown' },
      { id: '31', name: 'Eva Novak', roleId: null, lastSignIn: null, state: 'deactivated' },
    ]);
    const holders = captured<{ totalCount: number; users: Record<string, unknown>[] }>('role-users');
    const { email: ___, displayName: ____, ...unnamed } = holders.users[1]!;
    serve('listRoleUsers', { ...holders, users: [holders.users[0], { ...unnamed, userId: 31 }] });
    const role = { kind: 'role', id: '1', name: 'Admin', doc: { id: 1, name: 'Admin', system: true }, source: null };
    await expect(RESOURCE_KINDS.role!.parts!.holders!.load(api(), role)).resolves.toEqual([
      { id: '1001008', name: 'User 1008', email: 'user1008@example.com', state: 'unknown' },
      { id: '31', name: 'Eva Novak', email: 'eva.novak@example.com', state: 'deactivated' },
    ]);
  });

  it("tokens and accounts: a token's name null when absent, an account named by its display name, else its name", async () => {
    const { list } = captured<{ list: Record<string, unknown>[] }>('access-tokens-live');
    const { name: _, ...unnamed } = list[1]!;
    serve('listAccessTokens', [list[0], unnamed]);
    expect((await collected('accessToken', all('accessTokens'))).map((t) => [t.name, t.doc])).toEqual([
      ['Token 1', { id: 186852, name: 'Token 1', ownerId: 1001010, expires: 1718737497000 }],
      [null, { id: 186918, name: null, ownerId: 1001010, expires: 1718988398000 }],
    ]);
    const [a1, a2] = captured<Record<string, unknown>[]>('accounts-list');
    const { displayName: __, ...plain } = a2!;
    const { userId: ___, ...ownerless }: Record<string, unknown> = { ...a1!, id: 3 };
    serve('listAccounts', [a1, plain, ownerless]);
    const accounts = await collected('account', all('accounts'));
    expect(accounts.map((a) => [a.id, a.name, a.doc.ownerId])).toEqual([
      ['1', 'Account 1', 1001001],
      ['45', 'user1001@example.com', 1001001],
      ['3', 'Account 1', undefined],
    ]);
    expect('ownerId' in accounts[2]!.doc).toBe(false);
  });
});
