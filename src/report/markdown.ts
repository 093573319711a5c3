// `--format markdown`: GitHub-flavoured markdown for job summaries and PR comments: verdict,
// counts by severity, policy errors, a findings table, waiver problems, the baseline.
// Everything that comes from the instance or a policy (names, messages, ids) is escaped, so
// a message cannot break the table or inject HTML. `renderMarkdown(report, maxBytes)` drops
// findings rows past a byte budget and says so (GitHub caps a job summary at 1 MiB).
import { reportWithVisibleControls } from './visible-controls.js';
import { CATCH_ALL_TITLE, errorGroups, errorSubject, type FindingGroup, type FormatOptions, type Formatter, fixedText, type GroupBy, groupFindings, groupingOf, historyText, resolvedText, SEVERITY_ORDER, findingSubject, locationText, sortFindings, trendsOf, verdictCounts, waiverTarget, attentionSections } from './formatter.js';
import type { Finding, PolicyResult, Report, WaiverRef } from '../core/model.js';
import { resolvedEntriesOf } from '../core/model.js';
import { ownerLabel } from '../core/owner.js';
import { blobLink, findingFileLocation, insideRoot } from './repo-location.js';

/** Budget the Action uses for its job summary: under GitHub's 1 MiB with room for a header. */
export const JOB_SUMMARY_MAX_BYTES = 1024 * 1024 - 24 * 1024;

/**
 * Escape text for a GFM table cell: markdown syntax, HTML, pipes, line breaks; and text from the
 * instance can neither mention nor link. A mention is an `@` after anything but a word
 * character (`.@name` too): it gets a zero-width space, since GitHub finds mentions in the
 * rendered text, after escapes are gone. GFM's autolinks (a scheme's `://`, `www.`, an email's
 * `@`) are triggered while parsing, so a backslash escape of that character stops them.
 */
export function escapeCell(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~#!])/g, '\\$1')
    .replace(/(?<!\w)@(?=\w)/g, '@\u200B')
    .replace(/(?<=\w)@(?=\w)/g, '\\@')
    .replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1\\://')
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\\.`)
    .replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * A path or location as a GFM code span: copyable as is (no escapes, no zero-width characters;
 * GitHub finds no mentions or links inside code), fenced by a backtick run longer than any in it.
 * Inside a table a pipe still ends the cell, so it alone is escaped (GFM drops that backslash).
 */
export function codeSpan(s: string): string {
  const text = s.replace(/\r\n|\r|\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

const ICON = { pass: '✅', fail: '❌', error: '⚠️' } as const;
const STATUS = { violation: 'violation', waived: 'waived', error: 'error' } as const;

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function head(report: Report): string[] {
  const s = report.summary;
  const lines = [
    `### ${ICON[s.gate]} steward: ${escapeCell(verdictCounts(report))}`,
    '',
    `Instance ${escapeCell(report.instance)} · fail-on \`${report.failOn}\` · ${s.resources} resources · ${s.checks} checks · steward ${escapeCell(report.tool.version)}`,
    '',
    '| Severity | Violations |',
    '| --- | ---: |',
    ...SEVERITY_ORDER.map((sev) => `| ${sev} | ${s.bySeverity[sev] ?? 0} |`),
    `| waived | ${s.waived} |`,
    `| errors | ${s.errors} |`,
  ];
  // Evaluation errors once per cause (a policy failing on every resource is one line), so
  // they stay out of the findings table.
  const groups = errorGroups(report);
  if (groups.length > 0) {
    lines.push('', '**Could not evaluate**', '');
    for (const g of groups) {
      const subject = errorSubject(g);
      const place = g.location && insideRoot(g.location) ? g.location : null;
      lines.push(
        `- \`${g.policy}\`: ${subject ? `${escapeCell(subject)}: ` : ''}${escapeCell(g.message)}${place ? ` (${codeSpan(locationText(place))})` : ''}`,
      );
    }
  }
  return lines;
}

/** A row's location: the finding's file in the repository (repo-location.ts), a link to it at the commit when known. */
function row(f: Finding, policies: ReadonlyMap<string, PolicyResult>, options: FormatOptions): string {
  const place = findingFileLocation(f, policies.get(f.policy));
  const span = place ? codeSpan(locationText(place)) : '';
  const loc = place && options.blobUrl ? `[${span}](${blobLink(place, options.blobUrl, options)})` : span;
  const status =
    f.status === 'waived' && f.waiver
      ? `waived: ${f.waiver.reason} (${f.waiver.owner}, until ${f.waiver.expires})`
      : STATUS[f.status];
  const baseline = [f.baseline, f.lifecycle].filter(Boolean).map((b) => ` (${b})`).join('');
  const owner = [f.team ? `team ${f.team}` : '', ownerLabel(f)].filter(Boolean).join(' · ');
  return `| ${escapeCell(f.policy)} | ${f.severity} | ${codeSpan(findingSubject(f))} | ${escapeCell(f.message)} | ${escapeCell(owner)} | ${loc} | ${escapeCell(status)}${baseline} |`;
}

const TABLE_HEAD = ['| Policy | Severity | Resource | Message | Owner | Location | Status |', '| --- | --- | --- | --- | --- | --- | --- |'];

/** A group's summary line: the policy with its severity and title, or the owner or instance. */
function groupSummary(g: FindingGroup, policies: ReadonlyMap<string, PolicyResult>, by: GroupBy): string {
  const count = `${g.findings.length} finding${g.findings.length === 1 ? '' : 's'}`;
  const policy = by === 'policy' ? policies.get(g.key) : undefined;
  if (policy) return `<code>${escapeCell(policy.id)}</code> · ${policy.severity} · ${escapeCell(policy.title)} · ${count}`;
  return `${escapeCell(g.title)} · ${count}`;
}

/** The findings rows under their groups, each a collapsible `<details>` with its own table. */
function groupedTables(findings: readonly Finding[], rows: ReadonlyMap<Finding, string>, report: Report, policies: ReadonlyMap<string, PolicyResult>, by: GroupBy): string[] {
  return groupFindings(findings, report, by).flatMap((g) => ['', '<details>', `<summary>${groupSummary(g, policies, by)}</summary>`, '', ...TABLE_HEAD, ...g.findings.map((f) => rows.get(f)!), '', '</details>']);
}

function waiverList(title: string, waivers: WaiverRef[], verb: string): string[] {
  if (waivers.length === 0) return [];
  return [
    '',
    `**${title}**`,
    '',
    ...waivers.map(
      (w) =>
        `- ${escapeCell(waiverTarget(w))} ${verb} ${escapeCell(w.expires)} (${escapeCell(w.owner)})${w.location ? ` at ${codeSpan(locationText(w.location))}` : ''}`,
    ),
  ];
}

const CONTROL_ICON = { pass: '✅ pass', fail: '❌ fail', error: '⚠️ error', 'not-evaluated': '➖ not evaluated' } as const;

/** One table per framework: control, status, the policies mapped to it. */
function frameworkTables(report: Report): string[] {
  return report.frameworks.flatMap((f) => [
    '',
    `**${escapeCell(f.name)} controls**`,
    '',
    '| Control | Status | Policies |',
    '| --- | --- | --- |',
    ...f.controls.map((c) => `| ${escapeCell(c.id)} | ${CONTROL_ICON[c.status]} | ${c.policies.map((p) => `\`${p}\``).join(', ')} |`),
  ]);
}

/** Every waiver in force: who owns and approved it, what records it, until when. */
function activeWaivers(waivers: WaiverRef[]): string[] {
  if (waivers.length === 0) return [];
  const cell = (v: string | undefined) => (v === undefined ? '' : escapeCell(v));
  return [
    '',
    '**Active waivers**',
    '',
    '| Waiver | Owner | Expires | Approver | Ticket | Risk | Reason |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...waivers.map((w) => `| ${escapeCell(waiverTarget(w))} | ${escapeCell(w.owner)} | ${escapeCell(w.expires)} | ${cell(w.approver)} | ${cell(w.ticket)} | ${cell(w.risk)} | ${escapeCell(w.reason)} |`),
  ];
}

/** A Mermaid line chart of violations per run (GitHub renders it in job summaries): one per instance of a fleet report. */
export function mermaidTrend(report: Report): string[] {
  return trendsOf(report).flatMap(({ instance, trend }) => {
    if (trend.length < 2) return [];
    const top = Math.max(1, ...trend.map((t) => t.violations));
    return [
      '',
      '```mermaid',
      'xychart-beta',
      `  title "Violations per run${instance === null ? '' : ` of ${instance.replace(/[^\w .:-]/g, '')}`}"`,
      `  x-axis [${trend.map((t) => `"#${t.run}"`).join(', ')}]`,
      `  y-axis "violations" 0 --> ${top}`,
      `  line [${trend.map((t) => t.violations).join(', ')}]`,
      '```',
    ];
  });
}

function historySection(report: Report): string[] {
  const text = historyText(report);
  if (!text) return [];
  const fixed = (report.fixed ?? []).map((f) => `- fixed: ${escapeCell(fixedText(f))}`);
  return ['', `**${escapeCell(text)}**`, ...(fixed.length ? ['', ...fixed] : []), ...mermaidTrend(report)];
}

function tail(report: Report): string[] {
  const lines = [
    ...historySection(report),
    ...frameworkTables(report),
    ...(report.overrides.length > 0
      ? ['', '**Overridden soft policies** (their violations do not fail this run)', '', ...report.overrides.map((o) => `- \`${o.policy}\`: ${escapeCell(o.reason)}`)]
      : []),
    ...attentionSections(report).flatMap(({ title, notes }) => ['', `**${title}**`, '', ...notes.map((n) => `- ${escapeCell(n)}`)]),
    ...waiverList('Expired waivers (no longer apply)', report.waivers.expired, 'expired'),
    ...waiverList('Stale waivers (matched no finding)', report.waivers.stale, 'until'),
    ...waiverList(CATCH_ALL_TITLE, report.waivers.catchAll, 'until'),
    ...waiverList('Waivers ending soon (renew them or fix the findings)', report.waivers.expiring, 'until'),
    ...activeWaivers(report.waivers.active),
  ];
  if (report.baseline) {
    const n = (b: Finding['baseline']) => report.findings.filter((f) => f.baseline === b).length;
    lines.push(
      '',
      `Baseline ${escapeCell(report.baseline.file)}: ${n('new')} new, ${n('known')} known, ${report.baseline.resolved.length} resolved.`,
    );
    const resolved = resolvedEntriesOf(report.baseline);
    if (resolved.length > 0) lines.push('', ...resolved.map((e) => `- resolved: ${escapeCell(resolvedText(e, report))}`));
  }
  return lines;
}

function truncationNote(shown: number, total: number): string {
  return `\n_Showing ${shown} of ${total} findings to stay within the size limit; the JSON or SARIF report has them all._`;
}

/** The markdown report, at most `maxBytes` UTF-8 bytes when given (findings rows are dropped first). */
export function renderMarkdown(raw: Report, maxBytes?: number, options: FormatOptions = { color: false }): string {
  // A job summary or a terminal shows it: API text's controls and bidi overrides as escapes.
  const report = reportWithVisibleControls(raw);
  const findings = sortFindings(report.findings.filter((f) => f.status !== 'error'));
  const policies = new Map(report.policies.map((p) => [p.id, p]));
  const rows = new Map(findings.map((f) => [f, row(f, policies, options)]));
  const by = groupingOf(report, options.groupBy);
  const tables = (shown: number) => groupedTables(findings.slice(0, shown), rows, report, policies, by);
  const top = head(report);
  const table = findings.length > 0 ? tables(findings.length) : ['', '_No findings._'];
  const full = `${[...top, ...table, ...tail(report)].join('\n')}\n`;
  if (maxBytes === undefined || bytes(full) <= maxBytes) return full;

  // Keep the head and as many rows as fit (binary search on the row count); the tail goes
  // too if even the head, the tail and no rows do not fit.
  for (const end of [tail(report), []]) {
    const compose = (shown: number) => `${[...top, ...tables(shown), truncationNote(shown, findings.length), ...end].join('\n')}\n`;
    if (bytes(compose(0)) > maxBytes) continue;
    let lo = 0;
    let hi = findings.length - 1; // `full` did not fit, so not every row does
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (bytes(compose(mid)) <= maxBytes) lo = mid;
      else hi = mid - 1;
    }
    return compose(lo);
  }
  // A budget smaller than the head: cut at a character boundary.
  const buf = Buffer.from(full, 'utf8').subarray(0, maxBytes);
  return buf.toString('utf8').replace(/\uFFFD$/, '');
}

export const formatMarkdown: Formatter = (report, options) => renderMarkdown(report, undefined, options);
