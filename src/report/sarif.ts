// `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
//
// - One run; one rule per policy; one result per violation or waived finding. Waived findings
//   stay results with an accepted external suppression (reported, never hidden).
// - Evaluation errors are NOT results: they say nothing about the repo's files, and as results
//   code scanning would open an alert on a flaky API and close it on the next run. They are
//   `toolExecutionNotifications` (level error) of the one invocation, whose
//   `executionSuccessful` is false when the gate is `error`.
// - Expired and stale waivers are `toolConfigurationNotifications` pointing at the waiver.
// - Every result has a physical location (code scanning rejects the whole log otherwise): a
//   declared resource points at its manifest line, a live one at its policy's line (the engine
//   fills `finding.location`; the policy's location is the fallback). A policy file outside
//   the repository (the built-in pack) cannot be mapped by code scanning: its findings point
//   at the steward.yaml `policies` entry that brought it in (repo-location.ts decides), and
//   `properties.policyLocation` and the rule's help still name the policy's own file:line.
import { perInstance } from './instances.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import { catchAllWarning, expiringWarning, type FormatOptions, mapWaivers, type Formatter, findingSubject, locationText, waiverTarget, partialCoverageNotes, stoppedNote } from './formatter.js';
import type {
  Finding,
  PolicyResult,
  Report,
  Severity,
  SourceLocation,
  WaiverRef,
} from '../core/model.js';
import { findingRepoLocation, policyRepoLocation, type RepoPlacement } from './repo-location.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Key of `partialFingerprints`; bump the version when the fingerprint recipe changes. */
export const FINGERPRINT_KEY = 'steward/v1';
export const SRCROOT = '%SRCROOT%';

const LEVEL: Record<Severity, Sarif.ReportingConfiguration.level> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/**
 * `properties.security-severity` per severity: GitHub maps ≥ 9.0 to critical, 7.0–8.9 high,
 * 4.0–6.9 medium, 0.1–3.9 low (shown for rules tagged `security`).
 */
export const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

/** A relative, `/`-separated path as a URI reference (each segment percent-encoded). */
export function fileUri(file: string): string {
  return file
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

function physical(loc: SourceLocation): Sarif.Location {
  const region: Sarif.Region = {};
  if (loc.line > 0) region.startLine = loc.line;
  if (loc.line > 0 && loc.column > 0) region.startColumn = loc.column;
  return {
    physicalLocation: {
      artifactLocation: { uri: fileUri(loc.file), uriBaseId: SRCROOT },
      ...(region.startLine ? { region } : {}),
    },
  };
}

/** The repository place, else (nothing in the repository fits) the location as it is. */
function shownAt(placed: RepoPlacement, own: SourceLocation | null): SourceLocation | null {
  return placed.location ?? own;
}

function locations(f: Finding, policy: PolicyResult | undefined, placed: RepoPlacement): Sarif.Location[] {
  const loc = shownAt(placed, f.location ?? policy?.location ?? null);
  const logical: Sarif.LogicalLocation = {
    name: f.resource.id,
    fullyQualifiedName: `${f.resource.kind}/${f.resource.id}${f.path ? `/${f.path}` : ''}`,
    kind: 'resource',
  };
  const base: Sarif.Location = loc ? physical(loc) : {};
  return [{ ...base, logicalLocations: [logical] }];
}

/** Where the policy is defined, and where its findings are shown when that is elsewhere. */
function definedAt(p: PolicyResult, code: (s: string) => string): string {
  if (!p.location) return '';
  const defined = `Defined in ${code(p.location.file)} line ${p.location.line}`;
  const placed = policyRepoLocation(p);
  if (!placed.policyLocation || !placed.location) return `\n\n${defined}.`;
  const entry = `${code(placed.location.file)} line ${placed.location.line}`;
  return `\n\n${defined}, outside the repository; brought in by the ${code('policies')} entry at ${entry}, where its findings on live resources are shown.`;
}

/** `queue-no-admin-for-users` → `QueueNoAdminForUsers`: SARIF wants a name distinct from the id. */
export function ruleName(id: string): string {
  return id.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/**
 * Where the tool and its built-in policies are documented: the package's page, which renders
 * the README (the npm page of the scoped package name, the one public home the project has).
 */
export const INFORMATION_URI = 'https://www.npmjs.com/package/@steward-pac/steward';

function rule(p: PolicyResult): Sarif.ReportingDescriptor {
  const where = definedAt(p, (s) => `\`${s}\``);
  const text = `${p.title}\n\n${p.description}\n\nSeverity: ${p.severity}. Resource kind: ${p.resource}.${definedAt(p, (s) => s)}`;
  return {
    id: p.id,
    name: ruleName(p.id),
    shortDescription: { text: p.title || p.id },
    fullDescription: { text: p.description || p.title || p.id },
    help: {
      text,
      markdown: `**${p.title}**\n\n${p.description}\n\nSeverity: **${p.severity}**. Resource kind: \`${p.resource}\`.${where}`,
    },
    defaultConfiguration: { level: LEVEL[p.severity] },
    properties: {
      // `security` makes code scanning rank alerts by security-severity.
      tags: [...new Set(['security', ...p.tags])],
      'security-severity': SECURITY_SEVERITY[p.severity],
      severity: p.severity,
      resourceKind: p.resource,
    },
  };
}

function waiverNote(w: WaiverRef): string {
  return `${w.reason} (owner ${w.owner}, expires ${w.expires})`;
}

function result(
  f: Finding,
  index: Map<string, number>,
  policies: Map<string, PolicyResult>,
  baseline: boolean,
): Sarif.Result {
  const policy = policies.get(f.policy);
  const placed = findingRepoLocation(f, policy);
  const r: Sarif.Result = {
    ruleId: f.policy,
    level: LEVEL[f.severity],
    kind: 'fail',
    message: { text: `${findingSubject(f)}: ${f.message}` },
    locations: locations(f, policy, placed),
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
    properties: {
      severity: f.severity,
      resource: f.resource,
      path: f.path,
      ...(placed.policyLocation ? { policyLocation: locationText(placed.policyLocation) } : {}),
      // With a run history: new / open / reopened, and since when.
      ...(f.lifecycle ? { lifecycle: f.lifecycle, firstSeen: f.firstSeen } : {}),
      // Who can act on it: the platform owner (or why unknown) and the owners: map's team.
      ...(f.owner !== undefined ? { owner: f.owner, ...(f.ownerUnknown ? { ownerUnknown: f.ownerUnknown } : {}) } : {}),
      ...(f.team !== undefined ? { team: f.team } : {}),
    },
  };
  const ruleIndex = index.get(f.policy);
  if (ruleIndex !== undefined) r.ruleIndex = ruleIndex;
  if (baseline && f.baseline) r.baselineState = f.baseline === 'new' ? 'new' : 'unchanged';
  if (f.status === 'waived') {
    r.suppressions = [
      {
        kind: 'external',
        status: 'accepted',
        justification: f.waiver ? waiverNote(f.waiver) : 'waived',
        ...(f.waiver?.location ? { location: physical(f.waiver.location) } : {}),
      },
    ];
  }
  return r;
}

function errorNotification(
  message: string,
  policyId: string,
  loc: SourceLocation | null,
  index: Map<string, number>,
): Sarif.Notification {
  const n: Sarif.Notification = {
    level: 'error',
    message: { text: message },
    descriptor: { id: 'evaluation-error' },
    associatedRule: { id: policyId },
  };
  const ruleIndex = index.get(policyId);
  if (ruleIndex !== undefined) n.associatedRule = { id: policyId, index: ruleIndex };
  if (loc) n.locations = [physical(loc)];
  return n;
}

const WAIVER_NOTICE = {
  expired: (w: WaiverRef) => `Waiver ${waiverTarget(w)} expired on ${w.expires} and no longer applies (owner ${w.owner}).`,
  stale: (w: WaiverRef) => `Waiver ${waiverTarget(w)} matched no finding (owner ${w.owner}).`,
  'catch-all': catchAllWarning,
};

function waiverNotification(w: WaiverRef, kind: keyof typeof WAIVER_NOTICE | 'expiring', startedAt = ''): Sarif.Notification {
  const text = kind === 'expiring' ? expiringWarning(w, startedAt) : WAIVER_NOTICE[kind](w);
  return {
    level: kind === 'stale' ? 'note' : 'warning',
    message: { text },
    descriptor: { id: `waiver-${kind}` },
    ...(w.location ? { locations: [physical(w.location)] } : {}),
  };
}

function endTime(report: Report): string | undefined {
  const start = Date.parse(report.startedAt);
  return Number.isNaN(start) ? undefined : new Date(start + report.durationMs).toISOString();
}

/** The report with every location's file relative to `root` instead of `cwd` (files outside root kept). */
function rebased(report: Report, cwd: string, root: string): Report {
  const move = <T extends SourceLocation | null | undefined>(loc: T): T => {
    if (!loc || path.isAbsolute(loc.file)) return loc;
    const rel = path.relative(root, path.resolve(cwd, loc.file)).split(path.sep).join('/');
    return rel.startsWith('..') ? loc : ({ ...loc, file: rel } as T);
  };
  const waiver = <W extends WaiverRef | null>(w: W): W => (w ? ({ ...w, location: move(w.location) } as W) : w);
  return {
    ...report,
    policies: report.policies.map((p) => ({ ...p, location: move(p.location), ...(p.origin !== undefined ? { origin: move(p.origin) } : {}) })),
    findings: report.findings.map((f) => ({ ...f, location: move(f.location), waiver: waiver(f.waiver) })),
    waivers: mapWaivers(report.waivers, waiver),
  };
}

/** One run per instance (`automationDetails.id` each), so code scanning keeps each instance's alerts apart. */
export function toSarif(input: Report, options: Pick<FormatOptions, 'cwd' | 'root'> = {}): Sarif.Log {
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: perInstance(input).map((report) => sarifRun(report, options)) };
}

function sarifRun(input: Report, options: Pick<FormatOptions, 'cwd' | 'root'>): Sarif.Run {
  const base = options.root ?? options.cwd;
  const report = options.root && options.cwd && options.root !== options.cwd ? rebased(input, options.cwd, options.root) : input;
  const index = new Map(report.policies.map((p, i) => [p.id, i]));
  const policies = new Map(report.policies.map((p) => [p.id, p]));
  const baseline = report.baseline !== null;
  const results = report.findings
    .filter((f) => f.status !== 'error')
    .map((f) => result(f, index, policies, baseline));
  const errors = [
    ...report.policies
      .filter((p) => p.error)
      .map((p) => errorNotification(`${p.id}: ${p.error}`, p.id, shownAt(policyRepoLocation(p), p.location), index)),
    ...report.findings
      .filter((f) => f.status === 'error')
      .map((f) =>
        errorNotification(
          `${findingSubject(f)}: ${f.message}`,
          f.policy,
          shownAt(
            findingRepoLocation(f, policies.get(f.policy)),
            f.location ?? policies.get(f.policy)?.location ?? null,
          ),
          index,
        ),
      ),
  ];
  const config = [
    ...report.waivers.expired.map((w) => waiverNotification(w, 'expired')),
    ...report.waivers.stale.map((w) => waiverNotification(w, 'stale')),
    ...report.waivers.catchAll.map((w) => waiverNotification(w, 'catch-all')),
    ...report.waivers.expiring.map((w) => waiverNotification(w, 'expiring', report.startedAt)),
  ];
  // A kind whose listing is known to be partial: an error when it made the run exit 3, else a warning.
  const partial = partialCoverageNotes(report).map((text, i): Sarif.Notification => ({
    level: (report.coverage ?? []).filter((c) => c.partial !== null)[i]?.blocking ? 'error' : 'warning',
    message: { text },
    descriptor: { id: 'partial-coverage' },
  }));
  const token: Sarif.Notification[] = report.token ? [{ level: 'warning', message: { text: report.token.note }, descriptor: { id: 'token-expiry' } }] : [];
  // What stopped the run (a refused token, the deadline, a run that evaluated nothing), said once:
  // a refused empty run has no error of a policy to say it with.
  const stopped = stoppedNote(report);
  const stop: Sarif.Notification[] = stopped ? [{ level: 'error', message: { text: stopped }, descriptor: { id: 'run-stopped' } }] : [];
  const notifications = [...stop, ...errors, ...partial, ...token];
  const end = endTime(report);
  const invocation: Sarif.Invocation = {
    executionSuccessful: report.summary.gate !== 'error',
    ...(end
      ? { startTimeUtc: new Date(Date.parse(report.startedAt)).toISOString(), endTimeUtc: end }
      : {}),
    ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
    ...(config.length ? { toolConfigurationNotifications: config } : {}),
  };
  const run: Sarif.Run = {
    tool: {
      driver: {
        name: 'steward',
        fullName: `steward ${report.tool.version} (policy-as-code compliance checks)`,
        informationUri: INFORMATION_URI,
        version: report.tool.version,
        semanticVersion: /^\d+\.\d+\.\d+/.test(report.tool.version)
          ? report.tool.version
          : undefined,
        rules: report.policies.map(rule),
      },
    },
    invocations: [invocation],
    // One category per instance: runs against two instances do not close each other's alerts.
    automationDetails: { id: `steward/${report.instance.replace(/^[a-z]+:\/\//, '')}/` },
    columnKind: 'utf16CodeUnits',
    results,
    properties: { instance: report.instance, ...(report.policies[0]?.instance ? { instanceName: report.policies[0].instance } : {}), gate: report.summary.gate, failOn: report.failOn },
  };
  if (base) {
    const href = pathToFileURL(base).href;
    run.originalUriBaseIds = { [SRCROOT]: { uri: href.endsWith('/') ? href : `${href}/` } };
  }
  return run;
}

export const formatSarif: Formatter = (report, options) =>
  `${JSON.stringify(toSarif(report, options), null, 2)}\n`;
