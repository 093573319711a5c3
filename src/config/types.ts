// The one typed configuration a run uses: steward.yaml + environment + flags, paths resolved.
import type { Enforcement, FailOn, GovernedWaiverField, SourceLocation } from '../core/model.js';
import type { SecretSet } from '../core/redact.js';
import type { InputProblem } from '../core/problem.js';
import type { ManifestFiles, Scope } from '../resources/types.js';
import type { OwnerRule } from './owners.js';
import type { HistoryKeep } from './history.js';

export interface Config {
  /** Every string no output may carry (the tokens and their encoded forms): built here, once. */
  secrets: SecretSet;
  /** What every run over this config says on stderr and in its report (a cleartext URL allowed). */
  warnings: string[];
  /** Absolute path of the config file read, or null when none was used. */
  file: string | null;
  /** Relative paths of the file resolve against this directory (the cwd without a file). */
  baseDir: string;
  instance: {
    baseUrl: string | null;
    workflowUrl: string | null;
    /** Only ever from the environment or the library caller, never from the file. */
    token: string | null;
    workflowToken: string | null;
    /** Header of the developer token (null: the client's DEVELOPER_TOKEN_HEADER). */
    tokenHeader: string | null;
    /** The access-token id of the token in use (not secret), to warn before it expires; null: not named. */
    tokenId: string | null;
    /** Warn when the named token expires within this many days. */
    tokenWarningDays: number;
    /** Items per limit/skip page (null: the client's PAGE_SIZE_DEFAULT). */
    pageSize: number | null;
  };
  /** Absolute policy files or folders ("builtin" resolved to the shipped pack). */
  policies: string[];
  /**
   * Where each entry of `policies` was named (same index): the item of the config's `policies`
   * list, or `--policies` (line 0) for the flag; null for the default pack nobody named.
   */
  policyOrigins: (SourceLocation | null)[];
  /** Per entry of `policies` that a pack by name brought in: the package and its version (sparse: a path has none). */
  policySources: ({ package: string; version: string } | undefined)[];
  /**
   * True when flags (or validate's paths) replaced the config's `policies`: params and waivers
   * naming a policy that is not loaded are then not errors (it is simply not in this run).
   */
  policiesOverridden?: boolean;
  /** Where the file's `policies` key is (null: not in the file). */
  policiesLocation?: SourceLocation | null;
  /** Per-policy parameter overrides, and where each was written (for errors). */
  params: Record<string, Record<string, unknown>>;
  paramLocations: Record<string, { location: SourceLocation; keys: Record<string, SourceLocation> }>;
  /** `enforcement.<policy id>` levels, and where each is written. */
  enforcement: Record<string, { level: Enforcement; location: SourceLocation }>;
  scope: Scope;
  /** Manifest files per `manifests` key, absolute, sorted. */
  manifestFiles: ManifestFiles;
  /** Manifest globs that matched no file, where they are written (`kind`: the `manifests` key). */
  unmatchedManifestGlobs?: { kind: string; pattern: string; location: SourceLocation }[];
  waiversFile: string | null;
  /** The run history `check` records into: an SQLite file (absolute) or a PostgreSQL URL (a secret of the run); null: none. */
  historyTarget: string | null;
  /** How much of each instance's past the history keeps in detail (`history.keep`; default a year). */
  historyKeep: HistoryKeep;
  /** Absolute paths of the scope id-list files read (`{ file: … }`). */
  listFiles: string[];
  /**
   * `waiverRules:` (`allowCatchAll: false` makes a waiver of resource `*` bad input), and the
   * names `instances:` declares (all, picked or not), which a waiver's `instances` must be among.
   */
  waiverRules: { allowCatchAll: boolean; require: GovernedWaiverField[]; instances: string[] | null };
  /** Active waivers ending within this many days are warned about. */
  waiverWarningDays: number;
  /** Kinds whose known-partial listing the run accepts (else a failOn-level policy over one is exit 3). */
  acceptPartialCoverage: string[];
  failOn: FailOn;
  concurrency: number;
  requestsPerSecond: number | null;
  /** The whole run's deadline, from its start; `label` says where it was set (`--timeout 10m`). */
  timeout: { ms: number; label: string };
  /** Where a run sends its digest of changes (`notify:`). */
  notify: NotifyTarget[];
  /** `instances:` picked for this run (one: it is also `instance`); null without `instances:`. */
  instances: NamedInstance[] | null;
  /** `owners:`: routing of findings to teams, first match wins. */
  owners: OwnerRule[];
  /** Where each setting came from (`--print-config`): a flag, an environment variable, file:line, default or unset. */
  origins: SettingOrigins;
}

/** What flags (or the library caller) set; each wins over the environment and the file. */
/** One `notify:` entry: where a run sends its digest. The URL and key come from the environment only. */
export interface NotifyTarget {
  type: 'slack' | 'teams' | 'webhook';
  /** The variable named by `url: env:NAME`, and its value (null: not set in this environment). */
  url: { variable: string; value: string | null };
  /** `secret: env:NAME` (webhook): the HMAC key's variable and value; null when none is configured. */
  secret: { variable: string; value: string | null } | null;
  on: 'change' | 'always';
  /** Only changes routed to these teams (`owners:`); null: every change. */
  teams: string[] | null;
  location: SourceLocation;
}

/** Setting name (`instance.baseUrl`, `scope.datasets`) → where its value came from (origins.ts). */
export type SettingOrigins = Record<string, string>;

export interface ConfigOverrides {
  baseUrl?: string;
  workflowUrl?: string;
  token?: string;
  workflowToken?: string;
  /** Paths relative to the cwd, or "builtin". */
  policies?: string[];
  failOn?: FailOn;
  concurrency?: number;
  /** A duration such as `90s`, `30m`, `2h`. */
  timeout?: string;
  /** `--instance`: the names of `instances:` to check (default all). */
  instances?: string[];
  /** `--history`: a database URL given here is a secret of the run like the file's. */
  history?: string | boolean;
}

export interface LoadConfigOptions {
  /**
   * Config file path; `builtin` (BUILTIN_CONFIG) for none on purpose; default the nearest
   * DEFAULT_CONFIG_FILE up to the repository root (find.ts), used only if it exists.
   */
  configPath?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  overrides?: ConfigOverrides;
}

/** An instance a run checks: its settings, and what it sets apart from the config. */
export interface NamedInstance {
  name: string;
  instance: Config['instance'];
  /** Its own rate (null: the config's). */
  requestsPerSecond: number | null;
  /** Its own scope (null: the config's). */
  scope: Scope | null;
  /**
   * Its token variables that are not set, each said where steward.yaml names it: bad input for
   * a command that connects to it, and for no other (`validate`, `waive`, a replay need none).
   */
  unsetTokens: InputProblem[];
  /** The variables its tokens are read from (`env:NAME`), for `--print-config`. */
  tokenVariables: { token: string; workflowToken: string | null };
  location: SourceLocation;
}
