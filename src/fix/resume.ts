// Resuming from a journal (`steward fix --journal FILE`, DESIGN §10). The queue and data-file
// permission endpoints cannot be read back, so without `--write` the manifests still show the
// old state after a partial apply and a re-run would plan every change again. Given the earlier
// journal, a change is left out of the plan when the journal's last request sent to the same
// endpoint was exactly this request (method, path, canonical JSON body), it succeeded, and the
// declared state it was made from equals today's (the manifest's document did not change since).
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../core/problem.js';
import { decodeUtf8 } from '../io/input-file.js';
import type { InputProblem } from '../core/problem.js';
import type { JournalEntry } from './journal.js';
import { planId, uniqueManifests } from './identity.js';
import type { AlreadyApplied, FixPlan } from './types.js';
import { canonicalJson } from '../core/canonical-json.js';

/** A journal read for resuming: its entries in file order, and the name shown in the plan. */
export interface ResumeJournal {
  /** The journal as shown in output (relative to the working directory). */
  file: string;
  entries: JournalEntry[];
}

const STATUSES = new Set(['applied', 'failed', 'skipped']);

/**
 * Reads a journal to resume from; null when the file does not exist (it is then the new
 * journal). A line that is not a journal entry is bad input (exit 2) at `display:line`.
 */
export function readResumeJournal(file: string, display: string): ResumeJournal | null {
  if (!existsSync(file)) return null;
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file), display);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError([{ file: display, line: 0, column: 0, message: `cannot read journal: ${(err as Error).message}` }]);
  }
  const entries: JournalEntry[] = [];
  const problems: InputProblem[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const problem = entryProblem(line);
    if (problem) problems.push({ file: display, line: i + 1, column: 1, message: `not a steward journal entry: ${problem}` });
    else entries.push(JSON.parse(line) as JournalEntry);
  });
  if (problems.length > 0) throw new InputError(problems);
  return { file: display, entries };
}

function entryProblem(line: string): string | null {
  let e: unknown;
  try {
    e = JSON.parse(line);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  if (!isObject(e)) return 'not a JSON object';
  if (typeof e.time !== 'string') return '"time" must be a string';
  if (typeof e.planId !== 'string') return '"planId" must be a string';
  if (!Number.isInteger(e.change) || (e.change as number) < 1) return '"change" must be an integer from 1';
  if (!isObject(e.resource) || typeof e.resource.kind !== 'string' || typeof e.resource.id !== 'string') {
    return '"resource" must have a string kind and id';
  }
  const r = e.request;
  if (!isObject(r) || typeof r.method !== 'string' || typeof r.path !== 'string' || !('body' in r)) {
    return '"request" must have method, path and body';
  }
  if (!('before' in e)) return '"before" is missing';
  if (typeof e.status !== 'string' || !STATUSES.has(e.status)) return '"status" must be applied, failed or skipped';
  return null;
}

/**
 * The plan without the changes the journal shows as already applied, renumbered from 1 (its id
 * and manifests recomputed), with those changes listed in `alreadyApplied`.
 */
export function resumePlan(plan: FixPlan, journal: ResumeJournal): FixPlan {
  // The last request that reached each endpoint decides its state (writes replace the whole
  // list). Skipped requests were never sent; a failed one leaves the state unknown.
  const lastSent = new Map<string, JournalEntry>();
  for (const entry of journal.entries) {
    if (entry.status !== 'skipped') lastSent.set(endpoint(entry.request), entry);
  }
  const alreadyApplied: AlreadyApplied[] = [...(plan.alreadyApplied ?? [])];
  const remaining = [];
  for (const change of plan.changes) {
    const last = lastSent.get(endpoint(change.request));
    const same =
      last?.status === 'applied' &&
      canonicalJson(last.request.body) === canonicalJson(change.request.body) &&
      canonicalJson(last.before) === canonicalJson(change.before);
    if (!same) {
      remaining.push(change);
      continue;
    }
    alreadyApplied.push({
      type: change.type,
      policies: change.policies,
      findings: change.findings,
      resource: change.resource,
      manifest: change.manifest,
      request: change.request,
      after: change.after,
      journal: { file: journal.file, planId: last.planId, change: last.change, time: last.time },
    });
  }
  const changes = remaining.map((c, i) => ({ ...c, n: i + 1 }));
  const manifests = uniqueManifests(changes.map((c) => c.manifest));
  return { ...plan, id: planId(changes, manifests), changes, manifests, alreadyApplied };
}

/** "already applied (journal FILE, change N at TIME)" */
export function describeAlreadyApplied(a: AlreadyApplied): string {
  return `already applied (journal ${a.journal.file}, change ${a.journal.change} at ${a.journal.time})`;
}

function endpoint(request: { method: string; path: string }): string {
  return `${request.method} ${request.path}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
