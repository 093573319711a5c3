// The orders every layer lists things in, defined once: severities most severe first, and the
// canonical order of findings (the engine reports them in it; formats group within it).
import naturalCompare from 'string-natural-compare';
import type { Finding, Severity } from './model.js';
import { SEVERITIES } from './model.js';

/** Most severe first: the order every format lists things in. */
export const SEVERITY_ORDER: readonly Severity[] = [...SEVERITIES].reverse();

const RANK = new Map<Severity, number>(SEVERITY_ORDER.map((s, i) => [s, i]));

/** 0 for critical … 4 for info (an unknown value sorts last). */
export function severityRank(s: Severity): number {
  return RANK.get(s) ?? SEVERITY_ORDER.length;
}

/**
 * Text in code-unit order, the same on every machine: `localeCompare` follows the process's
 * locale (LANG), and on an Estonian machine `z` sorts before `t`, so a folder's policy files, a
 * plan's manifests (its identity hash) and a report's rows came in another order. The order of
 * `LC_ALL=C ls`, git and conftest; no ICU data is loaded for it.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Text in natural order: a run of digits compares as a number (9001 < 10019, `permissions[2]` <
 * `permissions[10]`), every other character by code unit, as `compareText`. No ICU collator: its
 * first costs ~15 ms of a start (Node 20 and 24 alike), and its order moves with ICU's version,
 * so one Node could list a report's rows in another order than the next.
 */
export function compareNatural(a: string, b: string): number {
  return naturalCompare(a, b);
}

/**
 * The order findings are reported in, the same on every run and machine: severity (most severe
 * first), resource kind, resource id and path, compared naturally. Ties keep their input order.
 */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    compareNatural(a.resource.kind, b.resource.kind) ||
    compareNatural(a.resource.id, b.resource.id) ||
    compareNatural(a.path ?? '', b.path ?? '')
  );
}

/** A sorted copy (Array.prototype.sort is stable). */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(compareFindings);
}

/** A copy sorted by severity alone, most severe first, otherwise in input order. */
export function orderBySeverity(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}
