// GitHub issues kept in sync with a report (`steward issues sync --from REPORT.json`): one issue
// per policy with open findings, labelled `steward`, found again by a hidden marker; its body
// lists the open findings (with their owners) and carries the hash of their fingerprints, so a
// re-run with the same findings writes nothing. A policy that now passes closes its issue with a
// comment; one that fails again reopens it with a comment. A policy in error is left alone: an
// error is not a fix. Written with the maintained client (@octokit/rest), GITHUB_API_URL
// honoured (GitHub Enterprise Server).
import { createHash } from 'node:crypto';
import { ownerLabel } from '../core/owner.js';
import type { Finding, PolicyResult, Report } from '../core/model.js';

export const ISSUE_LABEL = 'steward';
/** Findings listed in an issue body; more are counted. */
export const ISSUE_MAX_FINDINGS = 50;

const marker = (policy: string) => `<!-- steward:policy=${policy} -->`;
const MARKER = /<!-- steward:policy=([a-z0-9-]+) -->/;
const SET = /<!-- steward:set=([0-9a-f]+) -->/;

export interface IssuesSyncOptions {
  token: string;
  /** `owner/repo`. */
  repository: string;
  /** The REST API root (GITHUB_API_URL); default https://api.github.com. */
  apiUrl?: string;
}

export interface IssuesSyncOutcome {
  opened: number[];
  updated: number[];
  reopened: number[];
  closed: number[];
  /** Policies whose issue already says what the report says. */
  unchanged: string[];
}

/** The fingerprints' hash: what the issue body records of the set it lists. */
function setHash(findings: readonly Finding[]): string {
  return createHash('sha256').update(findings.map((f) => f.fingerprint).sort().join('\n')).digest('hex').slice(0, 16);
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function bodyOf(policy: PolicyResult, findings: readonly Finding[], report: Report): string {
  const rows = findings.slice(0, ISSUE_MAX_FINDINGS).map((f) => {
    const owner = [f.team ? `team ${f.team}` : '', ownerLabel(f), f.owner?.state && f.owner.state !== 'active' ? `(${f.owner.state})` : ''].filter(Boolean).join(' ');
    return `| ${f.severity} | \`${cell(`${f.resource.kind}/${f.resource.id}${f.path ? ` ${f.path}` : ''}`)}\` | ${cell(f.message)} | ${cell(owner)} |`;
  });
  const more = findings.length > ISSUE_MAX_FINDINGS ? `\n\n…and ${findings.length - ISSUE_MAX_FINDINGS} more (the JSON report has them all).` : '';
  return [
    marker(policy.id),
    `<!-- steward:set=${setHash(findings)} -->`,
    `**${cell(policy.title)}** (\`${policy.id}\`, ${policy.severity}): ${findings.length} open finding${findings.length === 1 ? '' : 's'} on ${cell(report.instance)}, as of ${report.startedAt}.`,
    '',
    policy.description,
    '',
    '| Severity | Resource | Finding | Owner |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n') + more;
}

export async function syncIssues(report: Report, options: IssuesSyncOptions): Promise<IssuesSyncOutcome> {
  const [owner, repo] = options.repository.split('/');
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY must be owner/repo, got "${options.repository}"`);
  // Loaded here: only this command needs the GitHub client.
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({ auth: options.token, baseUrl: options.apiUrl ?? 'https://api.github.com', userAgent: 'steward' });
  const existing = new Map<string, { number: number; state: string; body: string }>();
  for (const issue of await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, labels: ISSUE_LABEL, state: 'all', per_page: 100 })) {
    const policy = MARKER.exec(issue.body ?? '')?.[1];
    if (policy && !issue.pull_request && !existing.has(policy)) existing.set(policy, { number: issue.number, state: issue.state, body: issue.body ?? '' });
  }
  const outcome: IssuesSyncOutcome = { opened: [], updated: [], reopened: [], closed: [], unchanged: [] };
  for (const policy of report.policies) {
    const findings = report.findings.filter((f) => f.policy === policy.id && f.status === 'violation');
    const issue = existing.get(policy.id);
    if (findings.length === 0) {
      // Only a policy that evaluated and passed closes its issue: an error is not a fix.
      if (issue?.state === 'open' && policy.status === 'pass') {
        await octokit.rest.issues.createComment({ owner, repo, issue_number: issue.number, body: `Fixed: no open finding of \`${policy.id}\` as of ${report.startedAt}.` });
        await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, state: 'closed', state_reason: 'completed' });
        outcome.closed.push(issue.number);
      }
      continue;
    }
    const body = bodyOf(policy, findings, report);
    if (!issue) {
      const created = await octokit.rest.issues.create({ owner, repo, title: `steward: ${policy.title} (${policy.id})`, body, labels: [ISSUE_LABEL, `severity:${policy.severity}`] });
      outcome.opened.push(created.data.number);
    } else if (issue.state !== 'open') {
      await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, state: 'open', body });
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue.number, body: `Reopened: ${findings.length} open finding${findings.length === 1 ? '' : 's'} of \`${policy.id}\` as of ${report.startedAt}.` });
      outcome.reopened.push(issue.number);
    } else if (SET.exec(issue.body)?.[1] !== setHash(findings)) {
      await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, body });
      outcome.updated.push(issue.number);
    } else {
      outcome.unchanged.push(policy.id);
    }
  }
  return outcome;
}
