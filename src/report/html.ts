// `--output html=FILE`: one self-contained page (inline style, script and SVG; nothing fetched)
// for people: verdict, counts, the trend of the last runs, findings per policy with lifecycle
// and age, waivers (those ending soon marked), frameworks, overrides and coverage.
import { type Finding, type PolicyResult, type Report, type WaiverRef, waiverKey } from '../core/model.js';
import { ownerGroup, ownerLabel } from '../core/owner.js';
import { compareText } from '../core/order.js';
import { type FindingGroup, type Formatter, type GroupBy, ageInDays, daysLeft, errorGroups, errorSubject, findingSubject, groupFindings, groupingOf, locationText, plural, sortFindings, SEVERITY_ORDER, verdictCounts, PARTIAL_COVERAGE_TITLE, attentionSections, trendsOf, waiverInstances, waiverTarget } from './formatter.js';
import { controlGrid, kpiTiles, policyAnchor, policyGrid } from './html-dashboard.js';
import { HTML_SCRIPT, HTML_STYLE, htmlCsp } from './html-assets.js';
import { escapeHtml as e } from './html-escape.js';
import { trendSvg } from './trend-chart.js';

type Cell = string | { html: string; sort?: string | number; className?: string };

function cell(c: Cell, tag: 'td' | 'th' = 'td'): string {
  if (typeof c === 'string') return `<${tag}>${e(c)}</${tag}>`;
  const sort = c.sort === undefined ? '' : ` data-sort="${e(String(c.sort))}"`;
  const cls = c.className ? ` class="${e(c.className)}"` : '';
  return `<${tag}${cls}${sort}>${c.html}</${tag}>`;
}

const num = (n: number): Cell => ({ html: String(n), sort: n, className: 'num' });

/** A table with a caption and column headers; `sortable` adds header buttons for the script. */
function table(caption: string, head: string[], rows: { cells: Cell[]; attrs?: string }[], sortable = false, className = ''): string {
  return tableOfRows(caption, head, rows.map((r) => `<tr${r.attrs ?? ''}>${r.cells.map((c) => cell(c)).join('')}</tr>`), sortable, className);
}

/** The same, over rows already written (the findings' rows, written straight to text). */
function tableOfRows(caption: string, head: string[], rows: string[], sortable = false, className = ''): string {
  const th = head.map((h) => `<th scope="col">${sortable ? `<button type="button">${e(h)}</button>` : e(h)}</th>`).join('');
  const classes = [sortable ? 'sortable' : '', className].filter(Boolean).join(' ');
  return `<table${classes ? ` class="${classes}"` : ''}><caption class="meta">${e(caption)}</caption><thead><tr>${th}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function trendSection(report: Report): string {
  const trends = trendsOf(report);
  if (trends.length === 0) return '';
  const figures = trends.map(({ instance, file, trend }, i) => {
    const rows = trend.map((t) => ({ cells: [String(t.run), t.startedAt, t.gate, num(t.violations), ...SEVERITY_ORDER.map((s) => num(t.bySeverity?.[s] ?? 0)), num(t.new), num(t.reopened), num(t.fixed)] }));
    // A report of several instances: one chart each, under its name (each has its own history).
    const heading = instance === null ? '' : `<h3 id="trend-${i}">${e(instance)}</h3>`;
    return `${heading}<figure>${trendSvg(trend)}<figcaption class="meta">Violations per run by severity, last ${trend.length} runs of ${e(instance ?? report.instance)} (history ${e(file)})</figcaption></figure>
<details><summary>Runs as a table</summary>${table(`The runs of the chart${instance === null ? '' : ` of ${instance}`}`, ['Run', 'Started', 'Verdict', 'Violations', ...SEVERITY_ORDER, 'New', 'Reopened', 'Fixed'], rows)}</details>`;
  });
  return `<section aria-labelledby="trend-h"><h2 id="trend-h">Trend</h2>${figures.join('\n')}</section>`;
}

/**
 * One finding's row, written straight to text (a report can hold 100,000): its data attributes
 * for the script's filters, then severity, resource, message, location, status, lifecycle, age
 * and owner; `data-sort` where a column sorts by something other than its text.
 */
function findingRow(f: Finding, startedAt: number): string {
  const age = f.firstSeen ? ageInDays(f.firstSeen, startedAt) : null;
  const status = f.status === 'waived' && f.waiver ? `waived (${f.waiver.owner}, until ${f.waiver.expires})` : f.status;
  const owner = [f.team ? `team ${f.team}` : '', ownerLabel(f)].filter(Boolean).join(' · ');
  const rank = String(SEVERITY_ORDER.length - SEVERITY_ORDER.indexOf(f.severity));
  const severity = e(f.severity);
  const lifecycle = e(f.lifecycle ?? '');
  const subject = e(findingSubject(f));
  const data = `data-severity="${severity}" data-rank="${rank}" data-status="${e(f.status)}" data-lifecycle="${lifecycle}" data-owner="${e(ownerGroup(f))}" data-policy="${e(f.policy)}" data-fingerprint="${e(f.fingerprint)}"`;
  const row = (
    `<tr class="finding" ${data}>` +
    `<td class="sev sev-${severity}" data-sort="${rank}">${severity}</td>` +
    `<td data-sort="${subject}"><code>${subject}</code></td>` +
    `<td>${e(f.message)}</td><td>${e(locationText(f.location))}</td><td>${e(status)}</td>` +
    `<td${f.lifecycle ? ` class="lifecycle-${lifecycle}"` : ''}>${lifecycle}</td>` +
    (age === null ? '<td></td>' : `<td class="num" data-sort="${age}">${age}</td>`) +
    (owner ? `<td>${e(owner)}</td>` : `<td><span class="meta">${e(f.ownerUnknown ? `unknown: ${f.ownerUnknown}` : '')}</span></td>`) +
    '</tr>'
  );
  return flattened(row);
}

/** A RegExp reads only flat strings: testing one flattens it where it stands. */
const ROW_START = /^</;

/**
 * The row as one flat string, made now while its ~20 pieces are young garbage: 100,000 rows
 * joined as ropes made every piece survive to the old generation, and the HTML report cost 1.7–1.9×
 * the JSON report instead of 1.1–1.3× (BENCHMARKS.md §6; `charCodeAt` flattened on Node 20 only).
 */
function flattened(row: string): string {
  ROW_START.test(row);
  return row;
}

const FINDING_COLUMNS = ['Severity', 'Resource', 'Message', 'Location', 'Status', 'Lifecycle', 'Age (days)', 'Owner'];

/** A group's heading: the policy (severity, title, what it asks) or the owner or instance. */
function groupHead(g: FindingGroup, policies: ReadonlyMap<string, PolicyResult>, by: GroupBy): string {
  const p = by === 'policy' ? policies.get(g.key) : undefined;
  if (!p) return `<h3 id="${e(`${by}-${g.key}`)}">${e(g.title)}</h3><p class="meta">${e(plural(g.findings.length, 'finding'))}</p>`;
  const title = `${p.id}${p.title ? `: ${p.title}` : ''}`;
  const head = `<h3 id="${e(policyAnchor(p.id))}"><span class="sev sev-${e(p.severity)}">${e(p.severity)}</span> ${e(title)}</h3>`;
  return `${head}<p class="meta">${e(p.resource)} · ${p.evaluated} evaluated · ${p.violations} violations · ${e(p.enforcement)}${p.location ? ` · ${e(locationText(p.location))}` : ''}</p>`;
}

function select(id: string, label: string, options: readonly (readonly [value: string, text: string])[]): string {
  return `<label>${e(label)}<select id="${id}">${options.map(([v, t]) => `<option value="${e(v)}">${e(t)}</option>`).join('')}</select></label>`;
}

/** Filters (severity at least, status, lifecycle, owner, policy, text); the script shows them and keeps their state in the URL hash. */
function filters(findings: readonly Finding[]): string {
  const owners = [...new Set(findings.map(ownerGroup))].sort();
  const policies = [...new Set(findings.map((f) => f.policy))].sort();
  return `<div id="filters" class="filters hidden" role="search">${[
    `<label>Text<input id="filter-text" type="search"></label>`,
    select('filter-severity', 'Severity at least', [['', 'all'], ...[...SEVERITY_ORDER].map((s) => [s, s] as const)]),
    select('filter-status', 'Status', [['', 'all'], ['violation', 'violation'], ['waived', 'waived']]),
    select('filter-lifecycle', 'Lifecycle', [['', 'all'], ['new', 'new'], ['open', 'open'], ['reopened', 'reopened']]),
    select('filter-owner', 'Owner', [['', 'all'], ...owners.map((o) => [o, o] as const)]),
    select('filter-policy', 'Policy', [['', 'all'], ...policies.map((p) => [p, p] as const)]),
  ].join('')}<p id="filter-count" class="meta" aria-live="polite"></p></div>`;
}

function findingsSection(report: Report, by: GroupBy): string {
  const findings = sortFindings(report.findings.filter((x) => x.status !== 'error'));
  const policies = new Map(report.policies.map((p) => [p.id, p]));
  const groups = groupFindings(findings, report, by);
  const startedAt = Date.parse(report.startedAt);
  const body = groups.length
    ? groups.map((g) => `<div class="policy-findings finding-group">${groupHead(g, policies, by)}${tableOfRows(`Findings: ${g.title}`, FINDING_COLUMNS, g.findings.map((f) => findingRow(f, startedAt)), true)}</div>`).join('\n')
    : '<p>No findings.</p>';
  return `<section aria-labelledby="findings-h"><h2 id="findings-h">Findings${by === 'policy' ? '' : ` by ${by}`}</h2>${filters(findings)}<p id="no-match" class="hidden">No finding matches the filters.</p>${body}</section>`;
}

function errorsSection(report: Report): string {
  const groups = errorGroups(report);
  if (groups.length === 0) return '';
  const items = groups.map((g) => {
    const subject = errorSubject(g);
    return `<li><code>${e(g.policy)}</code>: ${subject ? `${e(subject)}: ` : ''}${e(g.message)}</li>`;
  });
  return `<section aria-labelledby="errors-h"><h2 id="errors-h">Could not evaluate (the gate fails closed)</h2><ul>${items.join('')}</ul></section>`;
}

function fixedSection(report: Report): string {
  const fixed = report.fixed ?? [];
  if (fixed.length === 0) return '';
  const rows = fixed.map((f) => ({ cells: [f.policy, { html: e(f.severity), className: `sev sev-${f.severity}` }, `${f.resource.kind}/${f.resource.id}`, f.message, f.firstSeen, f.fixedAt] }));
  return `<section aria-labelledby="fixed-h"><h2 id="fixed-h">Fixed since the previous run</h2>${table('Findings gone since the previous run', ['Policy', 'Severity', 'Resource', 'Message', 'First seen', 'Fixed'], rows)}</section>`;
}


function waiverRow(w: WaiverRef, report: Report, soon: boolean): { cells: Cell[]; attrs: string } {
  const expiry = soon ? `${w.expires} (ends in ${daysLeft(w, report.startedAt)} days)` : w.expires;
  return {
    attrs: soon ? ' class="expiring"' : '',
    cells: [w.policy, w.resource + (w.item ? ` ${w.item}` : '') + waiverInstances(w), w.owner, expiry, w.reason, w.approver ?? '', w.ticket ?? '', w.risk ?? ''],
  };
}

function waiversSection(report: Report): string {
  const { active, expiring, expired, stale } = report.waivers;
  if (active.length + expired.length + stale.length === 0) return '';
  const soon = new Set(expiring.map(waiverKey));
  const rows = active.map((w) => waiverRow(w, report, soon.has(waiverKey(w))));
  const cols = ['Policy', 'Resource', 'Owner', 'Expires', 'Reason', 'Approver', 'Ticket', 'Risk'];
  const other = [...expired.map((w) => `expired ${w.expires}: ${waiverTarget(w)}`), ...stale.map((w) => `stale (matched nothing): ${waiverTarget(w)}`)];
  return `<section aria-labelledby="waivers-h"><h2 id="waivers-h">Waivers</h2>${table('Active waivers; those ending within the warning window are marked', cols, rows)}${
    other.length ? `<ul>${other.map((o) => `<li>${e(o)}</li>`).join('')}</ul>` : ''
  }</section>`;
}

function governanceSection(report: Report): string {
  const parts: string[] = [];
  for (const fw of report.frameworks) {
    const rows = fw.controls.map((c) => ({ cells: [c.id, c.status, c.policies.join(', ')] }));
    parts.push(table(`${fw.name} controls`, ['Control', 'Status', 'Policies'], rows));
  }
  if (report.overrides.length) {
    parts.push(`<h3>Overridden soft policies</h3><ul>${report.overrides.map((o) => `<li><code>${e(o.policy)}</code>: ${e(o.reason)}</li>`).join('')}</ul>`);
  }
  return parts.length ? `<section aria-labelledby="gov-h"><h2 id="gov-h">Frameworks and overrides</h2>${parts.join('')}</section>` : '';
}

function attentionSection(report: Report): string {
  return attentionSections(report)
    .map(({ title, notes }) => {
      const id = title === PARTIAL_COVERAGE_TITLE ? 'partial-h' : 'token-h';
      return `<section aria-labelledby="${id}"><h2 id="${id}">${e(title)}</h2><ul>${notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></section>`;
    })
    .join('');
}

function coverageSection(report: Report): string {
  const kinds = new Map<string, Set<string>>();
  for (const p of report.policies) {
    const ids = kinds.get(p.resource) ?? new Set<string>();
    for (const id of p.resourceIds) ids.add(id);
    kinds.set(p.resource, ids);
  }
  const rows = [...kinds].sort(([a], [b]) => compareText(a, b)).map(([kind, ids]) => ({ cells: [kind, num(ids.size)] }));
  const h = report.http;
  return `<section aria-labelledby="coverage-h"><h2 id="coverage-h">Coverage</h2>${table('Resources evaluated per kind', ['Kind', 'Resources'], rows, false, 'compact')}
<p>${h.requests} requests, ${h.retries} retries, ${h.failed} failed · ${report.summary.errors} evaluation errors · ${report.summary.policies} policies · ${report.durationMs} ms</p></section>`;
}

export const formatHtml: Formatter = (report, options) => {
  const gate = report.summary.gate;
  const withFindings = new Set(report.findings.filter((f) => f.status !== 'error').map((f) => f.policy));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlCsp()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>steward report: ${e(report.instance)} (${e(report.startedAt)})</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header>
<h1>steward report</h1>
<p><span class="verdict ${gate}">${e(gate)}</span> ${e(verdictCounts(report))}</p>
<p class="meta">Instance ${e(report.instance)} · started ${e(report.startedAt)} · fail-on ${e(report.failOn)} · steward ${e(report.tool.version)}</p>
</header>
<main>
${kpiTiles(report)}
${errorsSection(report)}
${attentionSection(report)}
${trendSection(report)}
${policyGrid(report, groupingOf(report, options.groupBy) === 'policy' ? withFindings : new Set())}
${controlGrid(report)}
${findingsSection(report, groupingOf(report, options.groupBy))}
${fixedSection(report)}
${waiversSection(report)}
${governanceSection(report)}
${coverageSection(report)}
</main>
<footer class="meta">Generated by steward ${e(report.tool.version)}. This file fetches nothing; the findings are also in the JSON report.</footer>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
};
