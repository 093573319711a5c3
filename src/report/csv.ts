// `--format csv`: one row per finding (violations, waived and errors), RFC 4180 written by
// csv-stringify (quotes, doubled quotes, CRLF). A header row names the columns. A cell that a
// spreadsheet would run as a formula (text from the instance starting with = + - @, a tab or a
// carriage return) gets a leading apostrophe, as OWASP advises against CSV injection.
import { stringify } from 'csv-stringify/sync';
import { type Finding, holdsSeveralInstances, type Report } from '../core/model.js';
import { ownerLabel } from '../core/owner.js';
import { type Formatter, locationText, sortFindings } from './formatter.js';

/** The columns, in order: each a header and how a finding fills it. */
export const CSV_COLUMNS: readonly (readonly [header: string, cell: (f: Finding, r: Report) => string])[] = [
  // A report of several instances: each row's instance by name; one instance: its base URL.
  ['instance', (f, r) => (holdsSeveralInstances(r) ? (f.instance ?? r.instance) : r.instance)],
  ['policy', (f) => f.policy],
  ['severity', (f) => f.severity],
  ['status', (f) => f.status],
  ['kind', (f) => f.resource.kind],
  ['resource_id', (f) => f.resource.id],
  ['resource_name', (f) => f.resource.name ?? ''],
  ['path', (f) => f.path ?? ''],
  ['item', (f) => f.item ?? ''],
  ['message', (f) => f.message],
  ['owner', (f) => ownerLabel(f)],
  ['owner_email', (f) => f.owner?.email ?? ''],
  ['owner_state', (f) => f.owner?.state ?? ''],
  ['owner_unknown', (f) => f.ownerUnknown ?? ''],
  ['team', (f) => f.team ?? ''],
  ['location', (f) => locationText(f.location)],
  ['lifecycle', (f) => f.lifecycle ?? ''],
  ['first_seen', (f) => f.firstSeen ?? ''],
  ['baseline', (f) => f.baseline ?? ''],
  ['waiver_owner', (f) => f.waiver?.owner ?? ''],
  ['waiver_expires', (f) => f.waiver?.expires ?? ''],
  ['waiver_reason', (f) => f.waiver?.reason ?? ''],
  ['fingerprint', (f) => f.fingerprint],
];

/** A cell a spreadsheet would evaluate, made inert. */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const formatCsv: Formatter = (report) => {
  const rows = sortFindings(report.findings).map((f) => CSV_COLUMNS.map(([, cell]) => inertCell(cell(f, report))));
  return stringify([CSV_COLUMNS.map(([header]) => header), ...rows], { record_delimiter: 'windows' });
};
