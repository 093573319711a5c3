// A report holding several instances (`instances:`, `steward merge`) shown instance by instance:
// SARIF writes one run each, JUnit one suite per instance and policy, text a section each.
import { holdsSeveralInstances, type InstanceRun, type Report, resolvedEntriesOf } from '../core/model.js';

/** The part of a merged report that is one instance's, as a report of its own (for the formats that show instances apart). */
export function instanceReport(report: Report, run: InstanceRun): Report {
  const mine = <T extends { instance?: string }>(xs: T[]) => xs.filter((x) => x.instance === run.name);
  return {
    ...report,
    instance: run.url,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    failOn: run.failOn,
    summary: run.summary,
    http: run.http,
    policies: mine(report.policies),
    findings: mine(report.findings),
    fixed: mine(report.fixed ?? []),
    coverage: mine(report.coverage ?? []),
    stoppedBy: run.stoppedBy ?? [],
    token: run.token ?? null,
    history: run.history ?? null,
    baseline: report.baseline ? ownBaseline(report.baseline, run.name) : null,
    instances: undefined,
  };
}

/** An instance's part of the baseline section: its own resolved entries (and any naming no instance). */
function ownBaseline(baseline: NonNullable<Report['baseline']>, name: string): Report['baseline'] {
  const entries = resolvedEntriesOf(baseline).filter((e) => e.instance === undefined || e.instance === name);
  return { file: baseline.file, resolved: entries.map((e) => e.fingerprint), resolvedEntries: entries };
}

/** The report per instance: a report of one instance is its own only part. */
export function perInstance(report: Report): Report[] {
  return holdsSeveralInstances(report) ? report.instances!.map((run) => instanceReport(report, run)) : [report];
}
