// The one shape every output format shares (Spectral style), and the small helpers several
// formatters need: severity order, labels, and the order findings are listed in.
import { compareText, SEVERITY_ORDER, severityRank } from '../core/order.js';
import type { GroupBy } from './format-names.js';
import { OWNER_UNKNOWN, ownerGroup } from '../core/owner.js';
import { type Finding, type FixedFinding, type HistoryPoint, holdsSeveralInstances, instancePrefix, type PolicyResult, type Report, type ResolvedBaselineEntry, type Severity, type SourceLocation, type WaiverRef } from '../core/model.js';

export interface FormatOptions {
  /** ANSI colour; the caller decides (a TTY and no NO_COLOR). Only `text` uses it. */
  color: boolean;
  /** Terminal width for `text`; defaults to TEXT_DEFAULT_WIDTH. */
  width?: number;
  /** Directory the report's relative paths are relative to. */
  cwd?: string;
  /**
   * The repository root (git top level, or GITHUB_WORKSPACE) when it is above `cwd`: SARIF URIs
   * are relative to it, as code scanning maps them, whatever directory the run started in.
   */
  root?: string;
  /** `--group-by`: findings under their policy (default), their owner (team, else platform owner) or their instance. */
  groupBy?: GroupBy;
  /** `https://github.com/o/r/blob/<sha>`: locations become links to the file at the commit (markdown, HTML). */
  blobUrl?: string;
}

export { GROUP_BY, type GroupBy } from './format-names.js';

/** `--group-by` as asked, else by instance for a report of several, else by policy. */
export const groupingOf = (report: Pick<Report, 'instances'>, asked: GroupBy | undefined): GroupBy => asked ?? (holdsSeveralInstances(report) ? 'instance' : 'policy');

/** A heading findings are listed under, and its findings in listing order. */
export interface FindingGroup {
  key: string;
  title: string;
  findings: Finding[];
}

/**
 * `findings` (already in listing order) under their group: by policy in the policies' order, by
 * owner most findings first with `owner unknown` last, or all under the report's instance.
 */
export function groupFindings(findings: readonly Finding[], report: Pick<Report, 'policies' | 'instance' | 'instances'>, by: GroupBy = 'policy'): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  // A report of several instances names each finding's; one instance's report is all its own.
  const several = holdsSeveralInstances(report) ? new Map(report.instances!.map((i) => [i.name, i.url])) : null;
  const keyOf = by === 'policy' ? (f: Finding) => f.policy : by === 'owner' ? ownerGroup : (f: Finding) => (several ? (f.instance ?? report.instance) : report.instance);
  const titleOf = (key: string) => (by !== 'instance' ? key : several?.has(key) ? `instance ${key} (${several.get(key)})` : `instance ${key}`);
  for (const f of findings) {
    const key = keyOf(f);
    const group = groups.get(key);
    if (group) group.findings.push(f);
    else groups.set(key, { key, title: titleOf(key), findings: [f] });
  }
  const list = [...groups.values()];
  if (by === 'policy') {
    const rank = new Map(sortPolicies(report.policies).map((p, i) => [p.id, i]));
    return list.sort((a, b) => (rank.get(a.key) ?? rank.size) - (rank.get(b.key) ?? rank.size));
  }
  if (by === 'instance' && several) {
    const order = [...several.keys()];
    return list.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  }
  const unknown = (g: FindingGroup) => (g.key === OWNER_UNKNOWN ? 1 : 0);
  return list.sort((a, b) => unknown(a) - unknown(b) || b.findings.length - a.findings.length || compareText(a.key, b.key));
}

export type Formatter = (report: Report, options: FormatOptions) => string;

export { SEVERITY_ORDER, severityRank } from '../core/order.js';

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

/** `1 critical, 1 high` counted over some findings, non-zero entries only. */
function breakdownOf(findings: readonly Finding[]): string {
  return SEVERITY_ORDER.map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

/** `2 critical, 3 high` from the summary's bySeverity, non-zero entries only. */
export function severityBreakdown(report: Report): string {
  return SEVERITY_ORDER.filter((s) => (report.summary.bySeverity[s] ?? 0) > 0)
    .map((s) => `${report.summary.bySeverity[s]} ${s}`)
    .join(', ');
}

/**
 * The verdict in words, shared by text and markdown:
 * `fail: 12 violations (2 critical, 10 high), 1 waived, 0 errors in 14 policies`; with a
 * baseline `pass: 0 new violations (13 known in the baseline), 1 waived, …`.
 */
export function verdictCounts(report: Report): string {
  const s = report.summary;
  let violations: string;
  if (report.baseline) {
    // With a baseline only new violations fail the gate: count those, and the known ones apart.
    const unwaived = report.findings.filter((f) => f.status === 'violation');
    const fresh = unwaived.filter((f) => f.baseline !== 'known');
    const known = `${unwaived.length - fresh.length} known in the baseline`;
    const breakdown = breakdownOf(fresh);
    violations = `${plural(fresh.length, 'new violation')} (${breakdown ? `${breakdown}; ${known}` : known})`;
  } else {
    const breakdown = severityBreakdown(report);
    violations = plural(s.violations, 'violation') + (breakdown ? ` (${breakdown})` : '');
  }
  return `${s.gate}: ${violations}, ${s.waived} waived, ${plural(s.errors, 'error')} in ${plural(s.policies, 'policy', 'policies')}`;
}

/** Waiver target as written in a waiver file: `policy resource[#item]`. */
export function waiverTarget(w: { policy: string; resource: string; item?: string; instances?: string[] }): string {
  return `${w.policy} ${w.resource}${w.item !== undefined ? `#${w.item}` : ''}${waiverInstances(w)}`;
}

/** ` on prod, staging` for a waiver that names its instances, else ''. */
export function waiverInstances(w: { instances?: string[] }): string {
  return w.instances ? ` on ${w.instances.join(', ')}` : '';
}

/** The report's waiver lists with `fn` applied to every waiver (one place that knows the lists). */
export function mapWaivers<T>(waivers: Report['waivers'], fn: (w: WaiverRef) => T): Record<keyof Report['waivers'], T[]> {
  return {
    expired: waivers.expired.map(fn),
    stale: waivers.stale.map(fn),
    catchAll: waivers.catchAll.map(fn),
    active: waivers.active.map(fn),
    expiring: waivers.expiring.map(fn),
  };
}

/**
 * The trends a report can draw, each with its history file: a report of several instances holds
 * one per instance (each recorded in its own history; the merged report's own is empty), named.
 */
export function trendsOf(report: Pick<Report, 'history' | 'instances'>): { instance: string | null; file: string; trend: HistoryPoint[] }[] {
  if (report.instances?.length) {
    return report.instances.flatMap((run) => (run.history?.trend.length ? [{ instance: run.name, file: run.history.file, trend: run.history.trend }] : []));
  }
  return report.history?.trend.length ? [{ instance: null, file: report.history.file, trend: report.history.trend }] : [];
}

/** The heading of the partial-coverage notes in every format. */
export const PARTIAL_COVERAGE_TITLE = 'Partial coverage (the listing did not show the whole instance)';

/**
 * One note per kind whose listing is known to be partial: what was not seen and what the run did
 * about it (every format says it; a blocking one is why the run is exit 3).
 */
export function partialCoverageNotes(report: Report): string[] {
  return (report.coverage ?? [])
    .filter((c) => c.partial !== null)
    .map((c) => {
      const outcome = c.accepted
        ? 'accepted by acceptPartialCoverage'
        : c.blocking
          ? 'its policies at or above failOn decide nothing: exit 3 unless acceptPartialCoverage names it'
          : 'no policy at or above failOn reads it';
      return `${c.kind}: ${c.partial} (${c.listed} listed; ${outcome})`;
    });
}

/** The heading of the token's expiry note in every format. */
export const TOKEN_TITLE = 'The token in use';

export const STOPPED_TITLE = 'The run was stopped';

/**
 * The one message of a run-wide failure: what stopped the run, what to do, and how many
 * policies it left unevaluated (their errors are not listed one by one).
 */
export function stoppedNote(report: Pick<Report, 'stoppedBy' | 'findings'>): string | null {
  if (!report.stoppedBy?.length) return null;
  const policies = new Set(report.findings.filter((f) => f.runWide).map((f) => f.policy)).size;
  const causes = report.stoppedBy.map(({ cause, advice }) => `${cause}: ${advice}.`).join(' ');
  return `${causes}${policies ? ` ${plural(policies, 'policy', 'policies')} could not be evaluated.` : ''}`;
}

/** What every format shows before the waivers: a run-wide stop, partial coverage, and the token about to expire. */
export function attentionSections(report: Report): { title: string; notes: string[] }[] {
  const stopped = stoppedNote(report);
  return [
    { title: STOPPED_TITLE, notes: stopped ? [stopped] : [] },
    { title: PARTIAL_COVERAGE_TITLE, notes: partialCoverageNotes(report) },
    { title: TOKEN_TITLE, notes: report.token ? [report.token.note] : [] },
  ].filter((s) => s.notes.length > 0);
}

/** The heading of the catch-all waiver list in the text and markdown reports. */
export const CATCH_ALL_TITLE = 'Catch-all waivers (every resource of the policy, including future ones)';

/** The warning about one catch-all waiver (SARIF, github, the Action). */
export function catchAllWarning(w: WaiverRef): string {
  return `Waiver ${waiverTarget(w)} waives every resource of ${w.policy}, including resources created later (owner ${w.owner}, until ${w.expires}); name the resources instead.`;
}

/** Whole days from the report's start to the waiver's end (its `expires` day, UTC). */
export function daysLeft(w: WaiverRef, startedAt: string): number {
  const start = Date.parse(`${startedAt.slice(0, 10)}T00:00:00Z`);
  return Math.round((Date.parse(`${w.expires}T00:00:00Z`) - start) / 86_400_000);
}

/** The warning about a waiver that ends soon (every format). */
export function expiringWarning(w: WaiverRef, startedAt: string): string {
  const days = daysLeft(w, startedAt);
  return `Waiver ${waiverTarget(w)} ends on ${w.expires} (in ${days} day${days === 1 ? '' : 's'}; owner ${w.owner}${w.ticket ? `, ticket ${w.ticket}` : ''}): renew it or fix the finding.`;
}

/** Resources named in an error group's subject before "and N more". */
export const ERROR_GROUP_LISTED = 5;

/** One cause of evaluation errors: a policy's error findings that share a message. */
export interface ErrorGroup {
  policy: string;
  severity: Severity;
  message: string;
  /** Its error findings in report order; none for a policy error no finding carries. */
  findings: Finding[];
  /** Where its findings are, when they all are at one place; else the policy's definition. */
  location: SourceLocation | null;
}

const sameLocation = (a: SourceLocation | null, b: SourceLocation | null) =>
  a === b || (a !== null && b !== null && a.file === b.file && a.line === b.line && a.column === b.column);

/**
 * Evaluation errors once per distinct cause (policy and message), in report order: a policy
 * that fails on every resource is one entry saying how many, not one per resource.
 */
export function errorGroups(report: Pick<Report, 'policies' | 'findings'>): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  const policies = new Map(report.policies.map((p) => [p.id, p]));
  // A run-wide cause is said once (stoppedNote), not once per policy and resource.
  const runWide = new Set<string>();
  for (const f of report.findings) {
    if (f.status !== 'error') continue;
    if (f.runWide) {
      runWide.add(`${f.policy}\u0000${f.message}`);
      continue;
    }
    const key = `${f.policy}\u0000${f.message}`;
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { policy: f.policy, severity: f.severity, message: f.message, findings: [f], location: f.location });
      continue;
    }
    g.findings.push(f);
    if (!sameLocation(g.location, f.location)) g.location = policies.get(f.policy)?.location ?? null;
  }
  for (const p of report.policies) {
    if (p.error && !groups.has(`${p.id}\u0000${p.error}`) && !runWide.has(`${p.id}\u0000${p.error}`)) {
      groups.set(`${p.id}\u0000${p.error}`, { policy: p.id, severity: p.severity, message: p.error, findings: [], location: p.location });
    }
  }
  return [...groups.values()];
}

/**
 * What an error group is about: `reportSchedule/9001` for one finding, `276 reportSchedule
 * resources (9001, 9002, 9003, 9004, 9005 and 271 more)` for many; '' for none.
 */
export function errorSubject(g: ErrorGroup): string {
  const fs = g.findings;
  if (fs.length <= 1) return fs[0] ? findingSubject(fs[0]) : '';
  const kinds = [...new Set(fs.map((f) => f.resource.kind))];
  const oneKind = kinds.length === 1;
  const names = fs.map((f) => (oneKind ? (f.path ? `${f.resource.id} ${f.path}` : f.resource.id) : findingSubject(f)));
  const more = names.length > ERROR_GROUP_LISTED ? ` and ${names.length - ERROR_GROUP_LISTED} more` : '';
  const noun = fs.some((f) => f.path) ? 'items' : 'resources';
  return `${fs.length} ${oneKind ? `${kinds[0]} ` : ''}${noun} (${names.slice(0, ERROR_GROUP_LISTED).join(', ')}${more})`;
}

/** `policy kind/id path: message`; the bare fingerprint when the baseline file names nothing more. */
export function resolvedText(e: ResolvedBaselineEntry, report: Pick<Report, 'instances'>): string {
  // A report of several instances names each entry's; one instance's entries are all its own.
  const on = instancePrefix(report, e.instance);
  if (!e.policy || !e.resource) return `${on}${e.fingerprint}`;
  const where = `${e.resource.kind}/${e.resource.id}${e.path ? ` ${e.path}` : ''}`;
  return `${on}${e.policy} ${where}${e.message ? `: ${e.message}` : ''}`;
}

/** `History h.sqlite (run 3): 1 new, 18 open, 0 reopened, 1 fixed`, or null without a history. */
export function historyText(report: Report): string | null {
  const h = report.history;
  if (!h) return null;
  return `History ${h.file} (run ${h.run}): ${h.new} new, ${h.open} open, ${h.reopened} reopened, ${h.fixed} fixed`;
}

export function fixedText(f: FixedFinding): string {
  return `${f.policy} ${f.resource.kind}/${f.resource.id}: ${f.message} (open since ${f.firstSeen.slice(0, 10)})`;
}

/** Whole days from `since` to `until` (ISO times), never negative. */
export function ageInDays(since: string, until: string | number): number {
  // `until` as epoch milliseconds where one date serves many rows (parsed once).
  return Math.max(0, Math.floor(((typeof until === 'number' ? until : Date.parse(until)) - Date.parse(since)) / 86_400_000));
}
