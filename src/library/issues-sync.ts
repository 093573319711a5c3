// GitHub issues kept in sync with a report (`steward issues sync --from REPORT.json`): one issue
// per policy with open findings (or per team of the owners: map, `--by team`), labelled `steward`, found again by a hidden marker; its body
// lists the open findings (with their owners) and carries the hash of their fingerprints, so a
// re-run with the same findings writes nothing. A policy that now passes closes its issue with a
// comment; one that fails again reopens it with a comment. A policy in error is left alone: an
// error is not a fix. Written with the maintained client (@octokit/rest), GITHUB_API_URL
// honoured (GitHub Enterprise Server).
import { sha256 } from '../core/digest.js';
import { ownerLabel } from '../core/owner.js';
import { InputError } from '../core/problem.js';
import type { SecretSet } from '../core/redact.js';
import { type Finding, instancePrefix, type PolicyResult, type Report } from '../core/model.js';

export const ISSUE_LABEL = 'steward';
/** Findings listed in an issue body; more are counted. */
export const ISSUE_MAX_FINDINGS = 50;

/** Each issue's hidden marker: the policy, or the team (URI-encoded: a team name is free text). */
// Stryker disable next-line ConditionalExpression: a policy id (letters, digits, . _ -) encodes as itself
const marker = (by: IssuesBy, key: string) => `<!-- steward:${by}=${by === 'team' ? encodeURIComponent(key) : key} -->`;
const MARKER = /<!-- steward:(policy|team)=([A-Za-z0-9%._~!*'()-]+) -->/;
const SET = /<!-- steward:set=([0-9a-f]+) -->/;

/** One issue per failing policy (default), or per team the `owners:` map routes findings to. */
export type IssuesBy = 'policy' | 'team';
/** The team key of findings no `owners:` rule routes (their issue is titled so). */
export const NO_TEAM = '(no team)';

export interface IssuesSyncOptions {
  token: string;
  /** The run's secrets: what leaves for GitHub holds none (a report not written by steward may). */
  secrets: SecretSet;
  /** `owner/repo`. */
  repository: string;
  /** The REST API root (GITHUB_API_URL); default https://api.github.com. */
  apiUrl?: string;
  by?: IssuesBy;
}

export interface IssuesSyncOutcome {
  opened: number[];
  updated: number[];
  reopened: number[];
  closed: number[];
  /** Policies (or teams) whose issue already says what the report says. */
  unchanged: string[];
}

/** What one issue is about: its key, title, the text above its table, labels, open findings, and whether it may close now. */
interface Subject {
  key: string;
  title: string;
  lead: string;
  /** Below the count line (a policy's description: what it asks and how to fix it). */
  description: string;
  labels: string[];
  findings: Finding[];
  /** No open finding and nothing unknown: a policy that passed, or (by team) a run without an error. */
  mayClose: boolean;
}

/**
 * The fingerprints' hash: what the issue body records of the set it lists. A fingerprint does not
 * name its instance: with several, each is taken with its instance's name.
 */
function setHash(findings: readonly Finding[], report: Report): string {
  const keys = findings.map((f) => `${instancePrefix(report, f.instance)}${f.fingerprint}`);
  return sha256(keys.sort().join('\n')).slice(0, 16);
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const count = (n: number) => `${n} open finding${n === 1 ? '' : 's'}`;

function bodyOf(by: IssuesBy, subject: Subject, report: Report): string {
  const rows = subject.findings.slice(0, ISSUE_MAX_FINDINGS).map((f) => {
    const owner = [f.team ? `team ${f.team}` : '', ownerLabel(f), f.owner?.state && f.owner.state !== 'active' ? `(${f.owner.state})` : ''].filter(Boolean).join(' ');
    return `| \`${f.policy}\` | ${f.severity} | \`${cell(`${instancePrefix(report, f.instance)}${f.resource.kind}/${f.resource.id}${f.path ? ` ${f.path}` : ''}`)}\` | ${cell(f.message)} | ${cell(owner)} |`;
  });
  const more = subject.findings.length > ISSUE_MAX_FINDINGS ? `\n\n…and ${subject.findings.length - ISSUE_MAX_FINDINGS} more (the JSON report has them all).` : '';
  return [
    marker(by, subject.key),
    `<!-- steward:set=${setHash(subject.findings, report)} -->`,
    `${subject.lead}: ${count(subject.findings.length)} on ${cell(report.instance)}, as of ${report.startedAt}.`,
    '',
    ...(subject.description ? [subject.description, ''] : []),
    '| Policy | Severity | Resource | Finding | Owner |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n') + more;
}

function subjectsOf(report: Report, by: IssuesBy): Subject[] {
  const violations = report.findings.filter((f) => f.status === 'violation');
  if (by === 'policy') {
    // A report of several instances holds a result per policy and instance: one issue each policy.
    const results = new Map<string, PolicyResult[]>();
    for (const p of report.policies) (results.get(p.id) ?? results.set(p.id, []).get(p.id)!).push(p);
    const byPolicy = new Map<string, Finding[]>();
    for (const f of violations) (byPolicy.get(f.policy) ?? byPolicy.set(f.policy, []).get(f.policy)!).push(f);
    return [...results.values()].map((each) => {
      const p = each[0]!;
      return {
        key: p.id,
        title: `steward: ${p.title} (${p.id})`,
        lead: `**${cell(p.title)}** (\`${p.id}\`, ${p.severity})`,
        description: p.description,
        labels: [ISSUE_LABEL, `severity:${p.severity}`],
        findings: byPolicy.get(p.id) ?? [],
        // Only a policy that evaluated and passed (on every instance) closes its issue: an error is not a fix.
        mayClose: each.every((r) => r.status === 'pass'),
      };
    });
  }
  if (violations.some((f) => f.team === undefined)) {
    throw new InputError([{ file: '--by team', line: 0, column: 0, message: 'issues by team need a report of a run with an owners: map (its findings carry no team)' }]);
  }
  const teams = new Map<string, Finding[]>();
  for (const f of violations) {
    const team = f.team ?? NO_TEAM;
    (teams.get(team) ?? teams.set(team, []).get(team)!).push(f);
  }
  const mayClose = teamIssuesMayClose(report);
  return [...teams].map(([team, findings]) => ({
    key: team,
    title: team === NO_TEAM ? 'steward: findings routed to no team' : `steward: findings of team ${team}`,
    lead: team === NO_TEAM ? 'Findings no `owners:` rule routes' : `Findings routed to team **${cell(team)}**`,
    description: '',
    labels: [ISSUE_LABEL, ...(team === NO_TEAM ? [] : [`team:${team}`.slice(0, 50)])],
    findings,
    mayClose,
  }));
}

export async function syncIssues(given: Report, options: IssuesSyncOptions): Promise<IssuesSyncOutcome> {
  const report = options.secrets.redactJson(given);
  const by = options.by ?? 'policy';
  const [owner, repo] = options.repository.split('/');
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY must be owner/repo, got "${options.repository}"`);
  const subjects = subjectsOf(report, by);
  // Loaded here: only this command needs the GitHub client.
  const { Octokit } = await import('@octokit/rest');
  // Stryker disable next-line StringLiteral: the default host is never reached by a test
  const octokit = new Octokit({ auth: options.token, baseUrl: options.apiUrl ?? 'https://api.github.com', userAgent: 'steward' });
  const existing = new Map<string, { number: number; state: string; body: string }>();
  for (const issue of await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, labels: ISSUE_LABEL, state: 'all', per_page: 100 })) {
    // Stryker disable next-line StringLiteral: an issue without a body has no marker either way
    const found = MARKER.exec(issue.body ?? '');
    if (!found || found[1] !== by || issue.pull_request) continue;
    const key = by === 'team' ? decodeURIComponent(found[2]) : found[2];
    // Stryker disable next-line StringLiteral: an issue kept here has a marker, so a body
    if (!existing.has(key)) existing.set(key, { number: issue.number, state: issue.state, body: issue.body ?? '' });
  }
  const outcome: IssuesSyncOutcome = { opened: [], updated: [], reopened: [], closed: [], unchanged: [] };
  // By team, an issue whose team has no finding any more is a subject with none.
  const keys = new Set(subjects.map((x) => x.key));
  // Stryker disable next-line StringLiteral,ArrayDeclaration: a subject with no finding is only closed: its title, lead and labels are never written
  const gone = by === 'team' ? [...existing.keys()].filter((k) => !keys.has(k)).map((key) => ({ key, title: '', lead: '', description: '', labels: [], findings: [], mayClose: teamIssuesMayClose(report) })) : [];
  for (const subject of [...subjects, ...gone]) {
    const { findings } = subject;
    const issue = existing.get(subject.key);
    const what = by === 'team' ? `team ${subject.key}` : `\`${subject.key}\``;
    if (findings.length === 0) {
      if (issue?.state === 'open' && subject.mayClose) {
        await octokit.rest.issues.createComment({ owner, repo, issue_number: issue.number, body: `Fixed: no open finding of ${what} as of ${report.startedAt}.` });
        await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, state: 'closed', state_reason: 'completed' });
        outcome.closed.push(issue.number);
      }
      continue;
    }
    const body = bodyOf(by, subject, report);
    if (!issue) {
      const created = await octokit.rest.issues.create({ owner, repo, title: subject.title, body, labels: subject.labels });
      outcome.opened.push(created.data.number);
    } else if (issue.state !== 'open') {
      await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, state: 'open', body });
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue.number, body: `Reopened: ${count(findings.length)} of ${what} as of ${report.startedAt}.` });
      outcome.reopened.push(issue.number);
    } else if (SET.exec(issue.body)?.[1] !== setHash(findings, report)) {
      await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, body });
      outcome.updated.push(issue.number);
    } else {
      outcome.unchanged.push(subject.key);
    }
  }
  return outcome;
}

/**
 * Whether a team's issue may close on this report: a team's findings may hide behind any policy
 * in error, and a run that was stopped or evaluated nothing saw none of them (its policies are
 * skipped, not in error), so none closes then.
 */
function teamIssuesMayClose(report: Report): boolean {
  return !report.policies.some((p) => p.status === 'error') && !report.stoppedBy?.length && report.summary.resources > 0;
}
