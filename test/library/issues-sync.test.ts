// syncIssues in this process, with the real Octokit client against a local double of GitHub's
// issues API: what each issue says (marker, set hash, lead, description, rows, owners, the cap),
// which issues it opens, updates, reopens, closes or leaves, which it ignores (another key's
// marker, a pull request, no marker), and when a run may close nothing (an error, a stopped or
// empty run). test/cli/issues-sync.test.ts runs the command and the Action end to end.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import type { Finding, PolicyResult, Report } from '../../src/core/model.js';
import { sha256 } from '../../src/core/digest.js';
import { SecretSet } from '../../src/core/redact.js';
import { ISSUE_MAX_FINDINGS, NO_TEAM, syncIssues } from '../../src/library/issues-sync.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { DOUBLE_REPOSITORY, type GithubDouble, startGithubDouble } from '../fixtures/github-double.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

const TOKEN = 'ghs_inProcessIssuesToken0001';
let github: GithubDouble;
beforeAll(async () => {
  github = await startGithubDouble();
});
afterAll(() => github.close());
beforeEach(() => {
  github.issues.length = 0;
  github.calls.length = 0;
});

const AT = '2026-03-02T09:15:00.000Z';
const policy = (id: string, over: Partial<PolicyResult> = {}) => makePolicy({ id, title: `Title of ${id}`, description: `Fix ${id} so.`, severity: 'high', status: 'fail', resourceIds: ['q-1', 'q-2'], evaluated: 2, ...over });
const finding = (policyId: string, id: string, over: Partial<Finding> = {}) =>
  makeFinding({ policy: policyId, severity: 'high', resource: { kind: 'queue', id, name: null }, path: null, message: `${id} breaks ${policyId}`, fingerprint: `fp-${policyId}-${id}`, owner: null, ...over });
const report = (policies: PolicyResult[], findings: Finding[], over: Partial<Report> = {}) => makeReport({ policies, findings, startedAt: AT, ...over });
const sync = (r: Report, by?: 'policy' | 'team') => syncIssues(r, { token: TOKEN, secrets: SecretSet.of(TOKEN), repository: DOUBLE_REPOSITORY, apiUrl: github.apiUrl, by });
const writes = () => github.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path.replace('/repos/acme/governance', '')}`);
const hashOf = (keys: string[]) => sha256([...keys].sort().join('\n')).slice(0, 16);

describe('syncIssues by policy', () => {
  it('opens one issue per failing policy: its marker, set hash, lead, description and a row per finding, labelled by severity', async () => {
    const r = report(
      [policy('q-admin'), policy('q-ok', { status: 'pass' })],
      [
        finding('q-admin', 'q-1', { path: 'permissions[0]', message: 'a | b\nc', team: 'data', owner: { type: 'USER', id: '7', name: 'Ana Ruiz', email: null, state: 'deactivated' } }),
        finding('q-admin', 'q-2', { owner: { type: 'USER', id: '8', name: 'Bo Lind', email: null, state: 'active' } }),
        finding('q-admin', 'q-3', { status: 'waived' }),
      ],
    );
    const outcome = await sync(r);
    expect(outcome).toEqual({ opened: [1], updated: [], reopened: [], closed: [], unchanged: [] });
    expect(github.calls.every((c) => c.auth === `token ${TOKEN}` && c.agent?.startsWith('steward '))).toBe(true);
    const [issue] = github.issues;
    expect([issue!.title, issue!.labels.map((l) => l.name)]).toEqual(['steward: Title of q-admin (q-admin)', ['steward', 'severity:high']]);
    expect(issue!.body).toBe(
      [
        '<!-- steward:policy=q-admin -->',
        `<!-- steward:set=${hashOf(['fp-q-admin-q-1', 'fp-q-admin-q-2'])} -->`,
        `**Title of q-admin** (\`q-admin\`, high): 2 open findings on https://acme.example.com, as of ${AT}.`,
        '',
        'Fix q-admin so.',
        '',
        '| Policy | Severity | Resource | Finding | Owner |',
        '| --- | --- | --- | --- | --- |',
        '| `q-admin` | high | `queue/q-1 permissions[0]` | a \\| b c | team data USER Ana Ruiz (7) (deactivated) |',
        '| `q-admin` | high | `queue/q-2` | q-2 breaks q-admin | USER Bo Lind (8) |',
      ].join('\n'),
    );
  });

  it(`lists ${ISSUE_MAX_FINDINGS} findings and counts the rest; one finding is said in the singular; no description, no line for it`, async () => {
    const many = Array.from({ length: ISSUE_MAX_FINDINGS + 3 }, (_, i) => finding('many', `q-${i}`));
    await sync(report([policy('many'), policy('one', { description: '' })], [...many, finding('one', 'q-x')]));
    const [first, second] = github.issues;
    expect(first!.body.split('\n').filter((l) => l.startsWith('| `many`'))).toHaveLength(ISSUE_MAX_FINDINGS);
    expect(first!.body.endsWith(`\n\n…and 3 more (the JSON report has them all).`)).toBe(true);
    expect(first!.body).toContain(`: ${ISSUE_MAX_FINDINGS + 3} open findings on`);
    expect(second!.body.split('\n').slice(2, 5)).toEqual([`**Title of one** (\`one\`, high): 1 open finding on https://acme.example.com, as of ${AT}.`, '', '| Policy | Severity | Resource | Finding | Owner |']);
    expect(second!.body).not.toContain('more (the JSON report');
    // Exactly as many as are listed: none counted.
    await sync(report([policy('fifty')], Array.from({ length: ISSUE_MAX_FINDINGS }, (_, i) => finding('fifty', `q-${i}`))));
    expect(github.issues[2]!.body).not.toContain('more (the JSON report');
    expect(github.issues[2]!.body.endsWith(`| q-${ISSUE_MAX_FINDINGS - 1} breaks fifty |  |`)).toBe(true);
  });

  it('the same findings: no write; others: the body updated; a pass: closed with a comment; failing again: reopened with one', async () => {
    const failing = report([policy('p')], [finding('p', 'q-1'), finding('p', 'q-2')]);
    await sync(failing);
    github.calls.length = 0;
    expect(await sync(failing)).toEqual({ opened: [], updated: [], reopened: [], closed: [], unchanged: ['p'] });
    // The same set in another order is the same set.
    expect((await sync(report([policy('p')], [finding('p', 'q-2'), finding('p', 'q-1')]))).unchanged).toEqual(['p']);
    expect(writes()).toEqual([]);

    expect((await sync(report([policy('p')], [finding('p', 'q-1')]))).updated).toEqual([1]);
    expect(writes()).toEqual(['PATCH /issues/1']);
    expect(github.issues[0]!.body).toContain(`<!-- steward:set=${hashOf(['fp-p-q-1'])} -->`);

    github.calls.length = 0;
    expect((await sync(report([policy('p', { status: 'pass' })], [], { startedAt: '2026-03-03T00:00:00.000Z' }))).closed).toEqual([1]);
    expect(writes()).toEqual(['POST /issues/1/comments', 'PATCH /issues/1']);
    expect(github.calls.at(-1)!.body).toEqual({ state: 'closed', state_reason: 'completed' });
    expect(github.issues[0]!.comments).toEqual(['Fixed: no open finding of `p` as of 2026-03-03T00:00:00.000Z.']);

    github.calls.length = 0;
    expect(await sync(report([policy('p', { status: 'pass' })], []))).toEqual({ opened: [], updated: [], reopened: [], closed: [], unchanged: [] });
    expect(writes()).toEqual([]);

    expect((await sync(failing)).reopened).toEqual([1]);
    expect(writes()).toEqual(['PATCH /issues/1', 'POST /issues/1/comments']);
    expect(github.calls.at(-2)!.body).toMatchObject({ state: 'open' });
    expect(github.issues[0]!.state).toBe('open');
    expect(github.issues[0]!.body).toContain(`<!-- steward:set=${hashOf(['fp-p-q-1', 'fp-p-q-2'])} -->`);
    expect(github.issues[0]!.comments.at(-1)).toBe(`Reopened: 2 open findings of \`p\` as of ${AT}.`);
  });

  it('an open issue of a policy in error, skipped, or not in the report is left as it is: an error is not a fix', async () => {
    await sync(report([policy('p'), policy('gone')], [finding('p', 'q-1'), finding('gone', 'q-1')]));
    github.calls.length = 0;
    for (const status of ['error', 'skipped'] as const) {
      expect(await sync(report([policy('p', { status })], []))).toEqual({ opened: [], updated: [], reopened: [], closed: [], unchanged: [] });
    }
    expect(writes()).toEqual([]);
    expect(github.issues.map((i) => i.state)).toEqual(['open', 'open']);
  });

  it('finds its issues by marker across pages: another key, a pull request, an issue without one are not its; the first of two is', async () => {
    const planted = (title: string, body: string, extra: Partial<(typeof github.issues)[number]> = {}) =>
      github.issues.push({ number: github.issues.length + 1, title, body, state: 'open', labels: [{ name: 'steward' }], comments: [], ...extra });
    for (let i = 0; i < 120; i++) planted(`noise ${i}`, 'no marker');
    planted('by team', '<!-- steward:team=p -->');
    planted('a pull request', '<!-- steward:policy=p -->', { pull_request: { url: 'x' } });
    planted('the one', `<!-- steward:policy=p -->\n<!-- steward:set=${hashOf(['fp-p-q-1'])} -->`);
    planted('a second', '<!-- steward:policy=p -->');
    const outcome = await sync(report([policy('p')], [finding('p', 'q-1')]));
    expect(outcome).toEqual({ opened: [], updated: [], reopened: [], closed: [], unchanged: ['p'] });
    expect(github.calls.filter((c) => c.method === 'GET')).toHaveLength(2);
    expect(github.calls[0]!.path).toBe('/repos/acme/governance/issues');
  });

  it('a report of several instances: one issue a policy; rows and set name their instance; closed only when it passes on each', async () => {
    const one = (instance: string, status: 'fail' | 'pass' | 'error') =>
      stampInstance(report([policy('p', { status })], status === 'fail' ? [finding('p', 'q-1')] : [], { instance: `https://${instance}.example.com` }), instance);
    await sync(mergeReports([one('prod', 'fail'), one('staging', 'fail')]));
    const [issue] = github.issues;
    expect(github.issues).toHaveLength(1);
    expect(issue!.body).toContain(`<!-- steward:set=${hashOf(['prod: fp-p-q-1', 'staging: fp-p-q-1'])} -->`);
    expect(issue!.body).toContain('| `p` | high | `prod: queue/q-1` |');
    expect(issue!.body).toContain('| `p` | high | `staging: queue/q-1` |');
    expect((await sync(mergeReports([one('prod', 'pass'), one('staging', 'error')]))).closed).toEqual([]);
    expect((await sync(mergeReports([one('prod', 'pass'), one('staging', 'pass')]))).closed).toEqual([1]);
  });

  it('a repository that is not owner/repo: an error before any request', async () => {
    for (const repository of ['acme', 'acme/', '/governance']) {
      await expect(syncIssues(report([], []), { token: TOKEN, secrets: new SecretSet(), repository, apiUrl: github.apiUrl })).rejects.toThrow(`GITHUB_REPOSITORY must be owner/repo, got "${repository}"`);
    }
    expect(github.calls).toEqual([]);
  });
});

describe('syncIssues by team', () => {
  const teamReport = (findings: Finding[], over: Partial<Report> = {}) => report([policy('p'), policy('w')], findings, over);

  it("one issue per team, its marker the team's name encoded, labelled team:<name> (50 characters at most); findings routed to none under their own", async () => {
    const long = `platform ${'x'.repeat(60)}`;
    await sync(teamReport([finding('p', 'q-1', { team: 'data & ops' }), finding('w', 'q-2', { team: long }), finding('p', 'q-3', { team: null })]), 'team');
    expect(github.issues.map((i) => [i.title, i.labels.map((l) => l.name), i.body.split('\n')[0], i.body.split('\n')[2]])).toEqual([
      ['steward: findings of team data & ops', ['steward', 'team:data & ops'], '<!-- steward:team=data%20%26%20ops -->', `Findings routed to team **data & ops**: 1 open finding on https://acme.example.com, as of ${AT}.`],
      [`steward: findings of team ${long}`, ['steward', `team:${long}`.slice(0, 50)], `<!-- steward:team=${encodeURIComponent(long)} -->`, `Findings routed to team **${long}**: 1 open finding on https://acme.example.com, as of ${AT}.`],
      ['steward: findings routed to no team', ['steward'], `<!-- steward:team=${encodeURIComponent(NO_TEAM)} -->`, `Findings no \`owners:\` rule routes: 1 open finding on https://acme.example.com, as of ${AT}.`],
    ]);
    expect(github.issues[0]!.body.split('\n')[4]).toBe('| Policy | Severity | Resource | Finding | Owner |');
    // The team's name read back from its marker: the same findings again are no write.
    github.calls.length = 0;
    await sync(teamReport([finding('p', 'q-1', { team: 'data & ops' }), finding('w', 'q-2', { team: long }), finding('p', 'q-3', { team: null })]), 'team');
    expect(writes()).toEqual([]);
  });

  it("a team with nothing left is closed; not after a run with a policy in error, one stopped, or one that evaluated nothing", async () => {
    await sync(teamReport([finding('p', 'q-1', { team: 'data' }), finding('w', 'q-2', { team: 'ops' })]), 'team');
    github.calls.length = 0;
    const onlyData = [finding('p', 'q-1', { team: 'data' })];
    const withError = report([policy('p'), policy('w', { status: 'error' })], onlyData);
    const stopped = teamReport(onlyData, { stoppedBy: [{ cause: 'the instance refused the developer token (401 Unauthorized)', advice: 'check STEWARD_TOKEN' }] });
    const empty = teamReport(onlyData);
    empty.summary = { ...empty.summary, resources: 0 };
    for (const r of [withError, stopped, empty]) expect((await sync(r, 'team')).closed).toEqual([]);
    expect(writes()).toEqual([]);
    const closed = await sync(teamReport(onlyData), 'team');
    expect([closed.closed, closed.unchanged]).toEqual([[2], ['data']]);
    expect(github.issues[1]!.comments).toEqual([`Fixed: no open finding of team ops as of ${AT}.`]);
  });

  it('a report whose findings carry no team (a run without owners:) is bad input, before any request', async () => {
    // One finding routed and one not: the report is still not one of a run with owners:.
    const r = teamReport([finding('p', 'q-0', { team: 'data' }), finding('p', 'q-1')]);
    delete r.findings[1]!.team;
    const error = await sync(r, 'team').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([{ file: '--by team', line: 0, column: 0, message: 'issues by team need a report of a run with an owners: map (its findings carry no team)' }]);
    expect(github.calls).toEqual([]);
  });
});
