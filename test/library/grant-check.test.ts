// `check` with instance.tokenId: a kind judged from its listing (`all`) whose complete listing
// needs a grant the token user's role lacks is partial coverage (PLATFORM.md §7 E9: the listing
// holds only what that user can see, and says nothing), so its failOn-level policies decide
// nothing: exit 3 unless acceptPartialCoverage names the kind. Named ids are not in question;
// without tokenId nothing is asked. Over HTTP against the sandbox, requests counted.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/library/evaluate.js';
import { PLANTED_PEOPLE, PLANTED_TOKENS } from '../../src/sandbox/demo-people.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

// groups-owner-active reads the user directory too: the grant check shares the run's.
const ONLY = ['datasets-have-an-owner', 'groups-have-owners', 'groups-owner-active'];
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
  // Ben Okafor (9), who holds the `old-export` token, is an Editor: role 3 holds none of the admin grants.
  sandbox.state.people.users.find((u) => u.id === PLANTED_PEOPLE.ben)!.roleId = 3;
});
afterEach(() => sandbox.close());

async function run(tokenId: number | null, scope = 'datasets: all, groups: all', extra = '') {
  const dir = tempDir('steward-grant-check-');
  const instance = tokenId === null ? '' : `instance: { tokenId: ${tokenId} }\n`;
  writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\n${instance}scope: { ${scope} }\n${extra}`);
  const { report, warnings } = await evaluate({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ONLY });
  const coverage = Object.fromEntries((report.coverage ?? []).map((c) => [c.kind, { partial: c.partial, blocking: c.blocking, accepted: c.accepted }]));
  return { report, warnings, coverage };
}

const lacks = (grant: string) => `the token's user Ben Okafor (9), role 3 does not hold ${grant}: the listing holds only what that user can see`;

describe('check: the grants complete listings need (instance.tokenId)', () => {
  it('an Editor’s token and `all`: both listings partial, their policies decide nothing, exit 3', async () => {
    const { report, coverage, warnings } = await run(PLANTED_TOKENS.expired);
    expect(coverage).toEqual({
      dataset: { partial: lacks('dataset.admin'), blocking: true, accepted: false },
      group: { partial: lacks('group.admin'), blocking: true, accepted: false },
    });
    expect(report.summary.gate).toBe('error');
    expect(warnings).toContain(`partial coverage of dataset: ${lacks('dataset.admin')}; its failOn-level policies decide nothing: exit 3 unless acceptPartialCoverage names it`);
    // The token list once (shared with the expiry check), the two searches once (the owner part read them first), the authorities once.
    expect(sandbox.counts).toMatchObject({ listAccessTokens: 1, searchUsers: 2, listAuthorities: 1 });
  });

  it('acceptPartialCoverage names the kinds: the run decides on what it saw (exit 1 on the planted findings)', async () => {
    const { report, coverage } = await run(PLANTED_TOKENS.expired, 'datasets: all, groups: all', 'acceptPartialCoverage: [dataset, group]\n');
    expect(coverage.dataset).toEqual({ partial: lacks('dataset.admin'), blocking: false, accepted: true });
    expect(report.summary.gate).toBe('fail');
  });

  it('the role holding one grant: only the other kind is partial', async () => {
    sandbox.state.people.roles.find((r) => r.id === 3)!.grants.push('dataset.admin');
    const { coverage } = await run(PLANTED_TOKENS.expired);
    expect([coverage.dataset?.partial, coverage.group?.partial]).toEqual([null, lacks('group.admin')]);
  });

  it('a grant the authorities list does not name (fileset.admin) is not told: never partial for it', async () => {
    const dir = tempDir('steward-grant-check-fs-');
    writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenId: ${PLANTED_TOKENS.expired} }\nscope: { filesets: all }\n`);
    const { report } = await evaluate({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['fileset-files-sha256'] });
    expect(report.coverage?.map((c) => [c.kind, c.completeWith, c.partial])).toEqual([['filesetFile', 'fileset.admin', null]]);
    expect(sandbox.counts.listAuthorities).toBe(1);
  });

  it('named ids are not in question (one a listing lacks is an error already); an Admin’s token holds every grant', async () => {
    const named = await run(PLANTED_TOKENS.expired, 'datasets: [ds-0001, ds-scratch], groups: all');
    expect([named.coverage.dataset?.partial, named.coverage.group?.partial]).toEqual([null, lacks('group.admin')]);
    const admin = await run(PLANTED_TOKENS.longLived);
    expect(Object.values(admin.coverage).map((c) => c.partial)).toEqual([null, null]);
    expect(admin.report.summary.gate).toBe('fail');
  });

  it('without tokenId nothing is asked; a token the list does not hold is a warning, not a partial listing', async () => {
    const none = await run(null);
    expect(none.report.summary.gate).toBe('fail');
    expect(none.warnings.filter((w) => w.includes('grants'))).toEqual([]);
    expect(sandbox.counts.listAuthorities ?? 0).toBe(0);
    expect(sandbox.counts.listAccessTokens ?? 0).toBe(0);
    const gone = await run(424242);
    expect(Object.values(gone.coverage).map((c) => c.partial)).toEqual([null, null]);
    expect(gone.warnings).toContain('the grants complete listings need were not checked: access token 424242 (instance.tokenId) is not in the access-token list');
    expect(gone.report.summary.gate).toBe('fail');
  });

  it('a token list refused (403, 404) cannot tell: a warning; one that is drift cannot be trusted: every listed kind partial, exit 3', async () => {
    sandbox.scriptFault('listAccessTokens', { status: 403, body: '' });
    const refused = await run(PLANTED_TOKENS.expired);
    expect(Object.values(refused.coverage).map((c) => c.partial)).toEqual([null, null]);
    expect(refused.warnings.filter((w) => w.startsWith('the grants'))).toEqual([
      expect.stringMatching(/^the grants complete listings need were not checked: the access-token list was refused \(.*403.*\); the token user needs developer\.token\.manage$/),
    ]);
    expect(refused.report.summary.gate).toBe('fail');
    sandbox.scriptFault('listAccessTokens', { status: 404, body: 'Not Found' });
    expect((await run(PLANTED_TOKENS.expired)).warnings.filter((w) => w.startsWith('the grants'))).toEqual([expect.stringMatching(/^the grants complete listings need were not checked: the access-token list was refused \(.*404/)]);
    sandbox.scriptFault('listAccessTokens', { status: 200, body: JSON.stringify([{ id: 'x' }]) });
    const drift = await run(PLANTED_TOKENS.expired);
    expect(drift.coverage.group?.partial).toMatch(/^whether the token's user holds group\.admin could not be told \(listAccessTokens: API drift/);
    expect(drift.report.summary.gate).toBe('error');
  });

  it('a token user the directory does not hold, or holds without a role, cannot tell: a warning', async () => {
    const token = sandbox.state.people.accessTokens.find((t) => t.id === PLANTED_TOKENS.expired)!;
    token.ownerId = 4242;
    expect((await run(PLANTED_TOKENS.expired)).warnings).toContain('the grants complete listings need were not checked: the token\'s user 4242 is in no user listing');
    token.ownerId = PLANTED_PEOPLE.ben;
    sandbox.state.people.users.find((u) => u.id === PLANTED_PEOPLE.ben)!.roleId = null as never;
    expect((await run(PLANTED_TOKENS.expired)).warnings).toContain('the grants complete listings need were not checked: the token\'s user 9 is listed without a role');
  });

  it('nothing judged from a listing, or no kind with a grant: nothing asked', async () => {
    const named = await run(PLANTED_TOKENS.expired, 'datasets: [ds-0001]');
    expect(named.coverage.dataset?.partial).toBeNull();
    const dir = tempDir('steward-grant-check-calc-');
    writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenId: ${PLANTED_TOKENS.expired} }\n`);
    await evaluate({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['calculated-fields-valid'] });
    expect([sandbox.counts.listAuthorities ?? 0, sandbox.counts.searchUsers ?? 0]).toEqual([0, 0]);
  });

  it('an authorities list that is drift leaves every listed kind partial: exit 3, never a whole listing', async () => {
    sandbox.scriptFault('listAuthorities', { status: 200, body: JSON.stringify([{ authority: 'dataset.admin', adminLevel: 'yes', roleIds: [1] }]) });
    const { report, coverage } = await run(PLANTED_TOKENS.longLived);
    expect(coverage.dataset?.partial).toMatch(/^whether the token's user holds dataset\.admin could not be told \(listAuthorities: API drift at \[0\]\.adminLevel/);
    expect(coverage.group?.blocking).toBe(true);
    expect(report.summary.gate).toBe('error');
  });

  it('a snapshot records the grants’ reads: its replay finds the same partial listing, with no request', async () => {
    const dir = tempDir('steward-grant-check-snap-');
    writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: { tokenId: ${PLANTED_TOKENS.expired} }\nscope: { datasets: all, groups: all }\n`);
    const only = ['--only', ONLY.join(',')];
    const recorded = await runCli(['snapshot', '--out', 'snap.json', ...only], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(recorded.code, recorded.stderr).toBe(3);
    sandbox.resetCounts();
    const replayed = await runCli(['check', '--from', 'snap.json', '--format', 'json', ...only], { cwd: dir, env: {} });
    expect(replayed.code).toBe(3);
    const coverage = (JSON.parse(replayed.stdout) as { coverage: { kind: string; partial: string | null }[] }).coverage.map((c) => [c.kind, c.partial]);
    expect(Object.fromEntries(coverage)).toEqual({ dataset: lacks('dataset.admin'), group: lacks('group.admin') });
    expect(sandbox.totalRequests()).toBe(0);
  });
});
