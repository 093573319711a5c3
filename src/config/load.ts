// steward.yaml + environment + flags → one typed Config (DESIGN §4). Precedence: flags, then
// the environment, then the file, then defaults. All problems are collected and thrown together
// as one InputError, so a user fixes them in one pass.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import type { InputProblem } from '../policy/types.js';
import type { FailOn, SourceLocation } from '../report/model.js';
import { SEVERITIES } from '../report/model.js';
import { keyNodeAt, locationOf, nodeAt, parseYamlSource, problemAt, type YamlSource } from '../yaml/source.js';
import { expandGlob, hasMagic } from './glob.js';
import { BUILTIN_POLICIES, builtinPolicyDir, DEFAULT_CONFIG_FILE, displayPath } from './paths.js';
import type { Config, LoadConfigOptions } from './types.js';
import { validateConfigSource } from './validate.js';

export const DEFAULT_FAIL_ON: FailOn = 'low';
export const DEFAULT_CONCURRENCY = 8;
/** Without `policies:` in the file or --policies, the shipped pack runs. */
export const DEFAULT_POLICIES = [BUILTIN_POLICIES];

/** The origin of policies named by `--policies` (a flag has no line). */
export const POLICIES_FLAG_ORIGIN: SourceLocation = { file: '--policies', line: 0, column: 0 };

/** Environment variables read (flags win over them; they win over the file). */
export const ENV = {
  baseUrl: 'STEWARD_BASE_URL',
  workflowUrl: 'STEWARD_WORKFLOW_URL',
  token: 'STEWARD_TOKEN',
  workflowToken: 'STEWARD_WORKFLOW_TOKEN',
} as const;

interface FileConfig {
  instance?: { baseUrl?: string; workflowUrl?: string };
  policies?: string | string[];
  params?: Record<string, Record<string, unknown>>;
  scope?: {
    datasets?: (string | number)[] | { file: string };
    cards?: (string | number)[] | { file: string };
    filesets?: Record<string, string[] | { file: string }>;
  };
  manifests?: { queues?: string | string[]; dataFiles?: string | string[] };
  waivers?: string;
  failOn?: FailOn;
  concurrency?: number;
  requestsPerSecond?: number;
}

const nonEmpty = (v: string | undefined): string | null => (v && v.trim() !== '' ? v.trim() : null);

/** Lines of a list file: trimmed, blank lines and `#` comments skipped. */
function readListFile(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const flags = options.overrides ?? {};
  const problems: InputProblem[] = [];
  const shown = (f: string) => displayPath(f, cwd);

  // Which file, if any.
  let file: string | null = null;
  if (options.configPath) {
    file = path.resolve(cwd, options.configPath);
    if (!existsSync(file)) throw new InputError([{ file: '--config', line: 0, column: 0, message: `config file not found: ${shown(file)}` }]);
  } else if (existsSync(path.join(cwd, DEFAULT_CONFIG_FILE))) {
    file = path.join(cwd, DEFAULT_CONFIG_FILE);
  }
  const baseDir = file ? path.dirname(file) : cwd;

  let src: YamlSource | null = null;
  let data: FileConfig = {};
  if (file) {
    src = parseYamlSource(readFileSync(file, 'utf8'), shown(file));
    if (src.problems.length > 0) throw new InputError(src.problems);
    const js = src.doc.toJS();
    const fileProblems = validateConfigSource(src, js ?? {});
    if (fileProblems.length > 0) throw new InputError(fileProblems);
    data = (js ?? {}) as FileConfig;
  }
  const at = (p: (string | number)[], message: string): InputProblem =>
    src ? problemAt(src, p, message) : { file: '(config)', line: 0, column: 0, message };
  const locAt = (p: (string | number)[]): SourceLocation =>
    src ? locationOf(src, nodeAt(src, p)) : { file: '(config)', line: 0, column: 0 };

  // Instance: flag > env > file.
  const urlFrom = (flag: string | undefined, flagName: string, envName: string, fromFile: string | undefined) => {
    const chosen: [string | null, string] = nonEmpty(flag)
      ? [nonEmpty(flag), flagName]
      : nonEmpty(env[envName])
        ? [nonEmpty(env[envName]), envName]
        : [fromFile ?? null, 'file'];
    if (chosen[0] && chosen[1] !== 'file' && !/^https?:\/\//.test(chosen[0])) {
      problems.push({ file: chosen[1], line: 0, column: 0, message: `must be an http(s):// URL, got "${chosen[0]}"` });
    }
    return chosen[0];
  };
  const instance = {
    baseUrl: urlFrom(flags.baseUrl, '--base-url', ENV.baseUrl, data.instance?.baseUrl),
    workflowUrl: urlFrom(flags.workflowUrl, '--workflow-url', ENV.workflowUrl, data.instance?.workflowUrl),
    token: nonEmpty(flags.token) ?? nonEmpty(env[ENV.token]),
    workflowToken: nonEmpty(flags.workflowToken) ?? nonEmpty(env[ENV.workflowToken]),
  };

  // Policies: flag paths are relative to the cwd, file paths to the file.
  const resolvePolicy = (p: string, dir: string) => (p === BUILTIN_POLICIES ? builtinPolicyDir() : path.resolve(dir, p));
  let policies: string[];
  let policyOrigins: (SourceLocation | null)[];
  if (flags.policies && flags.policies.length > 0) {
    policies = flags.policies.map((p) => resolvePolicy(p, cwd));
    policyOrigins = policies.map(() => POLICIES_FLAG_ORIGIN);
    for (const [i, p] of policies.entries()) {
      if (!existsSync(p)) problems.push({ file: '--policies', line: 0, column: 0, message: `not found: ${flags.policies[i]}` });
    }
  } else if (data.policies !== undefined) {
    const list = Array.isArray(data.policies) ? data.policies : [data.policies];
    policies = list.map((p) => resolvePolicy(p, baseDir));
    const entryPath = (i: number) => (Array.isArray(data.policies) ? ['policies', i] : ['policies']);
    policyOrigins = list.map((_, i) => locAt(entryPath(i)));
    for (const [i, p] of policies.entries()) {
      if (!existsSync(p)) problems.push(at(entryPath(i), `policy path not found: ${shown(p)}`));
    }
  } else {
    policies = DEFAULT_POLICIES.map((p) => resolvePolicy(p, cwd));
    policyOrigins = policies.map(() => null);
  }

  // Params, with positions for errors found later (unknown policy id or parameter).
  const params = data.params ?? {};
  const paramLocations: Config['paramLocations'] = {};
  for (const [policyId, values] of Object.entries(params)) {
    const keys: Record<string, SourceLocation> = {};
    for (const k of Object.keys(values)) keys[k] = src ? locationOf(src, keyNodeAt(src, ['params', policyId, k])) : locAt([]);
    paramLocations[policyId] = { location: src ? locationOf(src, keyNodeAt(src, ['params', policyId])) : locAt([]), keys };
  }

  // Scope: inline lists or list files.
  const listOrFile = (value: (string | number)[] | { file: string } | undefined, where: (string | number)[]): string[] => {
    if (value === undefined) return [];
    if (Array.isArray(value)) return value.map(String);
    const listFile = path.resolve(baseDir, value.file);
    if (!existsSync(listFile)) {
      problems.push(at([...where, 'file'], `file not found: ${shown(listFile)}`));
      return [];
    }
    return readListFile(listFile);
  };
  const filesets: Record<string, string[]> = {};
  for (const [id, paths] of Object.entries(data.scope?.filesets ?? {})) {
    filesets[id] = listOrFile(paths, ['scope', 'filesets', id]);
  }
  const scope = {
    datasets: [...new Set(listOrFile(data.scope?.datasets, ['scope', 'datasets']))],
    cards: [...new Set(listOrFile(data.scope?.cards, ['scope', 'cards']))],
    filesets,
  };

  // Manifests: globs relative to the file; a literal path must exist.
  const manifestFiles = { queues: [] as string[], dataFiles: [] as string[] };
  for (const kind of ['queues', 'dataFiles'] as const) {
    const value = data.manifests?.[kind];
    if (value === undefined) continue;
    const patterns = Array.isArray(value) ? value : [value];
    const found = new Set<string>();
    for (const [i, pattern] of patterns.entries()) {
      const files = expandGlob(pattern, baseDir);
      if (files.length === 0 && !hasMagic(pattern)) {
        const where = Array.isArray(value) ? ['manifests', kind, i] : ['manifests', kind];
        problems.push(at(where, `manifest path not found: ${shown(path.resolve(baseDir, pattern))}`));
      }
      for (const f of files) found.add(f);
    }
    manifestFiles[kind] = [...found].sort();
  }

  let waiversFile: string | null = null;
  if (data.waivers) {
    waiversFile = path.resolve(baseDir, data.waivers);
    if (!existsSync(waiversFile)) problems.push(at(['waivers'], `waivers file not found: ${shown(waiversFile)}`));
  }

  const failOn = flags.failOn ?? data.failOn ?? DEFAULT_FAIL_ON;
  if (!(SEVERITIES as readonly string[]).includes(failOn) && failOn !== 'none') {
    problems.push({ file: '--fail-on', line: 0, column: 0, message: `must be one of: ${SEVERITIES.join(', ')}, none` });
  }
  const concurrency = flags.concurrency ?? data.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    problems.push({ file: '--concurrency', line: 0, column: 0, message: 'must be a whole number from 1 to 64' });
  }

  if (problems.length > 0) throw new InputError(problems);
  return {
    file,
    baseDir,
    instance,
    policies,
    policyOrigins,
    params,
    paramLocations,
    scope,
    manifestFiles,
    waiversFile,
    failOn,
    concurrency,
    requestsPerSecond: data.requestsPerSecond ?? null,
  };
}
