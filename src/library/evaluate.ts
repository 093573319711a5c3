// Evaluating a prepared run over an open connection: the engine, policies that checked
// nothing, the baseline, and the report (DESIGN §8).
import { routeTeams } from './owners.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { packageVersion } from '../config/index.js';
import type { CoverageRecord, Report } from '../core/model.js';
import { writeBaseline } from '../engine/baseline.js';
import { type RunResult, runPolicies } from '../engine/run.js';
import { buildReport } from '../engine/verdict.js';
import { appliesOn } from '../engine/waivers.js';
import { openRunHistory, policySetHash, recordReport } from '../history/index.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import { tokenExpiry } from './token-expiry.js';
import { type ListingGrants, listingGrants } from './grant-check.js';
import { createRunMemo } from '../engine/memo.js';
import { type Connection, connectionProblems, replayWarning, withConnection } from './connect.js';
import { historyLabel } from './history.js';
import { mergeReports, stampInstance } from './merge.js';
import { formatProblem, InputError } from '../core/problem.js';
import { DEFAULT_INSTANCE_NAME, forInstance } from '../config/index.js';
import { type CheckOptions, type PreparedRun, prepareRun } from './prepare.js';
import { type EmptyInstance, emptyRunStop } from './empty-run.js';
import { monotonicMs } from '../core/monotonic.js';

export interface Evaluation {
  prepared: PreparedRun;
  report: Report;
  run: RunResult;
  /** Which instance was read: its base URL, or the snapshot / sandbox it came from. */
  instance: string;
  /** Things the user should know that are not findings (e.g. a policy that checked nothing). */
  warnings: string[];
  /**
   * The instances that evaluated no resource at all and could not have failed because of it,
   * each with the kinds of its policies (nothing of which was found). Unless the run accepts an
   * empty one (`allowEmpty`), each such instance's report is refused: its gate is an error and
   * its `stoppedBy` says why, so no reader of the report (a merge of a fan-out's reports, the
   * Action's `gate` output, a dashboard) takes a run that checked nothing for a pass.
   */
  empty: EmptyInstance[];
}

function emptyKindsOf(run: RunResult, report: Report): string[] {
  if (run.resources > 0 || report.summary.gate === 'error' || run.results.length === 0) return [];
  return [...new Set(run.results.map((r) => r.resource))].sort();
}

/** The kinds a run read: those it collected, and those a selected kind's resources come from. */
function coverageKinds(prepared: PreparedRun, run: Pick<RunResult, 'collected'>): string[] {
  const kinds = new Set<string>(Object.keys(run.collected));
  for (const p of prepared.selected) {
    const also = RESOURCE_KINDS[p.def.resource]?.inputs.alsoFrom;
    if (also) kinds.add(also);
  }
  return [...kinds];
}

/** What the run saw of each kind it read: listed, the grant a complete listing needs, known-partial (the scope, or a grant not held) and accepted. */
function coverageOf(prepared: PreparedRun, run: Pick<RunResult, 'collected' | 'evaluated'>, kinds: readonly string[], grants: ListingGrants): Omit<CoverageRecord, 'blocking' | 'skippedPolicies'>[] {
  const { collected } = run;
  return kinds
    .filter((k) => RESOURCE_KINDS[k])
    .map((k) => ({
      kind: k,
      listed: collected[k] ?? 0,
      evaluated: run.evaluated[k] ?? 0,
      completeWith: RESOURCE_KINDS[k].completeWith ?? null,
      partial: [RESOURCE_KINDS[k].knownPartial?.(prepared.config.scope), grants.partial.get(k)].filter((why) => why).join('; ') || null,
      accepted: prepared.config.acceptPartialCoverage.includes(k),
    }));
}

/** The stderr line of a partial kind: what was not seen, and whether the run still decides on it. */
function partialWarning(c: CoverageRecord): string {
  const outcome = c.accepted ? 'accepted (acceptPartialCoverage)' : c.blocking ? 'its failOn-level policies decide nothing: exit 3 unless acceptPartialCoverage names it' : 'no failOn-level policy reads it';
  return `partial coverage of ${c.kind}: ${c.partial}; ${outcome}`;
}

/** The name of the one instance a prepared run is for (`default` for a config of one). */
const instanceName = (prepared: PreparedRun): string => prepared.config.instances?.[0]?.name ?? DEFAULT_INSTANCE_NAME;

/** Evaluates a prepared run over an open connection (`--write-baseline` is the whole run's: evaluateInstances). */
export async function evaluateOn(options: CheckOptions, prepared: PreparedRun, connection: Connection): Promise<Evaluation> {
  const api = options.wrapApi ? options.wrapApi(connection.api, connection.instance, prepared.config.secrets) : connection.api;
  const startedAt = options.now ?? new Date();
  const t0 = monotonicMs();
  const memo = createRunMemo();
  const run = await runPolicies({
    memo,
    policies: prepared.selected,
    api,
    kinds: RESOURCE_KINDS,
    scope: prepared.config.scope,
    manifestFiles: prepared.config.manifestFiles,
    declared: prepared.declared,
    displayRoot: prepared.cwd,
    now: startedAt,
    concurrency: prepared.config.concurrency,
    onProgress: options.onProgress,
    inspect: options.inspect,
  });
  const replayed = replayWarning(connection, prepared.config);
  const warnings = [...prepared.config.warnings, ...prepared.warnings.map(formatProblem), ...(replayed ? [replayed] : []), ...run.warnings];
  // Before the report counts the requests: the token list is one of them (and the grants' reads).
  const token = await tokenExpiry(api, prepared.config, startedAt);
  const kinds = coverageKinds(prepared, run);
  const grants = await listingGrants(api, prepared.config, kinds, memo.once);
  if (grants.untold) warnings.push(grants.untold);
  // --severity: the findings of other severities are not reported (errors always are: they fail closed).
  const severity = options.severity;
  const reported = severity ? { ...run, findings: run.findings.filter((f) => f.status === 'error' || severity.includes(f.severity)) } : run;
  const report = buildReport({
    run: reported,
    failOn: prepared.config.failOn,
    instance: connection.instance,
    toolVersion: packageVersion(),
    startedAt,
    durationMs: Math.round(monotonicMs() - t0),
    http: api.stats(),
    // Waivers of policies left out of this run (--only, --policies), or of other instances, are
    // neither used nor stale here.
    waivers: prepared.waivers.filter((w) => appliesOn(w, instanceName(prepared)) && prepared.selected.some((p) => p.id === w.policy)),
    baseline: prepared.baseline && { ...prepared.baseline, instance: instanceName(prepared) },
    overrides: prepared.overrides,
    mapped: prepared.policies,
    waiverWarningDays: prepared.config.waiverWarningDays,
    coverage: coverageOf(prepared, run, kinds, grants),
  });
  routeTeams(report, prepared.config.owners);
  for (const c of report.coverage ?? []) if (c.partial) warnings.push(partialWarning(c));
  if (run.stoppedBy.length > 0) report.stoppedBy = run.stoppedBy;
  if (options.skip?.length || severity) report.filters = { skip: options.skip ?? [], severity: severity ?? null };
  if (token) {
    report.token = token;
    warnings.push(token.note);
  }
  // The rate the run achieved (requests over its duration), for tuning requestsPerSecond.
  if (report.http.requests > 0 && report.durationMs > 0) {
    report.http.ratePerSecond = Math.round((report.http.requests / report.durationMs) * 10_000) / 10;
  }
  const emptyKinds = emptyKindsOf(run, report);
  if (emptyKinds.length > 0 && !options.allowEmpty) {
    report.summary.gate = 'error';
    report.stoppedBy = [...(report.stoppedBy ?? []), emptyRunStop(emptyKinds)];
  }
  stampInstance(report, instanceName(prepared));
  const empty = emptyKinds.length > 0 ? [{ instance: instanceName(prepared), kinds: emptyKinds }] : [];
  return { prepared, report, run, instance: connection.instance, warnings, empty };
}

/**
 * Runs `fn` with the run's history open and locked (before any request: a broken or busy file
 * is exit 2 with nothing sent); `record` gives the evaluation's report its lifecycle and records
 * the run. Without a history it does nothing. A run that evaluated nothing is not recorded: it
 * says nothing about the findings, and recording it would mark every earlier one fixed.
 */
export async function withRunHistory<T>(prepared: PreparedRun, fn: (record: (evaluation: Evaluation) => Promise<void>) => Promise<T>): Promise<T> {
  const file = prepared.history;
  if (!file) return fn(async () => {});
  const shown = historyLabel(file, prepared.cwd);
  const history = await openRunHistory(file, shown, 'check --history', prepared.config.secrets);
  const hash = policySetHash(prepared.selected.map((p) => ({ ...p.def, location: null })));
  try {
    return await fn(async (evaluation) => {
      if (evaluation.empty.length > 0) {
        evaluation.warnings.push(`the run evaluated nothing: not recorded in the history ${shown}`);
        return;
      }
      evaluation.report = await recordReport(history, evaluation.report, hash, prepared.config.historyKeep);
      // Fixed findings come from the history: routed and named now that they are known.
      routeTeams(evaluation.report, prepared.config.owners);
      stampInstance(evaluation.report, instanceName(evaluation.prepared));
    });
  } finally {
    await history.close();
  }
}

/**
 * The runs' warnings, each once: one every instance gave (a policy file's, the config's) unnamed,
 * the others naming their instance.
 */
function fleetWarnings(evaluations: Evaluation[]): string[] {
  const everywhere = evaluations.slice(1).reduce((shared, e) => {
    const own = new Set(e.warnings);
    return shared.filter((w) => own.has(w));
  }, evaluations[0]!.warnings);
  const shared = new Set(everywhere);
  const named = evaluations.flatMap((e) => e.warnings.filter((w) => !shared.has(w)).map((w) => `${instanceName(e.prepared)}: ${w}`));
  return [...new Set([...everywhere, ...named])];
}

/** The runs of several instances as one evaluation: one report (library/merge.ts), each warning said once. */
function combined(evaluations: Evaluation[]): Evaluation {
  if (evaluations.length === 1) return evaluations[0]!;
  const named = (e: Evaluation) => instanceName(e.prepared);
  return {
    ...evaluations[0]!,
    report: mergeReports(evaluations.map((e) => e.report)),
    instance: evaluations.map(named).join(', '),
    warnings: fleetWarnings(evaluations),
    // An instance that found nothing is refused among others as it would be alone.
    empty: evaluations.flatMap((e) => e.empty),
  };
}

/**
 * The whole run: prepare, open the history, connect, evaluate, record, close. The instances of
 * `instances:` are checked side by side, each within its own limits and failing closed on its
 * own, and recorded one by one (the history keeps each instance's lifecycle apart).
 */
export async function evaluate(options: CheckOptions): Promise<Evaluation> {
  const prepared = await prepareRun(options);
  return withRunHistory(prepared, (record) => evaluateInstances(options, prepared, record));
}

/** Every instance the prepared run picked, side by side, each recorded; one evaluation of them all. */
export async function evaluateInstances(options: CheckOptions, prepared: PreparedRun, record: (evaluation: Evaluation) => Promise<void>): Promise<Evaluation> {
  const several = prepared.config.instances && prepared.config.instances.length > 1 ? prepared.config.instances : null;
  if (several && options.from) throw new InputError([{ file: '--from', line: 0, column: 0, message: 'a snapshot is one instance\'s: pick it with --instance NAME' }]);
  const targets = several ? several.map((i) => ({ ...prepared, config: forInstance(prepared.config, i) })) : [prepared];
  // Every instance's lacks said at once, before any instance is sent a request.
  const missing = options.from ? [] : targets.flatMap((t) => connectionProblems(t.config));
  if (missing.length > 0) throw new InputError(missing);
  const evaluations = await Promise.all(targets.map((t) => withConnection(options, t, (connection) => evaluateOn(options, t, connection))));
  // One file for the whole run, each instance's findings under its name: written once the
  // instances are evaluated (side by side, each writing it would leave the last one's alone).
  if (options.writeBaseline) {
    const file = path.resolve(prepared.cwd, options.writeBaseline);
    mkdirSync(path.dirname(file), { recursive: true });
    const findings = evaluations.flatMap((e) => e.run.findings.map((f) => ({ ...f, instance: instanceName(e.prepared) })));
    await writeBaseline(file, findings, options.now ?? new Date(), prepared.config.secrets);
  }
  for (const e of evaluations) await record(e);
  return combined(evaluations);
}

/** Runs the policies against the instance and returns the report (DESIGN §8). */
export async function check(options: CheckOptions = {}): Promise<Report> {
  return (await evaluate(options)).report;
}

