// `--format github`: GitHub Actions workflow commands (`::error file=…,line=…::message`), one
// annotation per finding at its manifest or policy line. Critical/high → error, medium →
// warning, low/info → notice; evaluation errors are always errors (the gate fails closed on
// them). GitHub shows at most ANNOTATION_CAP annotations per level per step, so each level
// keeps its most severe ones and one closing `::notice::` per capped level says how many more
// there are. The closing notices count against the notice cap, so notices get fewer slots.
// `selectAnnotations` is shared with the Action, which emits the same list via @actions/core.
// An annotation can only sit on a file of the repository: a finding of a policy defined outside
// it (the built-in pack) with no manifest carries no file (repo-location.ts decides).
import { catchAllWarning, type ErrorGroup, expiringWarning, errorGroups, errorSubject, type Formatter, findingSubject, severityRank, partialCoverageNotes, stoppedNote } from './formatter.js';
import { type Finding, holdsSeveralInstances, type PolicyResult, type Report, type Severity, type SourceLocation } from '../core/model.js';
import { findingFileLocation, policyFileLocation } from './repo-location.js';
import { reportWithVisibleControls } from './visible-controls.js';

export const ANNOTATION_CAP = 10;
/** Findings already in the baseline are accepted debt: listed in the summary, not annotated. */
export const ANNOTATE_KNOWN_BASELINE_FINDINGS = false;

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** Names match @actions/core's AnnotationProperties, so the Action passes them through. */
export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
  startColumn?: number;
}

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  properties: AnnotationProperties;
}

export interface AnnotationSelection {
  /** In emission order: errors, warnings, notices, then the closing "N more" notices. */
  annotations: Annotation[];
  /** Findings per level left out by the cap. */
  omitted: Record<AnnotationLevel, number>;
}

const LEVEL: Record<Severity, AnnotationLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'notice',
  info: 'notice',
};
const LEVELS: AnnotationLevel[] = ['error', 'warning', 'notice'];
const NOUN: Record<AnnotationLevel, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  notice: ['notice', 'notices'],
};

export function annotationLevel(f: Finding): AnnotationLevel {
  return f.status === 'error' ? 'error' : LEVEL[f.severity];
}

function where(loc: SourceLocation | null): AnnotationProperties {
  if (!loc) return {};
  const p: AnnotationProperties = { file: loc.file };
  if (loc.line > 0) p.startLine = loc.line;
  if (loc.line > 0 && loc.column > 0) p.startColumn = loc.column;
  return p;
}

/** `several`: the report holds several instances, whose findings may sit on one manifest line: the title names each one's. */
function annotate(f: Finding, policy: PolicyResult | undefined, several: boolean): Annotation {
  const on = several && f.instance ? ` on ${f.instance}` : '';
  return {
    level: annotationLevel(f),
    message: `${findingSubject(f)}: ${f.message}`,
    properties: { title: `${f.policy} (${f.severity}${f.lifecycle === 'new' || f.lifecycle === 'reopened' ? `, ${f.lifecycle}` : ''})${on}`, ...where(findingFileLocation(f, policy)) },
  };
}

/**
 * One error annotation per cause, saying "could not …" once. Its place is its
 * findings' place when they share one, else the policy's.
 */
function annotateErrors(g: ErrorGroup, policy: PolicyResult | undefined): Annotation {
  const subject = errorSubject(g);
  const shared = g.findings.find((f) => f.location === g.location);
  const location = shared ? findingFileLocation(shared, policy) : policyFileLocation(policy, g.location);
  return {
    level: 'error',
    message: `${subject ? `${subject}: ` : ''}${/^could not /.test(g.message) ? '' : 'could not evaluate: '}${g.message}`,
    properties: { title: `${g.policy} (${g.severity})`, ...where(location) },
  };
}

/** By severity, then report order. */
function bySeverity(a: { f: Finding; i: number }, b: { f: Finding; i: number }): number {
  return severityRank(a.f.severity) - severityRank(b.f.severity) || a.i - b.i;
}

export function selectAnnotations(report: Report, cap = ANNOTATION_CAP): AnnotationSelection {
  const candidates = report.findings
    .map((f, i) => ({ f, i }))
    .filter(
      ({ f }) => f.status === 'violation' && (ANNOTATE_KNOWN_BASELINE_FINDINGS || f.baseline !== 'known'),
    )
    .sort(bySeverity);
  const policies = new Map(report.policies.map((p) => [p.id, p]));
  // Evaluation errors first (the gate fails closed on them), most severe policy first.
  const errors = errorGroups(report)
    .map((g, i) => ({ g, i }))
    .sort((a, b) => severityRank(a.g.severity) - severityRank(b.g.severity) || a.i - b.i)
    .map(({ g }) => annotateErrors(g, policies.get(g.policy)));
  // A catch-all waiver can hide a critical finding: warned about before any finding of that level.
  const catchAll = report.waivers.catchAll.map(
    (w): Annotation => ({ level: 'warning', message: catchAllWarning(w), properties: { title: 'catch-all waiver', ...where(w.location ?? null) } }),
  );
  const expiring = report.waivers.expiring.map(
    (w): Annotation => ({ level: 'warning', message: expiringWarning(w, report.startedAt), properties: { title: 'waiver ending soon', ...where(w.location ?? null) } }),
  );
  const partial = (report.coverage ?? []).filter((c) => c.partial !== null);
  const coverage = partialCoverageNotes(report).map(
    (message, i): Annotation => ({ level: partial[i].blocking ? 'error' : 'warning', message, properties: { title: 'partial coverage' } }),
  );
  const stopped = stoppedNote(report);
  const stop: Annotation[] = stopped ? [{ level: 'error', message: stopped, properties: { title: 'run stopped' } }] : [];
  const pool: Record<AnnotationLevel, Annotation[]> = {
    error: [...stop, ...coverage.filter((a) => a.level === 'error'), ...errors],
    warning: [
      ...coverage.filter((a) => a.level === 'warning'),
      ...(report.token ? [{ level: 'warning' as const, message: report.token.note, properties: { title: 'token expiry' } }] : []),
      ...catchAll,
      ...expiring,
    ],
    notice: [],
  };
  const several = holdsSeveralInstances(report);
  for (const { f } of candidates) pool[annotationLevel(f)].push(annotate(f, policies.get(f.policy), several));

  const omitted: Record<AnnotationLevel, number> = { error: 0, warning: 0, notice: 0 };
  omitted.error = Math.max(0, pool.error.length - cap);
  omitted.warning = Math.max(0, pool.warning.length - cap);
  // Each closing line is a notice too: leave room for them in the notice cap.
  let noticeRoom = cap - (omitted.error > 0 ? 1 : 0) - (omitted.warning > 0 ? 1 : 0);
  if (pool.notice.length > noticeRoom) noticeRoom -= 1;
  omitted.notice = Math.max(0, pool.notice.length - Math.max(0, noticeRoom));

  const annotations: Annotation[] = [];
  for (const level of LEVELS)
    annotations.push(...pool[level].slice(0, pool[level].length - omitted[level]));
  for (const level of LEVELS) {
    const n = omitted[level];
    if (n === 0) continue;
    const noun = NOUN[level][n === 1 ? 0 : 1];
    annotations.push({
      level: 'notice',
      message: `${n} more ${noun} not shown; see the job summary or report`,
      properties: {},
    });
  }
  return { annotations, omitted };
}

/** Workflow command data: `%`, CR and LF are escaped (actions/toolkit `escapeData`). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow command property values additionally escape `:` and `,` (`escapeProperty`). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One annotation as a workflow command line. */
export function workflowCommand(a: Annotation): string {
  const p = a.properties;
  const props = [
    p.file !== undefined ? `file=${escapeProperty(p.file)}` : '',
    p.startLine !== undefined ? `line=${p.startLine}` : '',
    p.startColumn !== undefined ? `col=${p.startColumn}` : '',
    p.title !== undefined ? `title=${escapeProperty(p.title)}` : '',
  ].filter(Boolean);
  return `::${a.level}${props.length ? ` ${props.join(',')}` : ''}::${escapeData(a.message)}`;
}

export const formatGithub: Formatter = (report) => {
  const lines = selectAnnotations(reportWithVisibleControls(report)).annotations.map(workflowCommand);
  return lines.length ? `${lines.join('\n')}\n` : '';
};
