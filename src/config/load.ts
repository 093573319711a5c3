// steward.yaml + environment + flags → one typed Config (DESIGN §4). Precedence: flags, then
// the environment, then the file, then defaults. All problems are collected and thrown together
// as one InputError, so a user fixes them in one pass.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { addProblems, InputError } from '../core/problem.js';
import { isLoopbackHost } from '../core/loopback.js';
import { proxySettings } from './proxy.js';
import { SecretSet } from '../core/redact.js';
import { readInputFileSync } from '../io/input-file.js';
import type { InputProblem } from '../core/problem.js';
import type { ScheduleFilter } from '../api/types.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import type { KindInputs, ManifestFiles } from '../resources/types.js';
import { type Enforcement, type FailOn, type GovernedWaiverField, type SourceLocation, TOKEN_WARNING_DAYS_DEFAULT, WAIVER_WARNING_DAYS_DEFAULT } from '../core/model.js';
import { SEVERITIES } from '../core/model.js';
import { keyLocationAt, locationAt, problemAt, recallYamlSource, yamlData, type YamlSource } from '../io/yaml-source.js';
import { projectRoot, uncontainedPath } from '../io/contained-path.js';
import { expandGlob, hasMagic } from './glob.js';
import { BUILTIN_CONFIG, findConfig } from './find.js';
import { settingOrigins } from './origins.js';
import { policyPaths } from './policy-paths.js';
import { historySetting, isDatabaseUrl } from './history.js';
import { displayPath } from '../core/display-path.js';
import type { Config, LoadConfigOptions } from './types.js';
import { type NotifyEntry, notifyTargets } from './notify.js';
import { type OwnerRuleEntry, ownerRules, unroutedTeams } from './owners.js';
import { durationMs } from './schema.js';
import { validateConfigSource } from './validate.js';
import { resolveScope, type ScopeEntries } from './scope.js';
import { forInstance, type InstanceEntry, namedInstances } from './instances.js';

export const DEFAULT_FAIL_ON: FailOn = 'low';
export const DEFAULT_CONCURRENCY = 8;
// A run's deadline unless `timeout` says otherwise: inside a CI job's limits, long enough for a few thousand resources at 2 req/s.
export const RUN_TIMEOUT_DEFAULT = '30m';
export { DEFAULT_POLICIES, POLICIES_FLAG_ORIGIN } from './policy-paths.js';

/** Environment variables read (flags win over them; they win over the file). */
export const ENV = {
  baseUrl: 'STEWARD_BASE_URL',
  workflowUrl: 'STEWARD_WORKFLOW_URL',
  token: 'STEWARD_TOKEN',
  workflowToken: 'STEWARD_WORKFLOW_TOKEN',
} as const;


interface FileConfig {
  instance?: { baseUrl?: string; workflowUrl?: string; allowInsecureHttp?: boolean; tokenHeader?: string; tokenId?: string | number; tokenWarningDays?: number; scheduleFilter?: ScheduleFilter; pageSize?: number };
  policies?: string | string[];
  params?: Record<string, Record<string, unknown>>;
  /** Keyed by the kinds' scope inputs: id lists, or paths per file-set id. */
  scope?: ScopeEntries;
  /** Keyed by the kinds' manifest inputs. */
  manifests?: Record<string, string | string[]>;
  waivers?: string;
  history?: string | boolean | { path: string | true; keep?: number | string };
  waiverRules?: { allowCatchAll?: boolean; require?: GovernedWaiverField[] };
  waiverWarningDays?: number;
  acceptPartialCoverage?: string[];
  notify?: NotifyEntry[];
  owners?: OwnerRuleEntry[];
  instances?: Record<string, InstanceEntry>;
  enforcement?: Record<string, Enforcement>;
  failOn?: FailOn;
  concurrency?: number;
  requestsPerSecond?: number;
  timeout?: string;
}

const kindInputs = (): KindInputs[] => Object.values(RESOURCE_KINDS).map((k) => k.inputs);

const nonEmpty = (v: string | undefined): string | null => (v && v.trim() !== '' ? v.trim() : null);

/**
 * Why a base URL cannot be used, or null. A URL with credentials, a query string or a fragment
 * is refused: a token hidden there would be printed in reports, snapshots, plans and logs.
 */
export function badBaseUrl(value: string): string | null {
  // A value that may hold a secret (user:pass@, ?key=…) is never echoed.
  const shown = /[@?#]/.test(value) ? '' : `, got "${value}"`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an http(s):// URL${shown}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http(s):// URL${shown}`;
  if (!url.hostname) return `must be an http(s):// URL with a host${shown}`;
  if (url.username || url.password) {
    return 'must not carry credentials (user:password@): it would be printed in reports and logs; the token goes in STEWARD_TOKEN';
  }
  if (url.search || value.includes('?')) return 'must not carry a query string: it would be printed in reports, snapshots and plans';
  if (url.hash || value.includes('#')) return 'must not carry a fragment (#…): it would be printed in reports, snapshots and plans';
  return null;
}

/** Control characters or whitespace inside a token: an HTTP header cannot carry it as meant. */
const BAD_TOKEN_CHARS = /[\s\u0000-\u001f\u007f]/;

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const flags = options.overrides ?? {};
  const problems: InputProblem[] = [];
  const shown = (f: string) => displayPath(f, cwd);

  // Which file, if any.
  let file: string | null = null;
  if (options.configPath === BUILTIN_CONFIG) {
    file = null;
  } else if (options.configPath) {
    file = path.resolve(cwd, options.configPath);
    if (!existsSync(file)) throw new InputError([{ file: '--config', line: 0, column: 0, message: `config file not found: ${shown(file)}` }]);
  } else {
    file = findConfig(cwd).file;
  }
  const baseDir = file ? path.dirname(file) : cwd;
  // Files the config names stay inside its project (io/contained-path.ts).
  const root = projectRoot(baseDir);

  let src: YamlSource | null = null;
  let data: FileConfig = {};
  if (file) {
    src = recallYamlSource(readInputFileSync(file, shown(file), 'config'), shown(file));
    const { data: js, problems } = yamlData(src);
    if (problems.length > 0) throw new InputError(problems);
    const fileProblems = validateConfigSource(src, js ?? {});
    if (fileProblems.length > 0) throw new InputError(fileProblems);
    data = (js ?? {}) as FileConfig;
  }
  const at = (p: (string | number)[], message: string): InputProblem =>
    src ? problemAt(src, p, message) : { file: '(config)', line: 0, column: 0, message };
  const locAt = (p: (string | number)[]): SourceLocation =>
    src ? locationAt(src, p) : { file: '(config)', line: 0, column: 0 };

  // Instance: flag > env > file.
  const proxy = proxySettings(env);
  addProblems(problems, proxy.problems);
  const allowInsecureHttp = data.instance?.allowInsecureHttp === true;
  const warnings: string[] = [];
  const urlFrom = (flag: string | undefined, flagName: string, envName: string, fromFile: string | undefined) => {
    const chosen: [string | null, string] = nonEmpty(flag)
      ? [nonEmpty(flag), flagName]
      : nonEmpty(env[envName])
        ? [nonEmpty(env[envName]), envName]
        : [fromFile ?? null, 'file'];
    const key = flagName === '--base-url' ? 'baseUrl' : 'workflowUrl';
    const bad = chosen[0] ? (badBaseUrl(chosen[0]) ?? cleartext(chosen[0])) : null;
    if (bad) {
      problems.push(chosen[1] === 'file' ? at(['instance', key], `instance.${key} ${bad}`) : { file: chosen[1], line: 0, column: 0, message: bad });
    }
    return chosen[0];
  };
  /** A non-loopback http:// URL: refused, or (allowInsecureHttp) a warning on every run. */
  const cleartext = (value: string): string | null => {
    const url = new URL(value);
    if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return null;
    if (allowInsecureHttp) {
      warnings.push(`${url.origin} is reached over plain http (instance.allowInsecureHttp): the token crosses the network in clear`);
      return null;
    }
    return `uses http:// to ${url.hostname}, which is not this machine: the token would cross the network in clear; use https://, or set instance.allowInsecureHttp: true (warned on every run)`;
  };
  // A token is checked, never echoed: the message names where it came from.
  const tokenFrom = (flag: string | undefined, flagName: string, envName: string): string | null => {
    const fromFlag = nonEmpty(flag);
    const value = fromFlag ?? nonEmpty(env[envName]);
    if (value && BAD_TOKEN_CHARS.test(value)) {
      problems.push({
        file: fromFlag ? flagName : envName,
        line: 0,
        column: 0,
        message: 'the token contains whitespace or control characters (a stray newline or space when it was pasted?); set it to the token alone',
      });
    }
    return value;
  };
  const instance = {
    baseUrl: urlFrom(flags.baseUrl, '--base-url', ENV.baseUrl, data.instance?.baseUrl),
    workflowUrl: urlFrom(flags.workflowUrl, '--workflow-url', ENV.workflowUrl, data.instance?.workflowUrl),
    token: tokenFrom(flags.token, 'token', ENV.token),
    workflowToken: tokenFrom(flags.workflowToken, 'workflowToken', ENV.workflowToken),
    tokenHeader: data.instance?.tokenHeader ?? null,
    tokenId: data.instance?.tokenId === undefined ? null : String(data.instance.tokenId),
    tokenWarningDays: data.instance?.tokenWarningDays ?? TOKEN_WARNING_DAYS_DEFAULT,
    pageSize: data.instance?.pageSize ?? null,
  };

  // Policies: flag paths are relative to the cwd, file paths to the file (policy-paths.ts).
  const { policies, policyOrigins, policySources } = policyPaths({ flagged: flags.policies, written: data.policies, cwd, baseDir, root, problems, at, locAt, shown });

  // Params, with positions for errors found later (unknown policy id or parameter).
  const params = data.params ?? {};
  const paramLocations: Config['paramLocations'] = {};
  for (const [policyId, values] of Object.entries(params)) {
    const keys: Record<string, SourceLocation> = {};
    for (const k of Object.keys(values)) keys[k] = src ? keyLocationAt(src, ['params', policyId, k]) : locAt([]);
    paramLocations[policyId] = { location: src ? keyLocationAt(src, ['params', policyId]) : locAt([]), keys };
  }

  // Enforcement levels per policy id, each where it is written (an unknown id is found later).
  const enforcement: Config['enforcement'] = {};
  for (const [policyId, level] of Object.entries(data.enforcement ?? {})) {
    enforcement[policyId] = { level, location: src ? keyLocationAt(src, ['enforcement', policyId]) : locAt([]) };
  }

  // Scope: inline lists or list files; each id checked where it was written (scope.ts).
  const listFiles = new Set<string>();
  const scopeContext = { baseDir, root, src, problems, listFiles, at, shown };
  const scope = resolveScope(data.scope, ['scope'], scopeContext, data.instance?.scheduleFilter);
  const named = namedInstances(data.instances, flags.instances, {
    env, at, locAt, badUrl: (v) => badBaseUrl(v) ?? cleartext(v), scope: scopeContext, scheduleFilter: data.instance?.scheduleFilter,
  });
  addProblems(problems, named.problems);
  // One way to name the instance: instances: replaces instance.baseUrl and --base-url.
  if (data.instances && data.instance?.baseUrl) problems.push(at(['instance', 'baseUrl'], 'instance.baseUrl and instances: name the instance twice: keep instances:'));
  if (data.instances && flags.baseUrl) problems.push({ file: '--base-url', line: 0, column: 0, message: 'the config names its instances (instances:): pick one with --instance NAME' });

  // Manifests: globs relative to the file; a literal path must exist.
  const manifestFiles: ManifestFiles = {};
  // A glob matching nothing is an error only when a selected policy reads that kind (library/prepare.ts).
  const unmatchedManifestGlobs: NonNullable<Config['unmatchedManifestGlobs']> = [];
  for (const { manifests: input } of kindInputs()) {
    if (!input) continue;
    const kind = input.key;
    manifestFiles[kind] = [];
    const value = data.manifests?.[kind];
    if (value === undefined) continue;
    const patterns = Array.isArray(value) ? value : [value];
    const found = new Set<string>();
    for (const [i, pattern] of patterns.entries()) {
      const where = Array.isArray(value) ? ['manifests', kind, i] : ['manifests', kind];
      const escaped = uncontainedPath(pattern, baseDir, root, 'file or folder');
      if (escaped && !hasMagic(pattern)) {
        problems.push(at(where, `manifests.${kind}: ${escaped}`));
        continue;
      }
      // A glob matches only what it may read: files really inside the project.
      const files = expandGlob(pattern, baseDir).filter((f) => uncontainedPath(path.relative(baseDir, f), baseDir, root) === null);
      if (files.length === 0 && !hasMagic(pattern)) {
        problems.push(at(where, `manifest path not found: ${shown(path.resolve(baseDir, pattern))}`));
      } else if (files.length === 0) {
        unmatchedManifestGlobs.push({ kind, pattern, location: locAt(where) });
      }
      for (const f of files) found.add(f);
    }
    manifestFiles[kind] = [...found].sort();
  }

  let waiversFile: string | null = null;
  if (data.waivers) {
    waiversFile = path.resolve(baseDir, data.waivers);
    const refused = uncontainedPath(data.waivers, baseDir, root);
    if (refused) problems.push(at(['waivers'], `waivers: ${refused}`));
    else if (!existsSync(waiversFile)) problems.push(at(['waivers'], `waivers file not found: ${shown(waiversFile)}`));
  }

  const history = historySetting(data.history, { baseDir, root, env, at: (message) => at(['history'], message) });
  addProblems(problems, history.problems);

  const failOn = flags.failOn ?? data.failOn ?? DEFAULT_FAIL_ON;
  if (!(SEVERITIES as readonly string[]).includes(failOn) && failOn !== 'none') {
    problems.push({ file: '--fail-on', line: 0, column: 0, message: `must be one of: ${SEVERITIES.join(', ')}, none` });
  }
  const concurrency = flags.concurrency ?? data.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    problems.push({ file: '--concurrency', line: 0, column: 0, message: 'must be a whole number from 1 to 64' });
  }

  const timeout = flags.timeout ?? data.timeout ?? RUN_TIMEOUT_DEFAULT;
  const timeoutMs = durationMs(timeout);
  if (timeoutMs === null) {
    const message = `timeout ${JSON.stringify(timeout)}: a whole number of s, m or h (e.g. 90s, 30m, 2h), at most 24h`;
    problems.push(flags.timeout !== undefined ? { file: '--timeout', line: 0, column: 0, message } : at(['timeout'], message));
  }

  const notify = notifyTargets(data.notify ?? [], env, (i) => locAt(['notify', i]));
  const owners = ownerRules(data.owners ?? [], (i) => locAt(['owners', i]));
  addProblems(problems, unroutedTeams(data.notify ?? [], owners, at));

  if (problems.length > 0) throw new InputError(problems);
  const config: Config = {
    secrets: SecretSet.of(instance.token, instance.workflowToken, ...proxy.secrets, ...notify.flatMap((n) => [n.url.value, n.secret?.value]), history.secret, ...named.secrets, typeof flags.history === 'string' && isDatabaseUrl(flags.history) ? flags.history : null),
    instances: named.instances,
    notify,
    owners,
    warnings,
    file,
    baseDir,
    instance,
    policies,
    policyOrigins,
    policySources,
    policiesOverridden: Boolean(flags.policies && flags.policies.length > 0),
    policiesLocation: data.policies !== undefined && src ? locAt(['policies']) : null,
    params,
    paramLocations,
    enforcement,
    scope,
    manifestFiles,
    unmatchedManifestGlobs,
    waiversFile,
    historyTarget: history.target,
    historyKeep: history.keep,
    listFiles: [...listFiles].sort(),
    waiverRules: { allowCatchAll: data.waiverRules?.allowCatchAll ?? true, require: data.waiverRules?.require ?? [], instances: data.instances ? Object.keys(data.instances) : null },
    waiverWarningDays: data.waiverWarningDays ?? WAIVER_WARNING_DAYS_DEFAULT,
    acceptPartialCoverage: data.acceptPartialCoverage ?? [],
    failOn,
    concurrency,
    requestsPerSecond: data.requestsPerSecond ?? null,
    timeout: { ms: timeoutMs ?? 0, label: flags.timeout !== undefined ? `--timeout ${timeout}` : `timeout ${timeout}` },
    origins: settingOrigins({
      flags,
      env,
      data: data as Record<string, unknown>,
      src,
      scopeKeys: kindInputs().flatMap((k) => (k.scope ? [k.scope.key] : [])),
      manifestKeys: kindInputs().flatMap((k) => (k.manifests ? [k.manifests.key] : [])),
    }),
  };
  // One instance picked (or the only one): every command reads it as the instance.
  return named.instances?.length === 1 ? forInstance(config, named.instances[0]!) : config;
}
