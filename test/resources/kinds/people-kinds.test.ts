// The people kinds over the sandbox: the user directory's states, a role's holders paged (50 a
// page) with their states, a group's members as a part (one read per group that a policy reads
// it for), and nothing read for a kind no scope names.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../../../src/api/index.js';
import { check } from '../../../src/index.js';
import { createRunMemo } from '../../../src/engine/memo.js';
import { emptyScope } from '../../../src/resources/index.js';
import { userDirectory } from '../../../src/resources/people.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { tempDir } from '../../cli/helpers.js';

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
    expect(finding.message).toMatch(/^126 active users hold the Admin role \(at most 125\): \[/);
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
