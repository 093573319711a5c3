// Reading and writing runs in the history database: what lifecycle needs from earlier runs,
// one run recorded in one transaction (run, policy statuses, findings; fixed ones are counted,
// the run's report lists them), and the runs read back for `history`, `diff` and trends.
import { type HistoryPoint, type Report, SEVERITIES } from '../core/model.js';
import type { HistoryDatabase, Row } from './database.js';
import { EVALUATED_STATUSES, isTracked, type PriorFinding, type PriorState } from './lifecycle.js';
import { GATES, LIFECYCLES, rowReader, STORED_STATUSES } from './rows.js';

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

/** A finding as one run of the history holds it. */
export interface StoredFinding extends PriorFinding {
  status: 'violation' | 'waived';
  lifecycle: string;
}

function priorFinding(db: HistoryDatabase, row: Row): PriorFinding {
  const r = rowReader(db, 'findings', row, `of run ${String(row.run_id)}, fingerprint ${JSON.stringify(row.fingerprint)}`);
  return {
    fingerprint: r.text('fingerprint'),
    policy: r.text('policy'),
    severity: r.oneOf('severity', SEVERITIES),
    resource: { kind: r.text('resource_kind'), id: r.text('resource_id'), name: r.nullableText('resource_name') },
    message: r.text('message'),
    firstSeen: r.text('first_seen'),
  };
}

/** What earlier runs of `instance` say about the policies of this run. */
export async function loadPrior(db: HistoryDatabase, instance: string, policies: readonly string[]): Promise<PriorState> {
  const previous = new Map<string, Map<string, PriorFinding>>();
  const statuses = EVALUATED_STATUSES.map((s) => `'${s}'`).join(', ');
  for (const policy of policies) {
    const [last] = await db.all(
      `SELECT MAX(r.id) AS id FROM runs r JOIN run_policies p ON p.run_id = r.id
       WHERE r.instance = ? AND p.policy = ? AND p.status IN (${statuses})`,
      [instance, policy],
    );
    if (last?.id === null || last?.id === undefined) continue;
    const rows = await db.all('SELECT * FROM findings WHERE run_id = ? AND policy = ?', [last.id, policy]);
    previous.set(policy, new Map(rows.map((r) => [String(r.fingerprint), priorFinding(db, r)])));
  }
  const firstSeen = new Map<string, string>();
  const rows = await db.all(
    'SELECT f.fingerprint, MIN(f.first_seen) AS first_seen FROM findings f JOIN runs r ON r.id = f.run_id WHERE r.instance = ? GROUP BY f.fingerprint',
    [instance],
  );
  for (const r of rows) firstSeen.set(String(r.fingerprint), String(r.first_seen));
  return { previous, firstSeen };
}

export interface RunMeta {
  policyHash: string;
  counts: { new: number; reopened: number; fixed: number };
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
    for (const p of report.policies) await db.run('INSERT INTO run_policies (run_id, policy, status) VALUES (?, ?, ?)', [run, p.id, p.status]);
    for (const f of report.findings.filter(isTracked)) {
      await db.run(
        `INSERT INTO findings (run_id, fingerprint, policy, resource_kind, resource_id, resource_name, status, severity, message, first_seen, lifecycle)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [run, f.fingerprint, f.policy, f.resource.kind, f.resource.id, f.resource.name, f.status, f.severity, f.message, f.firstSeen ?? report.startedAt, f.lifecycle ?? 'new'],
      );
    }
    return run;
  }
}

function historyRun(db: HistoryDatabase, row: Row): HistoryRun {
  const r = rowReader(db, 'runs', row, `id ${String(row.id)}`);
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
  const findings = (await db.all(`SELECT * FROM findings WHERE run_id = ? ORDER BY ${db.rowOrder}`, [run])).map((row) => {
      const r = rowReader(db, 'findings', row, `of run ${run}, fingerprint ${JSON.stringify(row.fingerprint)}`);
      return { ...priorFinding(db, row), status: r.oneOf('status', STORED_STATUSES), lifecycle: r.oneOf('lifecycle', LIFECYCLES) };
    });
  const policies = new Map(
    (await db.all('SELECT policy, status FROM run_policies WHERE run_id = ?', [run])).map((row) => {
      const r = rowReader(db, 'run_policies', row, `of run ${run}, policy ${JSON.stringify(row.policy)}`);
      return [r.text('policy'), r.text('status')];
    }),
  );
  return { run: historyRun(db, row), findings, policies };
}

/** Fingerprints seen in runs of `instance` before run `before`. */
export async function seenBefore(db: HistoryDatabase, instance: string, before: number): Promise<Set<string>> {
  const rows = await db.all('SELECT DISTINCT f.fingerprint FROM findings f JOIN runs r ON r.id = f.run_id WHERE r.instance = ? AND r.id < ?', [instance, before]);
  return new Set(rows.map((r) => String(r.fingerprint)));
}
