// `--format json`: the Report object of DESIGN §8, 2-space indent. Keys are written in a fixed
// order (the order §8 shows, then the report's further fields) whatever order the engine built
// the objects in, so two runs with the same result diff cleanly. Unknown keys are kept, last.
import { type Formatter, mapWaivers } from './formatter.js';
import { jsonChunks } from '../core/json-chunks.js';
import type { Finding, FixedFinding, PolicyResult, Report, SourceLocation, WaiverRef } from '../core/model.js';

type Json = Record<string, unknown>;

/** `obj` with `keys` first (those present), then any other keys in their original order. */
function ordered(obj: object, keys: readonly string[]): Json {
  const src = obj as Json;
  const out: Json = {};
  for (const k of keys) if (k in src && src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out;
}

function location(loc: SourceLocation | null | undefined): Json | null {
  return loc ? ordered(loc, ['file', 'line', 'column']) : null;
}

function waiver(w: WaiverRef): Json {
  const out = ordered(w, ['policy', 'resource', 'item', 'instances', 'reason', 'owner', 'expires', 'approver', 'ticket', 'risk', 'created', 'location']);
  if (w.location) out.location = location(w.location);
  return out;
}

function policy(p: PolicyResult): Json {
  const origin = p.origin === undefined ? {} : { origin: location(p.origin) };
  return ordered({ ...p, location: location(p.location), ...origin }, [
    'id',
    'severity',
    'resource',
    'status',
    'evaluated',
    'violations',
    'error',
    'title',
    'description',
    'tags',
    'enforcement',
    'controls',
    'location',
    'origin',
    'source',
    'resourceIds',
  ]);
}

function finding(f: Finding): Json {
  return ordered(
    {
      ...f,
      resource: ordered(f.resource, ['kind', 'id', 'name']),
      location: location(f.location),
      waiver: f.waiver ? waiver(f.waiver) : null,
      lifecycle: f.lifecycle ?? null,
      firstSeen: f.firstSeen ?? null,
    },
    [
      'policy',
      'severity',
      'status',
      'resource',
      'path',
      'message',
      'location',
      'fingerprint',
      'baseline',
      'fix',
      'waiver',
      'lifecycle',
      'firstSeen',
    ],
  );
}

function fixed(f: FixedFinding): Json {
  return ordered({ ...f, resource: ordered(f.resource, ['kind', 'id', 'name']) }, ['policy', 'severity', 'resource', 'fingerprint', 'message', 'firstSeen', 'fixedAt']);
}

/** The report as the plain object `--format json` prints (stable key order). */
export function toJsonReport(report: Report): Json {
  const s = report.summary;
  const summary = ordered(
    {
      ...s,
      bySeverity: ordered(s.bySeverity, ['critical', 'high', 'medium', 'low', 'info']),
    },
    ['policies', 'resources', 'checks', 'violations', 'waived', 'errors', 'bySeverity', 'gate'],
  );
  return ordered(
    {
      ...report,
      tool: ordered(report.tool, ['name', 'version']),
      summary,
      policies: report.policies.map(policy),
      findings: report.findings.map(finding),
      waivers: mapWaivers(report.waivers, waiver),
      fixed: (report.fixed ?? []).map(fixed),
      history: report.history ? ordered(report.history, ['file', 'run', 'new', 'open', 'reopened', 'fixed', 'trend']) : null,
      baseline: report.baseline ? ordered(report.baseline, ['file', 'resolved', 'resolvedEntries']) : null,
      ...(report.filters ? { filters: ordered(report.filters, ['skip', 'severity']) } : {}),
      ...(report.token ? { token: ordered(report.token, ['id', 'expires', 'daysLeft', 'note']) } : {}),
      coverage: (report.coverage ?? []).map((c) => ordered(c, ['kind', 'listed', 'evaluated', 'skippedPolicies', 'completeWith', 'partial', 'accepted', 'blocking'])),
      http: ordered(report.http, ['requests', 'retries', 'failed', 'throttled', 'lowestConcurrency', 'ratePerSecond']),
    },
    [
      'schemaVersion',
      'tool',
      'instance',
      'startedAt',
      'durationMs',
      'failOn',
      'summary',
      'policies',
      'findings',
      'waivers',
      'overrides',
      'frameworks',
      'baseline',
      'fixed',
      'history',
      'filters',
      'token',
      'coverage',
      'http',
    ],
  );
}

/** The JSON report in pieces that each end a line: a long run's report is never one string. */
export const jsonReportChunks = (report: Report): Iterable<string> => jsonChunks(toJsonReport(report));

export const formatJson: Formatter = (report) => [...jsonReportChunks(report)].join('');
