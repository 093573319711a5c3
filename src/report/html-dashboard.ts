// The top of the HTML report, read at a glance: KPI tiles (verdict, violations by severity,
// policies passing and failing, coverage, changes since the previous run), the severity bar, and
// the pass/fail grids of every policy (passing ones too, with description and remediation) and of
// every framework control. Each tile's colour is also said in words (status text, aria labels).
import type { PolicyResult, Report } from '../core/model.js';
import { plural, SEVERITY_ORDER, sortPolicies } from './formatter.js';
import { escapeHtml as e } from './html-escape.js';

/** The anchor of a policy's findings (and of its tile's link). */
export const policyAnchor = (id: string) => `policy-${id}`;

function tile(label: string, value: string, detail: string, className = ''): string {
  return `<div class="tile${className ? ` ${className}` : ''}"><div class="tile-label">${e(label)}</div><div class="tile-value">${e(value)}</div><div class="tile-detail">${e(detail)}</div></div>`;
}

/** Policies per status, in the order people read them. */
function policyCounts(policies: readonly PolicyResult[]): Record<PolicyResult['status'], number> {
  const counts = { pass: 0, fail: 0, error: 0, skipped: 0 };
  for (const p of policies) counts[p.status] += 1;
  return counts;
}

export function kpiTiles(report: Report): string {
  const s = report.summary;
  const p = policyCounts(report.policies);
  const bySeverity = SEVERITY_ORDER.filter((sev) => (s.bySeverity[sev] ?? 0) > 0).map((sev) => `${s.bySeverity[sev]} ${sev}`);
  const coverage = report.coverage ?? [];
  const partial = coverage.filter((c) => c.partial).length;
  const evaluated = coverage.length > 0 ? coverage.reduce((n, c) => n + c.evaluated, 0) : s.resources;
  const h = report.history;
  const tiles = [
    tile('Verdict', s.gate, `fail-on ${report.failOn}`, `gate-${s.gate}`),
    tile('Violations', String(s.violations), bySeverity.join(', ') || 'none', s.violations > 0 ? 'bad' : 'good'),
    tile('Policies passing', `${p.pass} / ${report.policies.length}`, `${p.fail} failing, ${p.error} in error, ${p.skipped} skipped`, p.fail + p.error > 0 ? 'bad' : 'good'),
    tile('Coverage', String(evaluated), `resources evaluated in ${plural(coverage.length || new Set(report.policies.map((x) => x.resource)).size, 'kind')}${partial ? `, ${partial} partial` : ''}`, partial > 0 || s.errors > 0 ? 'warn' : ''),
    tile('Errors', String(s.errors), s.errors > 0 ? 'the gate fails closed' : 'every policy evaluated', s.errors > 0 ? 'warn' : 'good'),
    tile('Waived', String(s.waived), `${report.waivers.active.length} active waivers, ${report.waivers.expiring.length} ending soon`),
    ...(h ? [tile('Since the previous run', `+${h.new + h.reopened} / −${h.fixed}`, `${h.new} new, ${h.reopened} reopened, ${h.fixed} fixed`, h.new + h.reopened > 0 ? 'bad' : 'good')] : []),
  ];
  return `<section aria-labelledby="kpi-h"><h2 id="kpi-h" class="visually-hidden">At a glance</h2><div class="tiles">${tiles.join('')}</div>${severityBar(report)}</section>`;
}

/** Violations by severity as one bar, each severity's share its width (the numbers are in its label). */
function severityBar(report: Report): string {
  const s = report.summary;
  const total = SEVERITY_ORDER.reduce((n, sev) => n + (s.bySeverity[sev] ?? 0), 0);
  if (total === 0) return '<p class="meta">No violations.</p>';
  const parts = SEVERITY_ORDER.filter((sev) => (s.bySeverity[sev] ?? 0) > 0).map((sev) => {
    const n = s.bySeverity[sev];
    const share = Math.max(2, Math.round((n / total) * 1000) / 10);
    return `<div class="bar-part bar-${sev}" style="flex-grow:${share}" title="${n} ${sev}">${n} ${sev}</div>`;
  });
  const label = SEVERITY_ORDER.map((sev) => `${s.bySeverity[sev] ?? 0} ${sev}`).join(', ');
  return `<div class="severity-bar" role="img" aria-label="${e(`Violations by severity: ${label}`)}">${parts.join('')}</div>`;
}

const STATUS_WORD: Record<PolicyResult['status'], string> = { pass: 'pass', fail: 'fail', error: 'error', skipped: 'skipped' };

/** Every policy as a tile: its status, severity, violations of evaluated, and what it asks (with the remediation its description gives). */
export function policyGrid(report: Report, withFindings: ReadonlySet<string>): string {
  const tiles = sortPolicies(report.policies).map((p) => {
    const name = withFindings.has(p.id) ? `<a href="#${e(policyAnchor(p.id))}"><code>${e(p.id)}</code></a>` : `<code>${e(p.id)}</code>`;
    const counts = p.status === 'error' ? 'could not be evaluated' : p.status === 'skipped' ? 'checked nothing' : `${p.violations} of ${p.evaluated} violate`;
    return `<li class="policy-tile status-${p.status}" data-policy="${e(p.id)}" data-status="${p.status}"><div class="policy-head"><span class="badge status-${p.status}">${STATUS_WORD[p.status]}</span> <span class="sev sev-${e(p.severity)}">${e(p.severity)}</span> ${name}</div><div class="policy-title">${e(p.title)}</div><div class="meta">${e(p.resource)} · ${e(counts)}${p.enforcement !== 'hard' ? ` · ${e(p.enforcement)}` : ''}</div>${
      p.description ? `<details><summary>What it asks, and how to fix it</summary><p>${e(p.description)}</p></details>` : ''
    }</li>`;
  });
  const c = policyCounts(report.policies);
  return `<section aria-labelledby="policies-h"><h2 id="policies-h">Policies</h2><p class="meta">${c.pass} pass, ${c.fail} fail, ${c.error} error, ${c.skipped} skipped</p><ul class="grid policy-grid">${tiles.join('')}</ul></section>`;
}

/** Each framework's controls as a grid of tiles: pass, fail, error or not evaluated, with the policies mapped to each. */
export function controlGrid(report: Report): string {
  if (report.frameworks.length === 0) return '';
  const grids = report.frameworks.map((fw) => {
    const tiles = fw.controls.map(
      (c) => `<li class="control-tile status-${e(c.status)}" title="${e(c.policies.join(', '))}"><strong>${e(c.id)}</strong> <span class="badge status-${e(c.status)}">${e(c.status.replace('-', ' '))}</span></li>`,
    );
    return `<h3>${e(fw.name)}</h3><ul class="grid control-grid">${tiles.join('')}</ul>`;
  });
  return `<section aria-labelledby="controls-h"><h2 id="controls-h">Framework controls</h2>${grids.join('')}</section>`;
}
