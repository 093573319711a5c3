// Workflow annotations (DESIGN §11) through @actions/core: critical/high → error, medium →
// warning, low/info → notice. selectAnnotations (shared with `--format github`) keeps the most
// severe ANNOTATION_CAP per level, GitHub's display limit per step, and adds the "N more" notices.
// It also places each annotation on a file of the workspace (the run's cwd), or on none.
import * as core from '@actions/core';
import { ANNOTATION_CAP, reportWithVisibleControls, selectAnnotations } from '../report/index.js';
import type { Report } from '../library/index.js';

const EMIT = { error: core.error, warning: core.warning, notice: core.notice } as const;

/** Emits the annotations; returns how many were emitted per level. */
export function emitAnnotations(report: Report): Record<keyof typeof EMIT, number> {
  const counts = { error: 0, warning: 0, notice: 0 };
  // The same filter as `--format github`: API text's controls and bidi overrides as escapes.
  for (const a of selectAnnotations(reportWithVisibleControls(report), ANNOTATION_CAP).annotations) {
    EMIT[a.level](a.message, a.properties);
    counts[a.level]++;
  }
  return counts;
}
