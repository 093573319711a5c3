// Reports of several instances as one (`instances:` in one run, `steward merge` after a fan-out):
// every finding, policy result, coverage record and error keeps the name of its instance; each
// instance's own run and verdict stays in `instances[]`; the gate is the worst of theirs (one
// instance in error makes the whole exit 3, one failing makes it 1). Two reports of one instance
// taken at different times are refused unless asked: their union would be neither run.
import path from 'node:path';
import type { ControlSummary, FailOn, FrameworkSummary, InstanceRun, Report, ReportSummary, Severity, WaiverRef } from '../core/model.js';
import { gateOf } from '../engine/verdict.js';
import { readReportFile } from './history.js';
import { resolvedEntriesOf, SEVERITIES, waiverKey } from '../core/model.js';
import { orderBySeverity } from '../core/order.js';
import { InputError } from '../core/problem.js';
import { EMPTY_REPORT_STOP } from './empty-run.js';
import { DEFAULT_INSTANCE_NAME, packageVersion } from '../config/index.js';

const GATE_RANK: Record<ReportSummary['gate'], number> = { pass: 0, fail: 1, error: 2 };
const CONTROL_RANK: Record<ControlSummary['status'], number> = { 'not-evaluated': 0, pass: 1, fail: 2, error: 3 };

/** Marks a single instance's report with its name (findings, policies, coverage, fixed findings). */
export function stampInstance(report: Report, name: string): Report {
  for (const f of report.findings) f.instance = name;
  for (const p of report.policies) p.instance = name;
  for (const c of report.coverage ?? []) c.instance = name;
  for (const f of report.fixed ?? []) f.instance = name;
  for (const e of report.baseline?.resolvedEntries ?? []) e.instance = name;
  return report;
}

/** The baseline sections of several reports as one: each instance's resolved entries, in turn. */
function mergedBaseline(reports: Report[]): Report['baseline'] {
  const withBaseline = reports.filter((r) => r.baseline);
  if (withBaseline.length === 0) return null;
  const entries = withBaseline.flatMap((r) => resolvedEntriesOf(r.baseline!));
  return { file: withBaseline[0]!.baseline!.file, resolved: entries.map((e) => e.fingerprint), resolvedEntries: entries };
}

/** The instance names of a report: its `instances[]`, else the name its findings or policies carry. */
export function instanceNames(report: Report): string[] {
  if (report.instances?.length) return report.instances.map((i) => i.name);
  return [report.policies[0]?.instance ?? report.findings[0]?.instance ?? DEFAULT_INSTANCE_NAME];
}

/** One report's instances as InstanceRun entries. */
function runsOf(report: Report): InstanceRun[] {
  if (report.instances?.length) return report.instances;
  const [name] = instanceNames(report);
  return [
    {
      name: name!,
      url: report.instance,
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      failOn: report.failOn,
      summary: report.summary,
      http: report.http,
      ...(report.stoppedBy?.length ? { stoppedBy: report.stoppedBy } : {}),
      ...(report.token ? { token: report.token } : {}),
      ...(report.history ? { history: report.history } : {}),
    },
  ];
}

const unique = <T>(lists: T[][], key: (x: T) => string): T[] => [...new Map(lists.flat().map((x) => [key(x), x])).values()];

/**
 * Waivers that matched nothing on any instance: one that waived a finding on one instance is in
 * use, though the others' reports call it stale (deleting it would fail that instance).
 */
function staleEverywhere(reports: Report[]): WaiverRef[] {
  const used = new Set(reports.flatMap((r) => {
    const stale = new Set(r.waivers.stale.map(waiverKey));
    return r.waivers.active.map(waiverKey).filter((k) => !stale.has(k));
  }));
  return unique(reports.map((r) => r.waivers.stale), waiverKey).filter((w) => !used.has(waiverKey(w)));
}

function mergedFrameworks(reports: Report[]): FrameworkSummary[] {
  const byName = new Map<string, Map<string, ControlSummary>>();
  for (const fw of reports.flatMap((r) => r.frameworks)) {
    const controls = byName.get(fw.name) ?? new Map<string, ControlSummary>();
    for (const c of fw.controls) {
      const seen = controls.get(c.id);
      // A control is as bad as it is on its worst instance.
      const status = !seen || CONTROL_RANK[c.status] > CONTROL_RANK[seen.status] ? c.status : seen.status;
      controls.set(c.id, { id: c.id, status, policies: [...new Set([...(seen?.policies ?? []), ...c.policies])] });
    }
    byName.set(fw.name, controls);
  }
  return [...byName].map(([name, controls]) => ({ name, controls: [...controls.values()] }));
}

function mergedSummary(runs: InstanceRun[]): ReportSummary {
  const sum = (key: 'policies' | 'resources' | 'checks' | 'violations' | 'waived' | 'errors') => runs.reduce((n, r) => n + r.summary[key], 0);
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, runs.reduce((n, r) => n + (r.summary.bySeverity[s] ?? 0), 0)])) as Record<Severity, number>;
  const gate = runs.map((r) => r.summary.gate).reduce((a, b) => (GATE_RANK[b] > GATE_RANK[a] ? b : a), 'pass' as ReportSummary['gate']);
  return { policies: sum('policies'), resources: sum('resources'), checks: sum('checks'), violations: sum('violations'), waived: sum('waived'), errors: sum('errors'), bySeverity, gate };
}

/**
 * One report of every instance in `reports`. A single one comes back as it is. Two reports of
 * one instance (same name or base URL) taken at different times are bad input unless
 * `allowSameInstance`; two reports of one instance's run (same time) are one run read twice.
 */
export function mergeReports(reports: Report[], options: { allowSameInstance?: boolean; labels?: string[] } = {}): Report {
  if (reports.length === 1) return reports[0]!;
  const byReport = reports.map(runsOf);
  const runs = byReport.flat();
  // Each run named by the report it came from: a report of several instances holds several runs.
  const labels = byReport.flatMap((held, at) => held.map(() => options.labels?.[at] ?? `report ${at + 1}`));
  // One problem for each run already in the merge, naming the report that brought it first.
  const problems = options.allowSameInstance
    ? []
    : runs.flatMap((r, i) => {
        const at = runs.findIndex((o, j) => j < i && (o.name === r.name || o.url === r.url));
        if (at < 0) return [];
        const o = runs[at]!;
        const held = o.name === r.name ? `an instance named ${o.name} (${labels[at]}${o.url === r.url ? '' : `, ${o.url}`})` : `${o.url} (${labels[at]}, as ${o.name})`;
        const when = o.startedAt === r.startedAt ? '' : `, from another run (${o.startedAt})`;
        return [{ file: labels[i]!, line: 0, column: 0, message: `instance ${r.name} (${r.url}): the merge already holds ${held}${when}: merge one report per instance, or pass --allow-same-instance` }];
      });
  if (problems.length > 0) throw new InputError(problems);
  const first = reports[0]!;
  const start = Math.min(...runs.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...runs.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const counts = (key: 'new' | 'open' | 'reopened' | 'fixed') => runs.reduce((n, r) => n + (r.history?.[key] ?? 0), 0);
  const histories = runs.filter((r) => r.history);
  const merged: Report = {
    schemaVersion: first.schemaVersion,
    tool: first.tool,
    instance: runs.map((r) => r.name).join(', '),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    failOn: first.failOn,
    summary: mergedSummary(runs),
    policies: reports.flatMap((r) => r.policies),
    findings: orderBySeverity(reports.flatMap((r) => r.findings)),
    waivers: {
      expired: unique(reports.map((r) => r.waivers.expired), waiverKey),
      stale: staleEverywhere(reports),
      catchAll: unique(reports.map((r) => r.waivers.catchAll), waiverKey),
      active: unique(reports.map((r) => r.waivers.active), waiverKey),
      expiring: unique(reports.map((r) => r.waivers.expiring), waiverKey),
    },
    overrides: unique(reports.map((r) => r.overrides), (o) => JSON.stringify(o)),
    frameworks: mergedFrameworks(reports),
    baseline: mergedBaseline(reports),
    fixed: reports.flatMap((r) => r.fixed ?? []),
    history: histories.length ? { file: histories[0]!.history!.file, run: Math.max(...histories.map((r) => r.history!.run)), new: counts('new'), open: counts('open'), reopened: counts('reopened'), fixed: counts('fixed'), trend: [] } : null,
    stoppedBy: runs.flatMap((r) => (r.stoppedBy ?? []).map((s) => ({ ...s, cause: `${r.name}: ${s.cause}` }))),
    coverage: reports.flatMap((r) => r.coverage ?? []),
    http: { requests: runs.reduce((n, r) => n + r.http.requests, 0), retries: runs.reduce((n, r) => n + r.http.retries, 0), failed: runs.reduce((n, r) => n + r.http.failed, 0) },
    instances: runs,
  };
  if (!merged.stoppedBy?.length) delete merged.stoppedBy;
  const filters = reports.find((r) => r.filters)?.filters;
  if (filters) merged.filters = filters;
  return merged;
}

/**
 * The merged report judged at `failOn` (`steward merge --fail-on`): each instance's gate again
 * from its own policies and findings, the whole the worst of them. A partial listing that blocked
 * an instance keeps it in error, as does a run that was stopped (a refused token, the deadline,
 * a run that evaluated nothing and was not allowed to pass): no level makes it a pass.
 */
export function regate(report: Report, failOn: FailOn): Report {
  const runs = (report.instances ?? runsOf(report)).map((run) => {
    const mine = <T extends { instance?: string }>(xs: T[]) => (report.instances ? xs.filter((x) => x.instance === run.name) : xs);
    const blocked = mine(report.coverage ?? []).some((c) => c.blocking) || (run.stoppedBy?.length ?? 0) > 0;
    const gate = blocked ? 'error' : gateOf(mine(report.policies), mine(report.findings), failOn, report.baseline !== null, report.overrides);
    return { ...run, failOn, summary: { ...run.summary, gate } };
  });
  const summary = report.instances ? mergedSummary(runs) : { ...report.summary, gate: runs[0]!.summary.gate };
  return { ...report, failOn, summary, ...(report.instances ? { instances: runs } : {}) };
}

/**
 * `steward merge`: JSON reports read, merged, and judged at `failOn` when given. `expect` names
 * every instance the merge must hold: one without a report (its job failed before writing one)
 * would otherwise pass unseen, so it stops the merged report (exit 3). An instance that evaluated
 * nothing stops it too, unless `allowEmpty` (refuseEmptyInstances).
 */
export async function mergeReportFiles(files: string[], options: { cwd?: string; failOn?: FailOn; allowSameInstance?: boolean; expect?: string[]; allowEmpty?: boolean }): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  if (files.length === 0 && !options.expect?.length) throw new InputError([{ file: 'merge', line: 0, column: 0, message: 'no report to merge' }]);
  const reports = await Promise.all(files.map((f) => readReportFile(path.resolve(cwd, f), cwd)));
  const merged = reports.length ? mergeReports(reports, { allowSameInstance: options.allowSameInstance, labels: files }) : null;
  const regated = merged && options.failOn ? regate(merged, options.failOn) : merged;
  const judged = regated && !options.allowEmpty ? refuseEmptyInstances(regated) : regated;
  const present = judged ? instanceNames(judged) : [];
  const missing = (options.expect ?? []).filter((name) => !present.includes(name));
  if (missing.length === 0) return judged!;
  const base = judged ?? emptyReport(options.failOn ?? 'low');
  const stops = missing.map((name) => ({ cause: `${name}: no report (its job wrote none, so nothing of it was checked)`, advice: `see why the check of ${name} stopped before writing its report` }));
  return { ...base, summary: { ...base.summary, gate: 'error' }, stoppedBy: [...(base.stoppedBy ?? []), ...stops] };
}

/**
 * An instance whose report shows no resource evaluated, and is not in error already, checked
 * nothing: refused as `steward check` refuses it, unless `allowEmpty` (`merge --allow-empty`).
 * Its report may say pass: the run accepted an empty one (`--allow-empty`), or came from a
 * steward that did not yet write the refusal into its report.
 */
function refuseEmptyInstances(report: Report): Report {
  const runs = report.instances ?? runsOf(report);
  const isEmpty = (r: InstanceRun) => r.summary.resources === 0 && r.summary.policies > 0 && r.summary.gate !== 'error';
  if (!runs.some(isEmpty)) return report;
  const refused = runs.map((r) => (isEmpty(r) ? { ...r, summary: { ...r.summary, gate: 'error' as const }, stoppedBy: [...(r.stoppedBy ?? []), EMPTY_REPORT_STOP] } : r));
  const several = report.instances !== undefined;
  const stops = runs.filter(isEmpty).map((r) => (several ? { ...EMPTY_REPORT_STOP, cause: `${r.name}: ${EMPTY_REPORT_STOP.cause}` } : EMPTY_REPORT_STOP));
  return { ...report, summary: several ? mergedSummary(refused) : { ...report.summary, gate: 'error' }, stoppedBy: [...(report.stoppedBy ?? []), ...stops], ...(several ? { instances: refused } : {}) };
}

/** A merge that expected instances and got no report at all: nothing but the missing ones. */
function emptyReport(failOn: FailOn): Report {
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  return {
    schemaVersion: 1,
    tool: { name: 'steward', version: packageVersion() },
    instance: '(none)',
    startedAt: new Date().toISOString(),
    durationMs: 0,
    failOn,
    summary: { policies: 0, resources: 0, checks: 0, violations: 0, waived: 0, errors: 0, bySeverity, gate: 'error' },
    policies: [],
    findings: [],
    waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] },
    overrides: [],
    frameworks: [],
    baseline: null,
    fixed: [],
    history: null,
    http: { requests: 0, retries: 0, failed: 0 },
  };
}
