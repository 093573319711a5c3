// The resolved configuration as settings, each with its value and where it came from
// (`steward check --print-config`, as ESLint's --print-config). Tokens show as set or unset,
// never their value; paths are shown relative to the cwd.
import path from 'node:path';
import { builtinPolicyDir, type Config, isPostgresUrl, type NamedInstance } from '../config/index.js';
import { displayPath } from '../core/display-path.js';
import { type CheckOptions, configOf } from './prepare.js';

export interface ConfigSetting {
  setting: string;
  value: string;
  origin: string;
}

/** The config `check` with these options would run with (InputError as check would). */
export function resolvedConfig(options: CheckOptions): { file: string | null; settings: ConfigSetting[] } {
  const cwd = options.cwd ?? process.cwd();
  const config = configOf(options, cwd);
  return { file: config.file, settings: settingsOf(config, cwd) };
}

function settingsOf(config: Config, cwd: string): ConfigSetting[] {
  const shown = (p: string | null) => (p ? displayPath(p, cwd) : '(none)');
  const list = (items: readonly string[]) => (items.length === 0 ? '[]' : `[${items.join(', ')}]`);
  const values: Record<string, string> = {
    'instance.baseUrl': config.instance.baseUrl ?? '(unset)',
    'instance.workflowUrl': config.instance.workflowUrl ?? '(unset: the instance host)',
    'instance.token': config.instance.token ? '(set)' : '(unset)',
    'instance.workflowToken': config.instance.workflowToken ? '(set)' : '(unset: the instance token)',
    'instance.tokenHeader': config.instance.tokenHeader ?? '(the platform default)',
    policies: list(config.policies.map((p) => (p === builtinPolicyDir() ? 'builtin' : shown(p)))),
    failOn: config.failOn,
    concurrency: String(config.concurrency),
    requestsPerSecond: config.requestsPerSecond === null ? '(unset)' : String(config.requestsPerSecond),
    timeout: config.timeout.label.replace(/^(--)?timeout /, ''),
    waivers: shown(config.waiversFile),
    history: config.historyTarget && isPostgresUrl(config.historyTarget) ? 'the PostgreSQL history (its URL is a secret)' : shown(config.historyTarget),
    waiverRules: `allowCatchAll: ${config.waiverRules.allowCatchAll}, require: ${list(config.waiverRules.require)}`,
    waiverWarningDays: String(config.waiverWarningDays),
    acceptPartialCoverage: list(config.acceptPartialCoverage),
  };
  for (const [key, ids = []] of Object.entries(config.scope.ids)) {
    values[`scope.${key}`] = config.scope.discover[key] ? `all${ids.length ? ` + ${list(ids)}` : ''}` : list(ids);
  }
  for (const [key, sets = {}] of Object.entries(config.scope.paths)) {
    values[`scope.${key}`] = config.scope.discover[key] ? 'all' : list(Object.keys(sets));
  }
  for (const [key, files] of Object.entries(config.manifestFiles)) {
    values[`manifests.${key}`] = list(files.map((f) => path.relative(cwd, f) || f));
  }
  const settings = Object.entries(config.origins).map(([setting, origin]) => ({ setting, value: values[setting] ?? '', origin }));
  if (!config.instances) return settings;
  // With `instances:`, each picked instance's own settings stand where the one instance's would.
  const own = config.instances.flatMap((named) => instanceSettings(named, config, cwd));
  const at = settings.findIndex((s) => s.setting.startsWith('instance.'));
  return [...settings.slice(0, at), ...own, ...settings.filter((s, i) => i > at && !s.setting.startsWith('instance.'))];
}

/** One instance of `instances:` as settings: URLs and rate from its entry, tokens as set or unset from their variables. */
function instanceSettings(named: NamedInstance, config: Config, cwd: string): ConfigSetting[] {
  const entry = `${displayPath(named.location.file, cwd)}:${named.location.line}`;
  const { instance, tokenVariables } = named;
  const row = (key: string, value: string, origin = entry) => ({ setting: `instances.${named.name}.${key}`, value, origin });
  return [
    row('baseUrl', instance.baseUrl ?? '(unset)'),
    row('workflowUrl', instance.workflowUrl ?? '(unset: the instance host)', instance.workflowUrl ? entry : 'unset'),
    row('token', instance.token ? '(set)' : '(unset)', tokenVariables.token),
    row('workflowToken', instance.workflowToken ? '(set)' : '(unset: the instance token)', tokenVariables.workflowToken ?? 'unset'),
    row('tokenHeader', instance.tokenHeader ?? '(the platform default)', instance.tokenHeader ? entry : 'default'),
    row('requestsPerSecond', String(named.requestsPerSecond ?? config.requestsPerSecond ?? '(unset)'), named.requestsPerSecond === null ? 'the config\'s' : entry),
    row('scope', named.scope ? 'its own' : '(the config\'s)', named.scope ? entry : 'the config\'s'),
  ];
}
