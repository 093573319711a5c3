// The run history: opened (and locked) before a run makes any request, so a broken or busy
// file is exit 2 up front; after the run, the report gets its lifecycle and the run is recorded.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import type { Report } from '../core/model.js';
import { type HeldLocks, lockFiles } from '../io/file-lock.js';
import { type HistoryDatabase, openHistory } from './database.js';
import { applyLifecycle } from './lifecycle.js';
import { loadPrior, recordRun, trendOf } from './store.js';

export { HISTORY_SCHEMA_VERSION, type HistoryDatabase, openHistory } from './database.js';
export { applyLifecycle, type PriorFinding, type PriorState } from './lifecycle.js';
export { type HistoryRun, listRuns, runContents, seenBefore, type StoredFinding, TREND_RUNS, trendOf } from './store.js';
export { type DiffFinding, diffFindings, type DiffResult, type DiffSide } from './diff.js';

export interface OpenRunHistory {
  db: HistoryDatabase;
  shown: string;
  locks: HeldLocks;
  close(): void;
}

/** Locks and opens the history a run records into (created when missing). */
export async function openRunHistory(file: string, shown: string, purpose: string): Promise<OpenRunHistory> {
  mkdirSync(path.dirname(file), { recursive: true });
  const locks = lockFiles([file], purpose, () => shown);
  try {
    const db = await openHistory(file, shown, { create: true });
    return {
      db,
      shown,
      locks,
      close: () => {
        db.close();
        locks.release();
      },
    };
  } catch (e) {
    locks.release();
    throw e;
  }
}

/** A stable hash of the policy set a run evaluated (any change to a policy changes it). */
export function policySetHash(policies: readonly unknown[]): string {
  return createHash('sha256').update(canonicalJson(policies)).digest('hex').slice(0, 16);
}

/** `report` with its lifecycle, fixed findings and trend; the run recorded and the file saved. */
export function recordReport(history: OpenRunHistory, report: Report, policyHash: string): Report {
  const policies = report.policies.map((p) => p.id);
  const { findings, fixed, counts } = applyLifecycle(report, loadPrior(history.db, report.instance, policies));
  const annotated: Report = { ...report, findings, fixed };
  const run = recordRun(history.db, annotated, { policyHash, counts });
  history.db.save();
  return {
    ...annotated,
    history: { file: history.shown, run, new: counts.new, open: counts.open, reopened: counts.reopened, fixed: counts.fixed, trend: trendOf(history.db, report.instance) },
  };
}
