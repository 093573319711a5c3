// `--write` (DESIGN §10): rewrites each changed manifest in place with rewrite.ts, so the repo
// (the source of truth for declared permissions) says what the instance now has.
//
// - With `--apply`, each manifest is rewritten right after its change is applied (applyFixes'
//   `onApplied`), not at the end: if a later change fails, the repo still matches exactly what
//   was sent, and a re-run plans only what is left.
// - `fix --write` without `--apply` rewrites the manifests and calls no API: the usual flow
//   is to fix the manifests in a pull request and let the deploy pipeline apply them.
// - Changes a `--journal` shows already applied (resume.ts) are rewritten too: without an
//   earlier `--write`, their manifests still declare the old state.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeWholeSync } from '../io/write-whole.js';
import { assertWithinChangeLimit, manifestSha256 } from './apply.js';
import { rewriteManifest } from './rewrite.js';
import type { FixPlan, PlannedChange } from './types.js';

export interface WriteBackResult {
  /** Manifest files rewritten (as the plan names them). */
  written: string[];
  /** Files whose text was already in the fixed state. */
  unchanged: string[];
}

/** What a write-back needs: a planned change, or one the journal shows already applied. */
export type WriteBackItem = Pick<PlannedChange, 'type' | 'manifest' | 'after'>;

/** Rewrites the manifest of one state change. Refuses a manifest edited since the plan. */
export function writeBackChange(change: WriteBackItem, root: string): 'written' | 'unchanged' | 'none' {
  if (change.type !== 'state' || !change.manifest) return 'none';
  const file = path.resolve(root, change.manifest.file);
  if (manifestSha256(file) !== change.manifest.sha256) {
    throw new Error(`${change.manifest.file} changed since the plan was made; not rewritten`);
  }
  const text = readFileSync(file, 'utf8');
  const { id: _id, ...state } = change.after;
  const next = rewriteManifest(text, state);
  if (next === text) return 'unchanged';
  writeWholeSync(file, next);
  return 'written';
}

/**
 * Rewrites every manifest of the plan (`fix --write` without `--apply`), including those of
 * changes the journal shows already applied: their manifests still declare the old state. A plan
 * of more than `maxChanges` (default 25) is refused whole, before any file is written.
 */
export function writeBackPlan(plan: FixPlan, root: string, maxChanges?: number): WriteBackResult {
  assertWithinChangeLimit(plan, maxChanges, 'no manifest was written');
  return writeBackAll([...plan.changes, ...(plan.alreadyApplied ?? [])], root);
}

/** Rewrites the manifests of the given changes (in order). */
function writeBackAll(items: WriteBackItem[], root: string): WriteBackResult {
  const result: WriteBackResult = { written: [], unchanged: [] };
  for (const change of items) {
    const outcome = writeBackChange(change, root);
    if (outcome === 'written') result.written.push(change.manifest!.file);
    if (outcome === 'unchanged') result.unchanged.push(change.manifest!.file);
  }
  return result;
}
