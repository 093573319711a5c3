// The run history: opened (and locked) before a run makes any request, so a broken or busy
// file is exit 2 up front; after the run, the report gets its lifecycle and the run is recorded.
import { sha256 } from '../core/digest.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { Report } from '../core/model.js';
import { InputError } from '../core/problem.js';
import { SecretSet } from '../core/redact.js';
import { type HeldLocks, lockFiles } from '../io/file-lock.js';
import { unwritable } from '../io/writable.js';
import { type HistoryDatabase, openHistory } from './database.js';
import { applyLifecycle, isTracked } from './lifecycle.js';
import { openPgHistory } from './postgres.js';
import { keptStrings, recordRun, trendOf } from './store.js';
import { HISTORY_KEEP_DEFAULT, type HistoryKeep, isPostgresUrl } from '../config/history.js';
import { foldOldRuns, loadPrior } from './spans.js';

export { HISTORY_SCHEMA_VERSION, type HistoryDatabase, openHistory } from './database.js';
export { openPgHistory, PG_SCHEMA } from './postgres.js';
export { applyLifecycle, type PriorFinding, type PriorState } from './lifecycle.js';
export { type HistoryRun, listRuns, runContents, TREND_RUNS, trendOf } from './store.js';
export { seenBefore, type StoredFinding } from './spans.js';
export { type DiffFinding, diffFindings, type DiffResult, type DiffSide, onInstance } from './diff.js';

export interface OpenRunHistory {
  db: HistoryDatabase;
  shown: string;
  locks: HeldLocks | null;
  /** The run's secrets: the history outlives the run, and no form of one goes into it. */
  secrets?: SecretSet;
  close(): Promise<void>;
}


/**
 * Opens the history a run records into: a PostgreSQL database (`target` a URL; its writers are
 * serialised per instance by the database) or a file, locked and created when missing.
 * `secrets` are the run's: none goes into the history, or into a message about it.
 */
export async function openRunHistory(target: string, shown: string, purpose: string, secrets = new SecretSet()): Promise<OpenRunHistory> {
  if (isPostgresUrl(target)) {
    const db = await openPgHistory(target, shown, { redact: (t) => secrets.redact(t) });
    return { db, shown, locks: null, secrets, close: () => db.close() };
  }
  const file = target;
  // A folder, or a place no file can be made (Node's recursive mkdir never returns under /proc):
  // bad input before any request, not a failure to read it.
  const why = unwritable(file);
  if (why) throw new InputError([{ file: shown, line: 0, column: 0, message: `cannot write the run history here: ${why}` }]);
  const locks = lockFiles([file], purpose, () => shown);
  try {
    const db = await openHistory(file, shown, { create: true });
    return {
      db,
      shown,
      locks,
      secrets,
      close: async () => {
        try {
          await db.close();
        } finally {
          locks.release();
        }
      },
    };
  } catch (e) {
    locks.release();
    throw e;
  }
}

/** A stable hash of the policy set a run evaluated (any change to a policy changes it). */
export function policySetHash(policies: readonly unknown[]): string {
  return sha256(canonicalJson(policies)).slice(0, 16);
}

/**
 * `report` with its lifecycle, fixed findings and trend; the run recorded and saved. What the
 * earlier runs say and the new run are read and written in one transaction, locked per instance.
 * Where a string the history keeps holds a form of a run's secret, the whole report is redacted
 * first (so what this run says and what the history kept compare alike); scanning those strings,
 * not the whole report, costs a recording of 10,000 findings ~15 ms, not ~45 (Node 20).
 */
export async function recordReport(history: OpenRunHistory, given: Report, policyHash: string, keep: HistoryKeep = HISTORY_KEEP_DEFAULT): Promise<Report> {
  const { db, secrets } = history;
  const report = secrets?.inAny(keptStrings(given)) ? secrets.redactJson(given) : given;
  const policies = report.policies.map((p) => p.id);
  const { annotated, run, counts } = await db.write(async () => {
    const fingerprints = [...new Set(report.findings.filter(isTracked).map((f) => f.fingerprint))];
    const prior = await loadPrior(db, report.instance, policies, fingerprints);
    const { findings, fixed, counts } = applyLifecycle(report, prior);
    const annotated: Report = { ...report, findings, fixed };
    const run = await recordRun(db, annotated, { policyHash, counts, open: prior.open });
    // Runs past `keep` keep their totals only: the history stays bounded.
    await foldOldRuns(db, report.instance, keep, new Date(report.startedAt));
    return { annotated, counts, run };
  }, `steward-history:${report.instance}`);
  await db.save();
  return {
    ...annotated,
    history: { file: history.shown, run, new: counts.new, open: counts.open, reopened: counts.reopened, fixed: counts.fixed, trend: await trendOf(db, report.instance) },
  };
}
