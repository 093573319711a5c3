// Reading and writing runs in the history database: one run recorded (its totals in `runs`, its
// policy statuses and findings as spans, spans.ts; fixed ones are counted, the run's report lists
// them), and the runs read back for `history`, `diff` and trends.
import type { HistoryPoint, Report } from '../core/model.js';
import type { HistoryDatabase, Row } from './types.js';
import { isTracked } from './lifecycle.js';
import { GATES, rowReader } from './rows.js';
import { appendRun, foldedRun, type OpenSpans, type SpanFinding, spansAt, type StoredFinding } from './spans.js';

/** Runs a trend shows (the report's chart, the Action's summary). */
export const TREND_RUNS = 20;

/** A run as `steward history` lists it. */
export interface HistoryRun extends HistoryPoint {
  instance: string;
  toolVersion: string;
  policyHash: string;
  failOn: string;
  policies: number;
  resources: number;
  waived: number;
  errors: number;
  requests: number;
  durationMs: number;
}

export interface RunMeta {
  policyHash: string;
  counts: { new: number; reopened: number; fixed: number };
  /** The spans the run extends, as loadPrior read them with what the earlier runs say. */
  open?: OpenSpans;
}

/** Records `report` (already annotated with its lifecycle) and returns its run id; inside the caller's `write`. */
export async function recordRun(db: HistoryDatabase, report: Report, meta: RunMeta): Promise<number> {
  {
    const s = report.summary;
    const [inserted] = await db.all(
      `INSERT INTO runs (started_at, instance, tool_version, policy_hash, gate, fail_on, policies, resources, violations, waived, errors,
         by_severity, new_count, reopened_count, fixed_count, requests, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        report.startedAt,
        report.instance,
        report.tool.version,
        meta.policyHash,
        s.gate,
        report.failOn,
        s.policies,
        s.resources,
        s.violations,
        s.waived,
        s.errors,
        JSON.stringify(s.bySeverity),
        meta.counts.new,
        meta.counts.reopened,
        meta.counts.fixed,
        report.http.requests,
        report.durationMs,
      ],
    );
    const run = Number(inserted!.id);
    const findings: SpanFinding[] = report.findings.filter(isTracked).map((f) => ({
      fingerprint: f.fingerprint,
      policy: f.policy,
      resource: { kind: f.resource.kind, id: f.resource.id, name: f.resource.name },
      severity: f.severity,
      message: f.message,
      status: f.status as SpanFinding['status'],
      // Stryker disable next-line StringLiteral: recordReport has given every tracked finding its lifecycle by then
      lifecycle: f.lifecycle ?? 'new',
      firstSeen: f.firstSeen ?? report.startedAt,
    }));
    await appendRun(db, run, report.instance, report.policies, findings, meta.open);
    return run;
  }
}

/**
 * Every string of `report` recording it writes into the history (recordRun, appendRun): the run's
 * row, its policies' statuses, its tracked findings' texts and spans (their first sightings come
 * from the history itself or are `startedAt`). A secret in none of them is in no row.
 */
export function* keptStrings(report: Report): Generator<string> {
  yield report.startedAt;
  yield report.instance;
  yield report.tool.version;
  yield report.summary.gate;
  yield report.failOn;
  for (const p of report.policies) {
    yield p.id;
    yield p.status;
  }
  for (const f of report.findings) {
    // Stryker disable next-line ConditionalExpression: a finding the history does not keep searched as well only costs time (a form there redacts a report whose files are redacted anyway)
    if (!isTracked(f)) continue;
    yield f.fingerprint;
    yield f.policy;
    yield f.resource.kind;
    yield f.resource.id;
    if (f.resource.name !== null) yield f.resource.name;
    yield f.severity;
    yield f.message;
    yield f.status;
  }
}

function historyRun(db: HistoryDatabase, row: Row): HistoryRun {
  const r = rowReader(db, 'runs', row, () => `id ${String(row.id)}`);
  return {
    run: r.count('id'),
    startedAt: r.text('started_at'),
    instance: r.text('instance'),
    toolVersion: r.text('tool_version'),
    policyHash: r.text('policy_hash'),
    gate: r.oneOf('gate', GATES),
    failOn: r.text('fail_on'),
    policies: r.count('policies'),
    resources: r.count('resources'),
    violations: r.count('violations'),
    waived: r.count('waived'),
    errors: r.count('errors'),
    bySeverity: r.severityCounts('by_severity'),
    new: r.count('new_count'),
    reopened: r.count('reopened_count'),
    fixed: r.count('fixed_count'),
    requests: r.count('requests'),
    durationMs: r.count('duration_ms'),
  };
}

/** Every run, oldest first (or only those of `instance`, the last `limit`). */
export async function listRuns(db: HistoryDatabase, filter: { instance?: string; limit?: number } = {}): Promise<HistoryRun[]> {
  const where = filter.instance === undefined ? '' : 'WHERE instance = ?';
  const params = filter.instance === undefined ? [] : [filter.instance];
  const limit = filter.limit === undefined ? '' : `LIMIT ${Math.max(0, Math.floor(filter.limit))}`;
  const rows = await db.all(`SELECT * FROM runs ${where} ORDER BY id DESC ${limit}`, params);
  return rows.map((row) => historyRun(db, row)).reverse();
}

/** The trend of the last TREND_RUNS runs of `instance`, oldest first. */
export async function trendOf(db: HistoryDatabase, instance: string): Promise<HistoryPoint[]> {
  return (await listRuns(db, { instance, limit: TREND_RUNS })).map((r) => ({
    run: r.run,
    startedAt: r.startedAt,
    gate: r.gate,
    violations: r.violations,
    bySeverity: r.bySeverity,
    new: r.new,
    reopened: r.reopened,
    fixed: r.fixed,
  }));
}

/** One run's findings and the statuses of its policies; null when the history has no such run. */
export async function runContents(db: HistoryDatabase, run: number): Promise<{ run: HistoryRun; findings: StoredFinding[]; policies: Map<string, string> } | null> {
  const [row] = await db.all('SELECT * FROM runs WHERE id = ?', [run]);
  if (!row) return null;
  if (Number(row.folded) === 1) throw foldedRun(db, run);
  const stored = historyRun(db, row);
  return { run: stored, ...(await spansAt(db, run, stored.instance)) };
}
