// The report of one run (DESIGN §8). Every output format is rendered from this one object.

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export type FailOn = Severity | 'none';

/**
 * How a policy's violations count: `advisory` never fails the gate, `soft` fails it unless the
 * run overrides it with a reason, `hard` (the default) always does and cannot be overridden.
 */
export const ENFORCEMENTS = ['advisory', 'soft', 'hard'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];
export const DEFAULT_ENFORCEMENT: Enforcement = 'hard';

/** A soft policy whose violations this run does not let fail the gate, and why (recorded in every report). */
export interface Override {
  policy: string;
  reason: string;
}

/** One control of a framework: how the policies mapped to it came out in this run. */
export interface ControlSummary {
  id: string;
  status: 'pass' | 'fail' | 'error' | 'not-evaluated';
  /** Ids of the policies mapped to it. */
  policies: string[];
}

export interface FrameworkSummary {
  name: string;
  controls: ControlSummary[];
}

export const REPORT_SCHEMA_VERSION = 1;

export interface SourceLocation {
  /** Path relative to the working directory (or GITHUB_WORKSPACE in the Action), `/` separated. */
  file: string;
  line: number;
  column: number;
}

export interface WaiverRef {
  policy: string;
  resource: string;
  item?: string;
  reason: string;
  owner: string;
  expires: string;
  /** Who approved the exception (optional; a config can require it). */
  approver?: string;
  /** The change or risk ticket that records it. */
  ticket?: string;
  risk?: 'low' | 'medium' | 'high';
  /** YYYY-MM-DD the waiver was written. */
  created?: string;
  /** The instances (names in `instances:`) it applies on; absent, every instance. */
  instances?: string[];
  location?: SourceLocation;
}

/** A waiver's identity across reports (the same entry read by several runs, or merged). */
export const waiverKey = (w: WaiverRef): string => JSON.stringify([w.policy, w.resource, w.item ?? null, w.expires, w.reason, w.instances ?? null]);

/** The optional fields of a waiver that `waiverRules.require` can make mandatory. */
export const GOVERNED_WAIVER_FIELDS = ['approver', 'ticket', 'risk', 'created'] as const;
export type GovernedWaiverField = (typeof GOVERNED_WAIVER_FIELDS)[number];

/** Days before its `expires` from which an active waiver is warned about (config `waiverWarningDays`). */
export const WAIVER_WARNING_DAYS_DEFAULT = 30;

/** Days before the token in use (instance.tokenId) expires that every report warns (two weeks: one sprint to rotate it). */
export const TOKEN_WARNING_DAYS_DEFAULT = 14;

/** What a run found out about the token in use (instance.tokenId), when there is something to say. */
export interface TokenExpiry {
  id: string;
  /** ISO time, or null when the token was not found or the list could not be read. */
  expires: string | null;
  /** Whole days left (negative: expired), or null. */
  daysLeft: number | null;
  note: string;
}

export interface FindingResource {
  kind: string;
  id: string;
  name: string | null;
}

export interface FindingOwner {
  type: 'USER' | 'GROUP';
  id: string;
  name: string | null;
  email: string | null;
  /** active, pending, deactivated, deleted, unknown (in no listing); null for a group. */
  state: string | null;
  /** The team the config's `owners:` map routes the finding to (the same as `Finding.team`). */
  team?: string;
}

/** The change a fix would make, as planned; filled by `steward fix`, null in `check`. */
export type FindingFix = Record<string, unknown> | null;

/**
 * Where a finding stands against the run history: `new` (never seen before), `open` (present
 * in the previous run that evaluated its policy), `reopened` (seen once, gone, back again).
 */
export const LIFECYCLES = ['new', 'open', 'reopened'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

export interface Finding {
  /** The name of the instance it was found on (`instances:`; `default` for a single-instance config). */
  instance?: string;
  policy: string;
  severity: Severity;
  status: 'violation' | 'waived' | 'error';
  resource: FindingResource;
  /** Path of the offending item inside the resource, e.g. `permissions[0]`; null for the whole resource. */
  path: string | null;
  /** Key of the offending `each` item (its `id`, else its index) that waivers match; null for the whole resource. */
  item?: string | null;
  message: string;
  location: SourceLocation | null;
  fingerprint: string;
  baseline: 'new' | 'known' | null;
  fix: FindingFix;
  waiver: WaiverRef | null;
  /** Only with a run history; errors have none. */
  lifecycle?: Lifecycle | null;
  /** When the history first saw this fingerprint (ISO time); only with a run history. */
  firstSeen?: string | null;
  /**
   * Who owns the resource: the platform's owner field resolved against the user directory; null
   * with `ownerUnknown` saying why when the kind has no owner or it could not be read.
   */
  owner?: FindingOwner | null;
  ownerUnknown?: string;
  /** The team the config's `owners:` map routes the finding to; null when no rule matches (absent without `owners:`). */
  team?: string | null;
  /** Only on an error: its cause stopped the whole run (`Report.stoppedBy`), so it is said there once. */
  runWide?: boolean;
}

/** One `notify:` channel of a run: whether its digest was delivered, and why not. */
export interface NotificationRecord {
  type: 'slack' | 'teams' | 'webhook';
  /** `env:NAME`: the variable holding the URL (never the URL). */
  destination: string;
  sent: boolean;
  /** HTTP attempts made (0: not sent). */
  attempts: number;
  /** The last answer's status, or null. */
  status: number | null;
  /** Changes the message lists (at most NOTIFY_MAX_ITEMS), counted whether or not it was sent: `sent` and `error` say whether it was. */
  items: number;
  /** Why it was not sent (nothing changed, no history, a variable not set, a failed delivery), or null. */
  error: string | null;
}

/** A failure no request of the run could escape: a refused token, an unreachable host, the deadline. */
export interface RunWideCause {
  /** What stopped the run, e.g. `the instance refused the developer token (401 Unauthorized)`. */
  cause: string;
  /** What to do about it. */
  advice: string;
}

/** A finding of the previous run that this run, evaluating its policy without error, no longer has. */
export interface FixedFinding {
  instance?: string;
  policy: string;
  severity: Severity;
  resource: FindingResource;
  fingerprint: string;
  message: string;
  firstSeen: string;
  /** This run's start. */
  fixedAt: string;
  /** The team the `owners:` map routes it to (policy, kind and tag rules only); absent without `owners:`. */
  team?: string | null;
}

/**
 * What a run saw of one kind: how many resources it listed, the grant without which its listing
 * holds only what the token's user can see, and whether the listing is known to be partial.
 */
export interface CoverageRecord {
  instance?: string;
  kind: string;
  /** Resources collected (a listing is never cut short: an incomplete one is an error, exit 3). */
  listed: number;
  /**
   * Resources at least one policy judged, counted by the engine over its verdicts (a kind's
   * resources are distinct: a listing refuses a repeated id, scope lists and manifests too).
   */
  evaluated: number;
  /** Policies over the kind that checked nothing (its scope names nothing). */
  skippedPolicies: number;
  /** The grant the listing needs to be the whole instance's (null: it is whatever the grant). */
  completeWith: string | null;
  /** Why the listing is known to be partial (null: not known to be). */
  partial: string | null;
  /** The config accepts this kind's partial listing (acceptPartialCoverage). */
  accepted: boolean;
  /** Partial, not accepted, and read by a policy at or above failOn: the run is exit 3. */
  blocking: boolean;
}

/** One run of the history, for trends. */
export interface HistoryPoint {
  run: number;
  startedAt: string;
  gate: ReportSummary['gate'];
  violations: number;
  bySeverity: Record<Severity, number>;
  new: number;
  reopened: number;
  fixed: number;
}

/** What the run history said about this run (only with one). */
export interface HistorySummary {
  /** The history file, as shown to the user. */
  file: string;
  /** This run's id in the history. */
  run: number;
  new: number;
  open: number;
  reopened: number;
  fixed: number;
  /** The last runs of this instance, oldest first, this one last. */
  trend: HistoryPoint[];
}

export interface PolicyResult {
  /** The instance it was evaluated on (a merged report holds each policy once per instance). */
  instance?: string;
  id: string;
  title: string;
  description: string;
  severity: Severity;
  resource: string;
  status: 'pass' | 'fail' | 'error' | 'skipped';
  /** Resources (or items, for `each` policies) evaluated. */
  evaluated: number;
  violations: number;
  error: string | null;
  /** Ids of the resources evaluated (JUnit writes one testcase each). */
  resourceIds: string[];
  /** Where the policy is defined. */
  location: SourceLocation | null;
  /**
   * Where the config brought the policy in: the `policies` entry of steward.yaml (or
   * `--policies`, line 0); null when nobody named it. SARIF and annotations place live-kind
   * findings here when `location` lies outside the repository (the built-in pack).
   */
  origin?: SourceLocation | null;
  /** The npm package and version that brought the policy in (a pack by name); absent otherwise. */
  source?: { package: string; version: string };
  tags: string[];
  /** The effective level (the policy's, or the config's `enforcement.<id>`). */
  enforcement: Enforcement;
  /** Control ids per framework, e.g. { SOC2: ['CC6.1'] }. */
  controls: Record<string, string[]>;
}

export interface ReportSummary {
  policies: number;
  resources: number;
  checks: number;
  violations: number;
  waived: number;
  errors: number;
  bySeverity: Record<Severity, number>;
  gate: 'pass' | 'fail' | 'error';
}

/** A baseline entry no longer seen; files written before entries were stored give only the fingerprint. */
export interface ResolvedBaselineEntry {
  fingerprint: string;
  /** The instance it was recorded on (each instance's entries are resolved apart). */
  instance?: string;
  policy?: string;
  resource?: { kind: string; id: string };
  path?: string | null;
  message?: string;
}

/** Whether a report holds several instances' runs (`instances:`, `steward merge`): its findings then name theirs. */
export const holdsSeveralInstances = (report: Pick<Report, 'instances'>): boolean => (report.instances?.length ?? 0) > 1;

/** `prod: ` before what a finding is about when its report holds several instances (the same id may be on each), else ''. */
export const instancePrefix = (report: Pick<Report, 'instances'>, instance: string | undefined): string =>
  holdsSeveralInstances(report) && instance ? `${instance}: ` : '';

/** A report's resolved baseline entries: its `resolvedEntries`, else (an older report) the bare fingerprints. */
export function resolvedEntriesOf(baseline: NonNullable<Report['baseline']>): ResolvedBaselineEntry[] {
  return baseline.resolvedEntries ?? baseline.resolved.map((fingerprint) => ({ fingerprint }));
}

/** One instance of a report that holds several (`instances:`, `steward merge`): its own run and verdict. */
export interface InstanceRun {
  name: string;
  /** Its base URL (what a single-instance report calls `instance`). */
  url: string;
  startedAt: string;
  durationMs: number;
  failOn: FailOn;
  summary: ReportSummary;
  http: Report['http'];
  stoppedBy?: RunWideCause[];
  token?: TokenExpiry | null;
  history?: HistorySummary | null;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  tool: { name: 'steward'; version: string };
  instance: string;
  startedAt: string;
  durationMs: number;
  failOn: FailOn;
  summary: ReportSummary;
  policies: PolicyResult[];
  findings: Finding[];
  /**
   * Waivers past their date (they no longer apply), waivers that matched nothing, and active
   * catch-all waivers (resource `*`: every resource of a policy, including future ones).
   */
  waivers: {
    expired: WaiverRef[];
    stale: WaiverRef[];
    catchAll: WaiverRef[];
    /** Every waiver still in force for the policies that ran. */
    active: WaiverRef[];
    /** Active waivers that end within `waiverWarningDays` (default 30). */
    expiring: WaiverRef[];
  };
  /** Soft policies this run overrode, with the reasons given. */
  overrides: Override[];
  /** Per framework the loaded policies name, per control: pass / fail / error / not evaluated. */
  frameworks: FrameworkSummary[];
  /** Baseline entries no longer seen (only with --baseline). */
  baseline: {
    file: string;
    /** Their fingerprints. */
    resolved: string[];
    /** The same entries, in the same order, with what they were about when the baseline names it. */
    resolvedEntries?: ResolvedBaselineEntry[];
  } | null;
  /** Findings of the previous run gone in this one (only with a run history; else empty). */
  fixed?: FixedFinding[];
  history?: HistorySummary | null;
  /** Each `notify:` channel of the run and what became of its digest (absent without `notify:`). */
  notifications?: NotificationRecord[];
  /** The failure no request of the run could escape, reported once (its errors carry `runWide`); absent or null when none. */
  stoppedBy?: RunWideCause[];
  /** What this run left out on request: `--skip` globs, and `--severity` (the severities reported; null: all). */
  filters?: { skip: string[]; severity: Severity[] | null };
  /** The token in use about to expire, expired, or not found (only with instance.tokenId, and only when there is something to say). */
  token?: TokenExpiry | null;
  /** Per kind collected: listed, the grant a complete listing needs, known-partial and whether accepted (absent in reports before coverage). */
  coverage?: CoverageRecord[];
  /** Each instance's own run, when the report holds several (its `instance` then names them all). */
  instances?: InstanceRun[];
  /** Requests made; `throttled` (429s) and the lowest concurrency only when the host throttled; the rate a live run achieved. */
  http: { requests: number; retries: number; failed: number; throttled?: number; lowestConcurrency?: number; ratePerSecond?: number };
}
