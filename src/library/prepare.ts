// Preparing a run: config + flags → every input validated (policies compiled once, manifests
// read once) before anything is sent. Everything that can be wrong with the inputs is found
// here and thrown as one InputError (the CLI exits 2 and prints file:line:column).
import type { Inspect } from '../engine/judge.js';
import path from 'node:path';
import type { ClientOptions, InstanceApi, RequestLogEvent } from '../api/types.js';
import { type Config, historyFileOf, loadConfig } from '../config/index.js';
import { displayPath } from '../core/display-path.js';
import { globMatches } from '../core/glob.js';
import type { FailOn, Override, Severity, WaiverRef } from '../core/model.js';
import { overrideProblems, withEnforcement } from './enforcement.js';
import { mappedTo } from '../engine/frameworks.js';
import { addProblems, InputError, type InputProblem } from '../core/problem.js';
import type { ProgressEvent } from '../core/progress.js';
import type { SecretSet } from '../core/redact.js';
import { readBaseline } from '../engine/baseline.js';
import { unwritableProblem } from '../io/writable.js';
import { fileClashes, runReads, runWrites, type NamedFile } from './run-files.js';
import { loadWaivers } from '../engine/waivers.js';
import { type CompiledPolicy, withParams } from '../policy/compile.js';
import { loadCelEngine } from '../policy/cel.js';
import { loadCompiledPolicies } from '../policy/policy-set.js';
import { didYouMean } from '../policy/suggest.js';
import type { PolicyDefinition } from '../policy/types.js';
import { kindOfManifestKey, RESOURCE_KINDS } from '../resources/index.js';
import type { CollectedResource } from '../resources/types.js';

export interface CheckOptions {
  /** steward.yaml; default ./steward.yaml if present. */
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
  /** Leave out the policies these ids or globs name (`--skip`). */
  skip?: string[];
  /** Report only findings of these severities (`--severity`); evaluation errors always. */
  severity?: Severity[];
  failOn?: FailOn;
  concurrency?: number;
  /** Deadline of the whole run (`90s`, `30m`, `2h`); default the config's, else RUN_TIMEOUT_DEFAULT. */
  timeout?: string;
  /** Fail only on findings not in this baseline file. */
  baseline?: string;
  /** Record today's fingerprints here. */
  writeBaseline?: string;
  /**
   * The run history to record this run in and read the findings' lifecycle from (relative to
   * the cwd), true for the default one (DEFAULT_HISTORY_FILE beside the config); default the
   * config's `history:`; false: none, whatever the config says.
   */
  history?: string | boolean;
  /**
   * A run that evaluates no resource at all passes. Otherwise its report is refused: the gate is
   * an error and `stoppedBy` says why (`steward check --allow-empty`, the Action's `allow-empty`).
   */
  allowEmpty?: boolean;
  /** Evaluate offline from a snapshot file (`steward snapshot --out`). */
  from?: string;
  /** `--instance`: which of the config's `instances:` to check (default all). */
  instances?: string[];
  /** Client tuning beyond the config (timeouts, retry delays). */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'token' | 'workflowToken' | 'workflowUrl' | 'onRequest'>>;
  /** Called for every HTTP attempt (the --verbose log). Never carries the token. */
  onRequest?: (event: RequestLogEvent) => void;
  /** Per resource kind, resources read of resources to read (the CLI shows it on a TTY). */
  onProgress?: (event: ProgressEvent) => void;
  /** `steward explain`: receives one resource's document (library/explain.ts). */
  inspect?: Inspect;
  /** Wraps the API before the run (the snapshot recorder uses it); `secrets` are the run's. */
  wrapApi?: (api: InstanceApi, instance: string, secrets: SecretSet) => InstanceApi;
  /** The run's clock (waiver expiry, `now` in expressions). */
  now?: Date;
  /** Run only the policies mapped to this framework (`controls.<name>`, any case). */
  framework?: string;
  /** Soft policies whose violations do not fail this run, each with its reason (`--override`). */
  overrides?: Override[];
  /** How the caller names the overrides in problems (default `--override`; the Action: `input override`). */
  overridesFrom?: string;
  /** Report files the caller writes after the run (`--output`): refused when another file of the run is the same one. */
  reportFiles?: NamedFile[];
}

/** Everything validated, nothing sent. */
export interface PreparedRun {
  config: Config;
  cwd: string;
  /** All loaded policies, and the ones this run evaluates (--only). */
  policies: PolicyDefinition[];
  selected: CompiledPolicy[];
  waivers: WaiverRef[];
  /** The overrides given, all of soft policies with a reason. */
  overrides: Override[];
  baseline: { file: string; data: Awaited<ReturnType<typeof readBaseline>> } | null;
  /** The declared kinds' resources, read from their manifests once for the whole run. */
  declared: Map<string, CollectedResource[]>;
  /** The history the run records into (a file or a PostgreSQL URL), or null (historyFileOf). */
  history: string | null;
  /** Likely mistakes the loaded policies still compile with, each at its file position (compile.ts). */
  warnings: InputProblem[];
}

const problem = (file: string, message: string): InputProblem => ({ file, line: 0, column: 0, message });

const NO_POLICIES_MESSAGE = 'no policies to evaluate: the policy files and folders named hold none (add one, or name `builtin`)';

/**
 * A run (or `steward test`) with nothing to evaluate would pass while checking nothing: bad input
 * instead, at the config's `policies:`, or at the paths named instead of it.
 */
export function noPoliciesProblem(config: Config | string[]): InputProblem {
  if (Array.isArray(config)) return problem(config.join(', '), NO_POLICIES_MESSAGE);
  if (config.policiesOverridden) return problem('--policies', NO_POLICIES_MESSAGE);
  return config.policiesLocation ? { ...config.policiesLocation, message: NO_POLICIES_MESSAGE } : problem(config.file ? displayPath(config.file) : '(config)', NO_POLICIES_MESSAGE);
}

/**
 * Policies loaded, but --only, --skip and --framework together left none: the problem names
 * those flags, not the policy files (which hold policies).
 */
function allLeftOutProblem(loaded: number, options: Pick<CheckOptions, 'only' | 'skip' | 'framework'>): InputProblem | null {
  const flags = [options.only?.length ? '--only' : null, options.skip?.length ? '--skip' : null, options.framework !== undefined ? '--framework' : null].filter((f) => f !== null);
  if (flags.length === 0) return null;
  const verb = flags.length === 1 ? 'leaves' : 'leave';
  return problem(flags.join(', '), `no policy left to evaluate: ${flags.join(' and ')} ${verb} out all ${loaded} policies loaded`);
}

/** Every declared kind's resources from its manifests (a bad manifest is an InputError). */
async function collectDeclared(config: Config, cwd: string): Promise<Map<string, CollectedResource[]>> {
  const declared = new Map<string, CollectedResource[]>();
  const problems: InputProblem[] = [];
  for (const kind of Object.values(RESOURCE_KINDS)) {
    if (!kind.declare) continue;
    try {
      declared.set(kind.name, await kind.declare({ manifestFiles: config.manifestFiles, displayRoot: cwd }));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      addProblems(problems, e.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return declared;
}

/** The config a run with these options uses: the file, the environment and the options' overrides. */
export function configOf(options: CheckOptions, cwd: string): Config {
  const { baseUrl, workflowUrl, token, workflowToken, policies, failOn, concurrency, timeout, instances, history } = options;
  return loadConfig({ configPath: options.config, cwd, env: options.env, overrides: { baseUrl, workflowUrl, token, workflowToken, policies, failOn, concurrency, timeout, instances, history } });
}

/** Loads and validates config, policies, params, manifests, waivers and baseline. */
export async function prepareRun(options: CheckOptions): Promise<PreparedRun> {
  const cwd = options.cwd ?? process.cwd();
  const config = configOf(options, cwd);
  const problems: InputProblem[] = [];
  const collectProblems = async <T>(fn: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      addProblems(problems, e.problems);
      return undefined;
    }
  };

  // Read, then every policy compiled once (the files' problems and the expressions' together).
  const compiled = (await collectProblems(() => loadCompiledPolicies(config.policies, { kinds: RESOURCE_KINDS, cwd }))) ?? [];
  const loaded = compiled.map((c) => c.def);
  // Each policy remembers the `policies` entry that brought it in: reports place findings there
  // when the policy file itself lies outside the repository (the built-in pack).
  const leveled = withEnforcement(loaded, config, !config.policiesOverridden);
  addProblems(problems, leveled.problems);
  const policies = leveled.policies.map((def) => {
    const source = config.policySources[def.pathIndex ?? -1];
    // The package's version goes into the definition, so the policy-set hash changes with it.
    return { ...def, origin: config.policyOrigins[def.pathIndex ?? -1] ?? null, ...(source ? { source } : {}) };
  });
  const ids = new Set(policies.map((p) => p.id));
  const overrides = options.overrides ?? [];
  addProblems(problems, overrideProblems(overrides, policies, options.overridesFrom ?? '--override'));
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
  const skip = options.skip ?? [];
  for (const glob of skip) {
    if (!policies.some((p) => globMatches(glob, p.id))) problems.push(problem('--skip', `no policy id matches "${glob}"${didYouMean(glob, ids)} (see \`steward list\`)`));
  }
  const framework = options.framework;
  if (framework !== undefined && policies.length > 0 && !policies.some((p) => mappedTo(framework, p))) {
    const known = [...new Set(policies.flatMap((p) => Object.keys(p.controls)))].sort();
    problems.push(problem('--framework', `no policy is mapped to "${framework}" (mapped: ${known.join(', ') || 'none'})`));
  }
  const selected: CompiledPolicy[] = [];
  for (const [i, def] of policies.entries()) {
    if (framework !== undefined && !mappedTo(framework, def)) continue;
    // The config's params over the defaults; the definition as the run levels it (enforcement, origin).
    const run = await collectProblems(() => withParams({ ...compiled[i], def }, config.params[def.id], config.paramLocations[def.id]?.location));
    if (run && (!only || only.has(def.id)) && !skip.some((glob) => globMatches(glob, def.id))) selected.push(run);
  }

  if (problems.length === 0 && selected.length === 0) problems.push((policies.length > 0 ? allLeftOutProblem(policies.length, options) : null) ?? noPoliciesProblem(config));
  // `--explain POLICY:RESOURCE` of a policy the run leaves out would explain nothing, said only after the run.
  const explained = options.inspect?.policy;
  if (explained !== undefined && selected.length > 0 && !selected.some((p) => p.def.id === explained)) {
    const why = ids.has(explained) ? 'is left out of this run (--only, --skip or --framework)' : `is not loaded${didYouMean(explained, ids)} (see \`steward list\`)`;
    problems.push(problem('--explain', `policy "${explained}" ${why}`));
  }
  // Explaining shows each node's value by the reference evaluator: its engine is loaded here.
  if (explained !== undefined) await loadCelEngine();
  // A findings filter no selected policy can pass reports nothing and passes every run, as an
  // --only or --framework that names nothing would: bad input, like them.
  const severity = options.severity;
  if (severity && selected.length > 0 && !selected.some((p) => severity.includes(p.def.severity))) {
    const levels = [...new Set(selected.map((p) => p.def.severity))].join(', ');
    problems.push(problem('--severity', `no selected policy is ${severity.join(' or ')} (they are ${levels}): the run could report no violation`));
  }
  const selectedKinds = new Set(selected.map((p) => p.def.resource));
  for (const glob of config.unmatchedManifestGlobs ?? []) {
    const kind = kindOfManifestKey(glob.kind);
    if (kind && selectedKinds.has(kind)) {
      problems.push({ ...glob.location, message: `manifests.${glob.kind}: "${glob.pattern}" matches no file` });
    }
  }

  const declared = (await collectProblems(() => collectDeclared(config, cwd))) ?? new Map();
  const waivers = config.waiversFile
    ? ((await collectProblems(() => loadWaivers(config.waiversFile!, displayPath(config.waiversFile!, cwd), config.waiverRules))) ?? [])
    : [];
  if (ownPolicySet && policies.length > 0) {
    // One suggestion for each unknown id, however many waivers name it.
    const hints = new Map<string, string>();
    for (const w of waivers) {
      if (!ids.has(w.policy)) {
        const hint = hints.get(w.policy) ?? hints.set(w.policy, didYouMean(w.policy, ids)).get(w.policy)!;
        problems.push({ ...(w.location ?? { file: '(waivers)', line: 0, column: 0 }), message: `waiver: no policy with id "${w.policy}"${hint} (see \`steward list\`)` });
      }
    }
  }
  let baseline: PreparedRun['baseline'] = null;
  if (options.baseline) {
    const file = path.resolve(cwd, options.baseline);
    const shown = displayPath(file, cwd);
    const data = await collectProblems(() => readBaseline(file, shown));
    // A fingerprint does not name its instance: a file that does not either would count one
    // instance's accepted findings as known on every other.
    if (data && !data.instances && (config.instances?.length ?? 0) > 1) {
      problems.push({ file: shown, line: 1, column: 1, message: `baseline ${shown} names no instance (written by a run of one instance, or before baselines kept them): with several instances, write it again with --write-baseline` });
    } else if (data) baseline = { file: shown, data };
  }
  // No file the run writes may be another it writes or one it reads (the last write would win).
  const historyFile = (await collectProblems(() => historyFileOf(options.history, cwd, config))) ?? null;
  const policyFiles = [...new Set(policies.map((p) => path.resolve(cwd, p.location.file)))];
  addProblems(problems, fileClashes(runWrites(options, historyFile, options.reportFiles ?? []), runReads(config, policyFiles, options), cwd));
  // Written after the run: a folder or a read-only place found then would lose the run's work.
  const unwritableBaseline = options.writeBaseline ? unwritableProblem('--write-baseline', path.resolve(cwd, options.writeBaseline), options.writeBaseline) : null;
  if (unwritableBaseline) problems.push(unwritableBaseline);
  if (problems.length > 0) throw new InputError(problems);
  return { config, cwd, policies, selected, waivers, overrides, baseline, declared, history: historyFile, warnings: compiled.flatMap((c) => c.warnings) };
}
