// The library API (DESIGN §1): config + flags → validate every input → connect (live client,
// snapshot replay or in-process sandbox) → evaluate → waivers → baseline → Report.
// Everything that can be wrong with the inputs is found before the first request, and thrown
// as one InputError (the CLI exits 2 and prints file:line:column).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../api/index.js';
import type { ClientOptions, InstanceApi, RequestLogEvent } from '../api/types.js';
import { type Config, loadConfig, packageVersion } from '../config/index.js';
import { displayPath } from '../core/display-path.js';
import { demoConfigPath } from '../config/paths.js';
import { readBaseline, writeBaseline } from '../engine/baseline.js';
import { type ProgressEvent, type RunResult, runPolicies } from '../engine/run.js';
import { buildReport, exitCodeForGate } from '../engine/verdict.js';
import { loadWaivers } from '../engine/waivers.js';
import { InputError } from '../core/problem.js';
import { type CompiledPolicy, compilePolicy } from '../policy/compile.js';
import { loadPolicies } from '../policy/loader.js';
import { didYouMean } from '../policy/suggest.js';
import type { PolicyDefinition } from '../policy/types.js';
import type { InputProblem } from '../core/problem.js';
import type { FailOn, Report, WaiverRef } from '../core/model.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import { loadManifests } from '../resources/manifests.js';
import { startSandbox } from '../sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../sandbox/types.js';
import { readSnapshot, replayApi } from '../api/snapshot.js';

export type { ProgressEvent } from '../engine/run.js';

export interface CheckOptions {
  /** steward.yaml; default ./steward.yaml if present (demo/steward.yaml with `sandbox`). */
  config?: string;
  /** Where relative flag paths resolve and report paths are relative to (default process.cwd()). */
  cwd?: string;
  /** Environment to read STEWARD_* from (default process.env). */
  env?: Record<string, string | undefined>;
  baseUrl?: string;
  workflowUrl?: string;
  token?: string;
  workflowToken?: string;
  /** Policy files or folders (replace the config's `policies`). */
  policies?: string[];
  /** Run only these policy ids. */
  only?: string[];
  failOn?: FailOn;
  concurrency?: number;
  /** Fail only on findings not in this baseline file. */
  baseline?: string;
  /** Record today's fingerprints here. */
  writeBaseline?: string;
  /** Evaluate offline from a snapshot file (`steward snapshot --out`). */
  from?: string;
  /** Run against an in-process sandbox (true: the default demo instance). */
  sandbox?: boolean | SandboxOptions;
  /** Client tuning beyond the config (timeouts, retry delays). */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'token' | 'workflowToken' | 'workflowUrl' | 'onRequest'>>;
  /** Called for every HTTP attempt (the --verbose log). Never carries the token. */
  onRequest?: (event: RequestLogEvent) => void;
  /** Per resource kind, resources read of resources to read (the CLI shows it on a TTY). */
  onProgress?: (event: ProgressEvent) => void;
  /** Wraps the API before the run (the snapshot recorder uses it). */
  wrapApi?: (api: InstanceApi, instance: string) => InstanceApi;
  /** The run's clock (waiver expiry, `now` in expressions). */
  now?: Date;
}

/** Everything validated, nothing sent. */
export interface PreparedRun {
  config: Config;
  cwd: string;
  /** All loaded policies, and the ones this run evaluates (--only). */
  policies: PolicyDefinition[];
  selected: CompiledPolicy[];
  waivers: WaiverRef[];
  baseline: { file: string; data: Awaited<ReturnType<typeof readBaseline>> } | null;
}

export interface Evaluation {
  prepared: PreparedRun;
  report: Report;
  run: RunResult;
  /** Which instance was read: its base URL, or the snapshot / sandbox it came from. */
  instance: string;
  /** Things the user should know that are not findings (e.g. a policy that checked nothing). */
  warnings: string[];
}

const problem = (file: string, message: string): InputProblem => ({ file, line: 0, column: 0, message });

/** The resource kind each `manifests` key declares. */
const MANIFEST_KIND_OF = { queues: 'queue', dataFiles: 'dataFile' } as const;

/** A run with nothing to evaluate would pass while checking nothing: bad input instead. */
function noPoliciesProblem(config: Config): InputProblem {
  const message = 'no policies to evaluate: the policy files and folders named hold none (add one, or name `builtin`)';
  if (config.policiesOverridden) return problem('--policies', message);
  return config.policiesLocation ? { ...config.policiesLocation, message } : problem(config.file ? displayPath(config.file) : '(config)', message);
}

/**
 * The `scope` list each live kind is collected from alone (cards also come from schedules, so
 * an empty `scope.cards` counts only when no card was collected either).
 */
const SCOPE_KEY_OF: Record<string, 'datasets' | 'cards' | 'filesets'> = { dataset: 'datasets', card: 'cards', filesetFile: 'filesets' };

function scopeIsEmpty(config: Config, key: 'datasets' | 'cards' | 'filesets'): boolean {
  return key === 'filesets' ? Object.keys(config.scope.filesets).length === 0 : config.scope[key].length === 0;
}

/**
 * Policies that checked nothing because their scope list is empty: `skipped`, not `pass` (a
 * pass would claim something was checked), with a warning each.
 */
function markEmptyScope(run: RunResult, config: Config, collected: Map<string, number>): string[] {
  const warnings: string[] = [];
  run.results = run.results.map((r) => {
    const key = SCOPE_KEY_OF[r.resource];
    if (!key || r.status !== 'pass' || r.evaluated > 0 || (collected.get(r.resource) ?? 0) > 0 || !scopeIsEmpty(config, key)) return r;
    warnings.push(`policy ${r.id} checked nothing: scope.${key} is empty`);
    return { ...r, status: 'skipped' };
  });
  return warnings;
}

/** A schedule list narrowed by instance.scheduleFilter checks only part of the instance: said every run. */
function narrowScheduleWarning(prepared: PreparedRun): string[] {
  const filter = prepared.config.scope.scheduleFilter;
  const reads = prepared.selected.some((p) => p.def.resource === 'reportSchedule' || p.def.resource === 'card');
  if (!reads || filter === undefined || filter === 'ALL') return [];
  return [`report schedules were listed with filter=${filter} (instance.scheduleFilter): only the token user's schedules were checked, not the whole instance`];
}

/** Loads and validates config, policies, params, manifests, waivers and baseline. */
export async function prepareRun(options: CheckOptions): Promise<PreparedRun> {
  const cwd = options.cwd ?? process.cwd();
  const configPath = options.config ?? (options.sandbox ? demoConfigPath() : undefined);
  const config = loadConfig({
    configPath,
    cwd,
    env: options.env,
    overrides: {
      baseUrl: options.baseUrl,
      workflowUrl: options.workflowUrl,
      token: options.token,
      workflowToken: options.workflowToken,
      policies: options.policies,
      failOn: options.failOn,
      concurrency: options.concurrency,
    },
  });
  const problems: InputProblem[] = [];
  const collectProblems = async <T>(fn: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems);
      return undefined;
    }
  };

  const loaded = (await collectProblems(() => loadPolicies(config.policies, { kinds: RESOURCE_KINDS, cwd }))) ?? [];
  // Each policy remembers the `policies` entry that brought it in: reports place findings there
  // when the policy file itself lies outside the repository (the built-in pack).
  const policies = loaded.map((def) => ({ ...def, origin: config.policyOrigins[def.pathIndex ?? -1] ?? null }));
  const ids = new Set(policies.map((p) => p.id));
  for (const id of options.only ?? []) {
    if (!ids.has(id)) problems.push(problem('--only', `no policy with id "${id}"${didYouMean(id, ids)} (see \`steward list\`)`));
  }
  // With the config's own policy set, a params or waiver entry naming no policy is a typo. When
  // flags or paths replaced that set, the policy is simply not in this run.
  const ownPolicySet = !config.policiesOverridden;
  for (const [id, at] of Object.entries(config.paramLocations)) {
    if (ownPolicySet && policies.length > 0 && !ids.has(id)) problems.push({ ...at.location, message: `params: no policy with id "${id}"${didYouMean(id, ids)}` });
  }
  const only = options.only && options.only.length > 0 ? new Set(options.only) : null;
  const selected: CompiledPolicy[] = [];
  for (const def of policies) {
    const compiled = await collectProblems(() =>
      compilePolicy(def, config.params[def.id], config.paramLocations[def.id]?.location),
    );
    if (compiled && (!only || only.has(def.id))) selected.push(compiled);
  }

  if (problems.length === 0 && selected.length === 0) problems.push(noPoliciesProblem(config));
  const selectedKinds = new Set(selected.map((p) => p.def.resource));
  for (const glob of config.unmatchedManifestGlobs ?? []) {
    if (selectedKinds.has(MANIFEST_KIND_OF[glob.kind])) {
      problems.push({ ...glob.location, message: `manifests.${glob.kind}: "${glob.pattern}" matches no file` });
    }
  }

  await collectProblems(() => loadManifests('queue', config.manifestFiles.queues, cwd));
  await collectProblems(() => loadManifests('dataFile', config.manifestFiles.dataFiles, cwd));
  const waivers = config.waiversFile
    ? ((await collectProblems(() => loadWaivers(config.waiversFile!, displayPath(config.waiversFile!, cwd)))) ?? [])
    : [];
  if (ownPolicySet && policies.length > 0) {
    for (const w of waivers) {
      if (!ids.has(w.policy)) {
        problems.push({ ...(w.location ?? { file: '(waivers)', line: 0, column: 0 }), message: `waiver: no policy with id "${w.policy}"${didYouMean(w.policy, ids)} (see \`steward list\`)` });
      }
    }
  }
  let baseline: PreparedRun['baseline'] = null;
  if (options.baseline) {
    const file = path.resolve(cwd, options.baseline);
    const data = await collectProblems(() => readBaseline(file, displayPath(file, cwd)));
    if (data) baseline = { file: displayPath(file, cwd), data };
  }
  if (problems.length > 0) throw new InputError(problems);
  return { config, cwd, policies, selected, waivers, baseline };
}

/** What a live run needs and lacks, said in terms of what the user can set. */
export function connectionProblems(config: Config): InputProblem[] {
  const missing: InputProblem[] = [];
  if (!config.instance.baseUrl) {
    missing.push(
      problem(
        'STEWARD_BASE_URL',
        'no instance to check: set STEWARD_BASE_URL (or instance.baseUrl in steward.yaml, or --base-url); or try `steward check --sandbox` against the built-in demo instance',
      ),
    );
  }
  if (!config.instance.token) {
    missing.push(
      problem('STEWARD_TOKEN', 'no API token: set STEWARD_TOKEN (a developer token of the instance); tokens never go in steward.yaml'),
    );
  }
  // Nothing configured at all: the way to start is `steward init`.
  if (missing.length > 0 && !config.file) {
    missing[0] = { ...missing[0], message: `${missing[0].message}; no steward.yaml here either: \`steward init\` writes a starter one` };
  }
  return missing;
}

/** Where a run reads from (and `fix --apply` writes to). */
export interface Connection {
  api: InstanceApi;
  /** The base URL, or `snapshot:FILE` for a replay. */
  instance: string;
  /** A snapshot replay cannot write. */
  readOnly: boolean;
  close(): Promise<void>;
}

/** Opens the live client, the snapshot replay or the in-process sandbox the options ask for. */
export async function openConnection(options: CheckOptions, prepared: PreparedRun): Promise<Connection> {
  const { config } = prepared;
  const client = (baseUrl: string, token: string, workflowUrl: string | null, workflowToken: string | null) =>
    createClient({
      ...options.client,
      baseUrl,
      token,
      workflowUrl: workflowUrl ?? undefined,
      workflowToken: workflowToken ?? undefined,
      concurrency: config.concurrency,
      requestsPerSecond: config.requestsPerSecond ?? undefined,
      tokenHeader: config.instance.tokenHeader ?? undefined,
      pageSize: options.client?.pageSize ?? config.instance.pageSize ?? undefined,
      onRequest: options.onRequest,
    });
  if (options.from) {
    const file = path.resolve(prepared.cwd, options.from);
    const api = replayApi(await readSnapshot(file, displayPath(file, prepared.cwd)));
    return { api, instance: `snapshot:${displayPath(file, prepared.cwd)}`, readOnly: true, close: async () => {} };
  }
  if (options.sandbox) {
    const sandbox: Sandbox = await startSandbox(options.sandbox === true ? {} : options.sandbox);
    const api = client(sandbox.baseUrl, sandbox.token, sandbox.workflowUrl, sandbox.workflowToken);
    return { api, instance: sandbox.baseUrl, readOnly: false, close: () => sandbox.close() };
  }
  const missing = connectionProblems(config);
  if (missing.length > 0) throw new InputError(missing);
  const { baseUrl, token, workflowUrl, workflowToken } = config.instance;
  return { api: client(baseUrl!, token!, workflowUrl, workflowToken), instance: baseUrl!, readOnly: false, close: async () => {} };
}

/** Opens the connection, runs `fn`, and always closes it (an in-process sandbox stops). */
export async function withConnection<T>(
  options: CheckOptions,
  prepared: PreparedRun,
  fn: (connection: Connection) => Promise<T>,
): Promise<T> {
  const connection = await openConnection(options, prepared);
  try {
    return await fn(connection);
  } finally {
    await connection.close();
  }
}

/** Evaluates a prepared run over an open connection. */
export async function evaluateOn(options: CheckOptions, prepared: PreparedRun, connection: Connection): Promise<Evaluation> {
  const api = options.wrapApi ? options.wrapApi(connection.api, connection.instance) : connection.api;
  const startedAt = options.now ?? new Date();
  const t0 = performance.now();
  // Resources collected per kind, as the engine's progress reports them.
  const collected = new Map<string, number>();
  const run = await runPolicies({
    policies: prepared.selected,
    api,
    kinds: RESOURCE_KINDS,
    scope: prepared.config.scope,
    manifestFiles: prepared.config.manifestFiles,
    displayRoot: prepared.cwd,
    now: startedAt,
    concurrency: prepared.config.concurrency,
    onProgress: (e) => {
      collected.set(e.kind, e.total);
      options.onProgress?.(e);
    },
  });
  const warnings = [...markEmptyScope(run, prepared.config, collected), ...narrowScheduleWarning(prepared)];
  if (options.writeBaseline) {
    const file = path.resolve(prepared.cwd, options.writeBaseline);
    mkdirSync(path.dirname(file), { recursive: true });
    await writeBaseline(file, run.findings, startedAt);
  }
  const report = buildReport({
    run,
    failOn: prepared.config.failOn,
    instance: connection.instance,
    toolVersion: packageVersion(),
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    http: api.stats(),
    // Waivers of policies left out of this run (--only, --policies) are neither used nor stale.
    waivers: prepared.waivers.filter((w) => prepared.selected.some((p) => p.id === w.policy)),
    baseline: prepared.baseline,
  });
  return { prepared, report, run, instance: connection.instance, warnings };
}

/** The whole run: prepare, connect, evaluate, close. */
export async function evaluate(options: CheckOptions): Promise<Evaluation> {
  const prepared = await prepareRun(options);
  return withConnection(options, prepared, (connection) => evaluateOn(options, prepared, connection));
}

/** Runs the policies against the instance and returns the report (DESIGN §8). */
export async function check(options: CheckOptions = {}): Promise<Report> {
  return (await evaluate(options)).report;
}

/** The exit code of DESIGN §9 for a finished run: 0 pass, 1 violations, 3 could not evaluate. */
export function exitCodeFor(report: Report): 0 | 1 | 3 {
  return exitCodeForGate(report.summary.gate);
}
