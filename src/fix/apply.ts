// Applies a fix plan (DESIGN §10): one request at a time, each journaled (fsynced) before the
// next starts. Every refusal happens before the first request.
import { sha256 } from '../core/digest.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { InstanceApi } from '../api/types.js';
import { InputError } from '../core/problem.js';
import { appendJournal, type JournalEntry } from './journal.js';
import type { FixPlan, PlannedChange } from './types.js';
import { MAX_CHANGES_DEFAULT } from './change-limit.js';

/**
 * Refuses a plan of more than `maxChanges` changes as a whole, before anything is sent or
 * written; `outcome` says which (`nothing was applied`, `no manifest was written`).
 */
export function assertWithinChangeLimit(plan: FixPlan, maxChanges = MAX_CHANGES_DEFAULT, outcome: string): void {
  if (plan.changes.length <= maxChanges) return;
  const message = `the plan has ${plan.changes.length} changes, more than the limit of ${maxChanges}: ${outcome}`;
  throw new InputError([{ file: '--max-changes', line: 0, column: 0, message }]);
}

export interface ApplyOptions {
  api: InstanceApi;
  journalPath: string;
  /** Directory the plan's manifest paths are relative to (the run's display root). */
  root: string;
  maxChanges?: number;
  /** Asked once before the first request (a TTY prompt); false sends nothing. */
  confirm?: (plan: FixPlan) => boolean | Promise<boolean>;
  /** Called after each applied change, before the next one (`--write` rewrites its manifest). */
  onApplied?: (change: PlannedChange) => void | Promise<void>;
}

export interface ApplyResult {
  /** Every change applied (and written back, when asked). The CLI exits 3 when false. */
  ok: boolean;
  /** The user declined at the prompt: nothing was sent. */
  cancelled: boolean;
  applied: number[];
  failed: number[];
  skipped: number[];
  /** One line per failure: the change that failed, or a write-back that did. */
  errors: string[];
  journalPath: string;
}

/** What else became of a plan's changes, after "applied N of M": `, 1 failed, 2 not attempted` (empty when all were applied). */
export function notAppliedCounts(result: Pick<ApplyResult, 'failed' | 'skipped'>): string {
  return (result.failed.length ? `, ${result.failed.length} failed` : '') + (result.skipped.length ? `, ${result.skipped.length} not attempted` : '');
}

export async function applyFixes(plan: FixPlan, options: ApplyOptions): Promise<ApplyResult> {
  assertWithinChangeLimit(plan, options.maxChanges, 'nothing was applied');
  assertManifestsUnchanged(plan, options.root);
  const result: ApplyResult = {
    ok: true,
    cancelled: false,
    applied: [],
    failed: [],
    skipped: [],
    errors: [],
    journalPath: options.journalPath,
  };
  if (plan.changes.length === 0) return result;
  if (options.confirm && !(await options.confirm(plan))) return { ...result, ok: false, cancelled: true };

  // Stop at the first failure: after a failed replace the instance is in a state nobody has
  // reviewed, and going on would spread a half-applied plan. The rest is journaled as skipped;
  // a re-run plans what is left. A journal that cannot take a line (a full disk) stops the run
  // too: nothing more is sent that the journal could not record.
  let stoppedBy: number | null = null;
  let journalFull = false;
  const journal = (entry: JournalEntry, said: string): void => {
    try {
      appendJournal(options.journalPath, entry);
    } catch (err) {
      const rest = plan.changes.length - entry.change;
      result.errors.push(`the journal ${options.journalPath} could not take change ${entry.change}'s line (${(err as Error).message}): ${said}; ${rest === 0 ? 'it was the last change' : `the ${rest} change(s) after it were not sent`}`);
      journalFull = true;
    }
  };
  for (const change of plan.changes) {
    if (journalFull) {
      result.skipped.push(change.n);
      continue;
    }
    const entry = journalEntry(plan, change);
    if (stoppedBy !== null) {
      result.skipped.push(change.n);
      journal({ ...entry, status: 'skipped', error: `not attempted: change ${stoppedBy} failed` }, 'it was not sent');
      continue;
    }
    try {
      await send(options, change);
    } catch (err) {
      const message = (err as Error).message;
      result.failed.push(change.n);
      result.errors.push(`change ${change.n} (${change.resource.kind} ${change.resource.id}): ${message}`);
      stoppedBy = change.n;
      journal({ ...entry, status: 'failed', error: message }, 'it failed (above) and is not in the journal');
      continue;
    }
    result.applied.push(change.n);
    journal({ ...entry, status: 'applied' }, `it was applied (${change.resource.kind} ${change.resource.id}) and is not in the journal`);
    if (options.onApplied) {
      try {
        await options.onApplied(change);
      } catch (err) {
        result.errors.push(`change ${change.n} was applied but not written back: ${(err as Error).message}`);
      }
    }
  }
  result.ok = result.errors.length === 0;
  return result;
}

/** Refuses the plan when a manifest it was made from has changed since (or is gone). */
export function assertManifestsUnchanged(plan: FixPlan, root: string): void {
  const problems = [];
  for (const ref of plan.manifests) {
    const now = manifestSha256(path.resolve(root, ref.file));
    if (now !== ref.sha256) {
      problems.push({
        file: ref.file,
        line: 0,
        column: 0,
        message: `${now === null ? 'is gone' : 'changed'} since plan ${plan.id} was made: nothing was applied; make a new plan`,
      });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
}

/** sha256 of the file's text, as the manifest loader computes it; null when unreadable. */
export function manifestSha256(file: string): string | null {
  try {
    return sha256(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The plan is what is sent: the change's request, checked and sent by the client as it stands. */
async function send(options: ApplyOptions, change: PlannedChange): Promise<void> {
  // The client retries a write only when it provably never reached the server.
  await options.api.send(change.request);
}

function journalEntry(plan: FixPlan, change: PlannedChange): Omit<JournalEntry, 'status'> {
  return {
    time: new Date().toISOString(),
    planId: plan.id,
    change: change.n,
    policies: change.policies,
    resource: { kind: change.resource.kind, id: change.resource.id },
    request: { method: change.request.method, path: change.request.path, body: change.request.body },
    before: change.before,
  };
}
