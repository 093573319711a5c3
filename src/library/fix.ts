// The fix session (DESIGN §10), one owner for `steward fix` and the Action: lock the journal →
// resume from it → plan from an evaluation (or take a saved plan, made for this instance) →
// refuse to apply when the gate is in error → apply one journaled request at a time → write the
// fixed state back to the manifests. The shells keep only their flags or inputs and rendering.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../core/display-path.js';
import { InputError } from '../core/problem.js';
import { type ApplyResult, applyFixes, defaultJournalPath, type FixPlan, readPlan, readResumeJournal, renderPlanJson, type ResumeJournal, resumePlan, writeBackChange, writeBackPlan } from '../fix/index.js';
import { lockFiles } from '../io/file-lock.js';
import { unwritableProblem } from '../io/writable.js';
import { writeWholeSync } from '../io/write-whole.js';
import { type Connection, withConnection } from './connect.js';
import { type Evaluation, evaluateOn } from './evaluate.js';
import { planRunFixes } from './plan-run.js';
import { type CheckOptions, prepareRun } from './prepare.js';

export type FixMode = 'plan' | 'write' | 'apply';

export interface FixOptions {
  /** plan: show it; write: rewrite the manifests to the fixed state; apply: send it (and write back with `writeBack`). */
  mode: FixMode;
  /** Manifest paths and files are relative to this (the cwd, or the Action's workspace). */
  root: string;
  /** The journal to append to; an existing one is resumed from (what it shows applied is not planned again). */
  journal?: string;
  /** A saved plan (`--plan`) instead of evaluating; refused for another instance unless `anyInstance`. */
  savedPlan?: string;
  anyInstance?: boolean;
  /** Save the plan (redacted) here. */
  planOut?: string;
  maxChanges?: number;
  includeOptIn?: boolean;
  /** apply: also write the fixed state back to the manifests as each change lands. */
  writeBack?: boolean;
  /** apply: asked with the plan before anything is sent; false sends nothing. */
  confirm?: (plan: FixPlan, instance: string) => Promise<boolean>;
  /** The evaluation a plan was made from, as soon as it exists (warnings, errors to show). */
  onEvaluated?: (evaluation: Evaluation) => void;
  /** The plan, before anything is applied or written. */
  onPlan?: (plan: FixPlan) => void;
}

export interface FixOutcome {
  plan: FixPlan;
  /** The evaluation the plan came from (null for a saved plan). */
  evaluation: Evaluation | null;
  /** Changes a resumed journal shows already applied (not sent again). */
  alreadyApplied: number;
  /** Why nothing was applied although `apply` was asked (the gate is in error), or null. */
  notApplied: string | null;
  applied: ApplyResult | null;
  /** The confirmation said no. */
  cancelled: boolean;
  /** Manifests rewritten (`write`), and write-back failures. */
  written: string[];
  writeErrors: string[];
  /** The journal written to (relative to `root`), when anything was sent. */
  journal: string | null;
}

/** Like `steward fix --apply` (exit 3 before applying): a run with evaluation errors applies nothing. */
export const NOT_APPLIED_ON_ERRORS = 'not applied: some policies could not be evaluated, so the plan may be incomplete';

const inputProblem = (file: string, message: string) => new InputError([{ file, line: 0, column: 0, message }]);

/** A whole session: prepare, lock, connect, evaluate (or take the saved plan), then as `fixWithin`. */
export async function fix(check: CheckOptions, options: FixOptions): Promise<FixOutcome> {
  const journalPath = options.journal ?? defaultJournalPath(options.root);
  const shown = (file: string) => displayPath(file, options.root);
  // Files the session writes, tried before anything is read or sent (their folders made): one
  // that cannot be written is bad input, not a failure once the instance was read or changed.
  const written: [flag: string, file: string | undefined][] = [
    ['--plan-out', options.planOut],
    ['--journal', options.mode === 'apply' ? journalPath : undefined],
  ];
  const unwritableFiles = written.flatMap(([flag, file]) => (file ? (unwritableProblem(flag, file, shown(file)) ?? []) : []));
  if (unwritableFiles.length > 0) throw new InputError(unwritableFiles);
  // Two runs applying from one journal would both read it before either writes, and send every
  // change twice: the journal is locked before it is read.
  const journalLock = options.mode === 'apply' ? lockFiles([journalPath], 'fix --apply', shown) : null;
  try {
    const journal = options.journal ? readResumeJournal(journalPath, shown(journalPath)) : null;
    const savedPlan = options.savedPlan ? readPlan(options.savedPlan) : null;
    // The plan and the journal are the run's files too: neither may be another file it reads or writes.
    const ownFiles = written.flatMap(([name, file]) => (file ? [{ name, file }] : []));
    const prepared = await prepareRun({ ...check, reportFiles: [...(check.reportFiles ?? []), ...ownFiles] });
    // Manifests a run may rewrite, or whose declared state it applies, are held too.
    const writes = options.mode !== 'plan' || options.writeBack;
    const manifests = writes ? Object.values(prepared.config.manifestFiles).flat() : [];
    const held = lockFiles(manifests, options.mode === 'apply' ? 'fix --apply' : 'fix --write', shown);
    try {
      return await withConnection(check, prepared, async (connection) => {
        if (savedPlan) {
          if (savedPlan.instance && savedPlan.instance !== connection.instance && !options.anyInstance) {
            throw inputProblem('--plan', `the plan was made for ${savedPlan.instance}, not ${connection.instance}`);
          }
          return settle(journal ? resumePlan(savedPlan, journal) : savedPlan, null, connection, { ...options, journal: journalPath }, journal);
        }
        const evaluation = await evaluateOn(check, prepared, connection);
        options.onEvaluated?.(evaluation);
        return planAndSettle(evaluation, connection, { ...options, journal: journalPath }, journal);
      });
    } finally {
      held.release();
    }
  } finally {
    journalLock?.release();
  }
}

/**
 * Plans from an evaluation already made over `connection` (the Action's, which reports it), then
 * applies or writes; an apply holds the journal's lock while it sends, as `fix` does.
 */
export async function fixWithin(evaluation: Evaluation, connection: Connection, options: FixOptions): Promise<FixOutcome> {
  const journalPath = options.journal ?? defaultJournalPath(options.root);
  if (options.mode !== 'apply') return planAndSettle(evaluation, connection, { ...options, journal: journalPath }, null);
  mkdirSync(path.dirname(journalPath), { recursive: true });
  const lock = lockFiles([journalPath], 'fix --apply', (file) => displayPath(file, options.root));
  try {
    return await planAndSettle(evaluation, connection, { ...options, journal: journalPath }, null);
  } finally {
    lock.release();
  }
}

async function planAndSettle(evaluation: Evaluation, connection: Connection, options: FixOptions, journal: ResumeJournal | null): Promise<FixOutcome> {
  const planned = await planRunFixes(evaluation, connection, { displayRoot: options.root, allowOptIn: options.includeOptIn });
  const plan = journal ? resumePlan(planned, journal) : planned;
  if (options.planOut) writeWholeSync(options.planOut, evaluation.prepared.config.secrets.redact(renderPlanJson(plan)));
  return settle(plan, evaluation, connection, options, journal);
}

async function settle(plan: FixPlan, evaluation: Evaluation | null, connection: Connection, options: FixOptions, journal: ResumeJournal | null): Promise<FixOutcome> {
  const outcome: FixOutcome = {
    plan,
    evaluation,
    alreadyApplied: journal ? (plan.alreadyApplied?.length ?? 0) : 0,
    notApplied: null,
    applied: null,
    cancelled: false,
    written: [],
    writeErrors: [],
    journal: null,
  };
  options.onPlan?.(plan);
  if (evaluation?.report.summary.gate === 'error') {
    if (options.mode === 'apply') outcome.notApplied = NOT_APPLIED_ON_ERRORS;
    return outcome;
  }
  if (options.mode === 'plan') return outcome;
  if (options.mode === 'write') {
    // Also the manifests of changes the journal shows already applied.
    outcome.written = writeBackPlan(plan, options.root, options.maxChanges).written;
    return outcome;
  }
  if (plan.changes.length === 0 && !options.writeBack) return outcome;
  const journalPath = options.journal ?? defaultJournalPath(options.root);
  const applied = await applyFixes(plan, {
    api: connection.api,
    journalPath,
    root: options.root,
    maxChanges: options.maxChanges,
    confirm: options.confirm ? (p) => options.confirm!(p, connection.instance) : undefined,
    onApplied: options.writeBack ? (change) => void writeBackChange(change, options.root) : undefined,
  });
  if (applied.cancelled) return { ...outcome, cancelled: true };
  outcome.applied = applied;
  if (plan.changes.length > 0) outcome.journal = displayPath(journalPath, options.root);
  if (options.writeBack) outcome.writeErrors = writeBackAlreadyApplied(plan, options.root);
  return outcome;
}

/** `--apply --write`: the manifests of changes the journal shows applied get the fixed state too. */
function writeBackAlreadyApplied(plan: FixPlan, root: string): string[] {
  const errors: string[] = [];
  for (const a of plan.alreadyApplied ?? []) {
    try {
      writeBackChange(a, root);
    } catch (err) {
      errors.push(`${a.resource.kind} ${a.resource.id} (already applied) was not written back: ${(err as Error).message}`);
    }
  }
  return errors;
}
