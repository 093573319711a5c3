// The one shape every output format shares (Spectral style), and the small helpers several
// formatters need: severity order, labels, and the order findings are listed in.
import type { Finding, PolicyResult, Report, Severity, SourceLocation } from './model.js';

export interface FormatOptions {
  /** ANSI colour; the caller decides (a TTY and no NO_COLOR). Only `text` uses it. */
  color: boolean;
  /** Terminal width for `text`; defaults to TEXT_DEFAULT_WIDTH. */
  width?: number;
  /** Directory the report's relative paths are relative to (SARIF `originalUriBaseIds`). */
  cwd?: string;
}

export type Formatter = (report: Report, options: FormatOptions) => string;

/** Most severe first: the order every format lists things in. */
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

export function severityRank(s: Severity): number {
  return SEVERITY_ORDER.indexOf(s);
}

const STATUS_ORDER: Record<Finding['status'], number> = { violation: 0, error: 1, waived: 2 };

/** Violations, then errors, then waived; within each, most severe first; otherwise report order. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) =>
        STATUS_ORDER[a.f.status] - STATUS_ORDER[b.f.status] ||
        severityRank(a.f.severity) - severityRank(b.f.severity) ||
        a.i - b.i,
    )
    .map(({ f }) => f);
}

/** Policies most severe first, report order within a severity. */
export function sortPolicies(policies: readonly PolicyResult[]): PolicyResult[] {
  return policies
    .map((p, i) => ({ p, i }))
    .sort((a, b) => severityRank(a.p.severity) - severityRank(b.p.severity) || a.i - b.i)
    .map(({ p }) => p);
}

/** `queue/q-finance-intake` */
export function resourceLabel(f: Finding): string {
  return `${f.resource.kind}/${f.resource.id}`;
}

/** `queue/q-finance-intake permissions[0]` */
export function findingSubject(f: Finding): string {
  return f.path ? `${resourceLabel(f)} ${f.path}` : resourceLabel(f);
}

/** `file:line:column`, or `file` alone when the line is unknown. */
export function locationText(loc: SourceLocation | null | undefined): string {
  if (!loc) return '';
  if (!(loc.line > 0)) return loc.file;
  return loc.column > 0 ? `${loc.file}:${loc.line}:${loc.column}` : `${loc.file}:${loc.line}`;
}

/** `1 violation` / `2 violations` */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** `2 critical, 3 high` from the summary's bySeverity, non-zero entries only. */
export function severityBreakdown(report: Report): string {
  return SEVERITY_ORDER.filter((s) => (report.summary.bySeverity[s] ?? 0) > 0)
    .map((s) => `${report.summary.bySeverity[s]} ${s}`)
    .join(', ');
}

/**
 * The verdict in words, shared by text and markdown:
 * `fail: 12 violations (2 critical, 10 high), 1 waived, 0 errors in 14 policies`.
 */
export function verdictCounts(report: Report): string {
  const s = report.summary;
  const breakdown = severityBreakdown(report);
  const violations = plural(s.violations, 'violation') + (breakdown ? ` (${breakdown})` : '');
  return `${s.gate}: ${violations}, ${s.waived} waived, ${plural(s.errors, 'error')} in ${plural(s.policies, 'policy', 'policies')}`;
}

/** Waiver target as written in a waiver file: `policy resource[#item]`. */
export function waiverTarget(w: { policy: string; resource: string; item?: string }): string {
  return `${w.policy} ${w.resource}${w.item !== undefined ? `#${w.item}` : ''}`;
}
