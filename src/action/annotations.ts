// Workflow annotations (DESIGN §11) through @actions/core: critical/high → error, medium →
// warning, low/info → notice. selectAnnotations (shared with `--format github`) keeps the most
// severe ANNOTATION_CAP per level, GitHub's display limit per step, and adds the "N more" notices.
import { isAbsolute } from 'node:path';
import * as core from '@actions/core';
import { ANNOTATION_CAP, type Annotation, selectAnnotations } from '../report/index.js';
import type { Report } from '../report/model.js';

const EMIT = { error: core.error, warning: core.warning, notice: core.notice } as const;

/**
 * A file outside the workspace (a policy of the built-in pack, which lives with the action, not
 * in the repository) cannot carry an annotation: it is shown on the run instead, without a file.
 */
export function inWorkspace(properties: Annotation['properties']): Annotation['properties'] {
  const file = properties.file;
  if (file === undefined || (!isAbsolute(file) && file !== '..' && !file.startsWith('../'))) return properties;
  return { title: properties.title };
}

/** Emits the annotations; returns how many were emitted per level. */
export function emitAnnotations(report: Report): Record<keyof typeof EMIT, number> {
  const counts = { error: 0, warning: 0, notice: 0 };
  for (const a of selectAnnotations(report, ANNOTATION_CAP).annotations) {
    EMIT[a.level](a.message, inWorkspace(a.properties));
    counts[a.level]++;
  }
  return counts;
}
