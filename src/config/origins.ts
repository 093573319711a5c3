// Where each resolved setting came from, for `check --print-config`: a flag, an environment
// variable, the config file at the line it is written, or the default. Kept beside loadConfig,
// which resolves the values in the same order (flag > environment > file > default).
import type { ConfigOverrides, SettingOrigins } from './types.js';
import { locationAt, type YamlSource } from '../io/yaml-source.js';

interface OriginSource {
  flags: ConfigOverrides;
  env: Record<string, string | undefined>;
  data: Record<string, unknown>;
  src: YamlSource | null;
  /** Keys of `scope` and `manifests` the kinds declare, in registry order. */
  scopeKeys: string[];
  manifestKeys: string[];
}

const set = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

export function settingOrigins({ flags, env, data, src, scopeKeys, manifestKeys }: OriginSource): SettingOrigins {
  const inFile = (p: string[]): string | null => {
    if (p.length === 0) return null; // never from the file (a token)
    let v: unknown = data;
    for (const k of p) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    if (v === undefined || !src) return null;
    const loc = locationAt(src, p);
    return `${loc.file}:${loc.line}`;
  };
  const from = (p: string[], flag?: [string, unknown], envName?: string, fallback = 'default'): string => {
    if (flag && set(flag[1])) return flag[0];
    if (envName && set(env[envName])) return envName;
    return inFile(p) ?? fallback;
  };
  const origins: SettingOrigins = {
    'instance.baseUrl': from(['instance', 'baseUrl'], ['--base-url', flags.baseUrl], 'STEWARD_BASE_URL', 'unset'),
    'instance.workflowUrl': from(['instance', 'workflowUrl'], ['--workflow-url', flags.workflowUrl], 'STEWARD_WORKFLOW_URL', 'unset'),
    'instance.token': from([], ['the caller', flags.token], 'STEWARD_TOKEN', 'unset'),
    'instance.workflowToken': from([], ['the caller', flags.workflowToken], 'STEWARD_WORKFLOW_TOKEN', 'unset'),
    'instance.tokenHeader': from(['instance', 'tokenHeader']),
    policies: from(['policies'], ['--policies', flags.policies?.length ? flags.policies : undefined]),
    failOn: from(['failOn'], ['--fail-on', flags.failOn]),
    concurrency: from(['concurrency'], ['--concurrency', flags.concurrency]),
    requestsPerSecond: from(['requestsPerSecond'], undefined, undefined, 'unset'),
    timeout: from(['timeout'], ['--timeout', flags.timeout]),
    waivers: from(['waivers'], undefined, undefined, 'unset'),
    history: from(['history'], undefined, undefined, 'unset'),
    waiverRules: from(['waiverRules']),
    waiverWarningDays: from(['waiverWarningDays']),
    acceptPartialCoverage: from(['acceptPartialCoverage']),
  };
  for (const key of scopeKeys) origins[`scope.${key}`] = from(['scope', key], undefined, undefined, 'unset');
  for (const key of manifestKeys) origins[`manifests.${key}`] = from(['manifests', key], undefined, undefined, 'unset');
  return origins;
}
