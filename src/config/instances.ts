// `instances:`: several instances in one config (production, sandbox, subsidiaries), each with
// its base URL, the variable holding its token, and optionally its own header, workflow API,
// rate and scope. `--instance NAME` (repeatable) picks some; a token is required only of the
// instances picked, so a fan-out job that holds one instance's token checks that one.
import type { ScheduleFilter } from '../api/types.js';
import type { InputProblem } from '../core/problem.js';
import { type SourceLocation, TOKEN_WARNING_DAYS_DEFAULT } from '../core/model.js';
import { envVariableOf } from './env-ref.js';
import { resolveScope, type ScopeContext, type ScopeEntries } from './scope.js';
import type { Config, NamedInstance } from './types.js';

/** One entry of `instances:` as written (the schema has checked its shape). */
export interface InstanceEntry {
  baseUrl: string;
  token: string;
  workflowUrl?: string;
  workflowToken?: string;
  tokenHeader?: string;
  tokenId?: string | number;
  requestsPerSecond?: number;
  pageSize?: number;
  scope?: ScopeEntries;
}

/** The name a single-instance config's findings, coverage and errors carry. */
export const DEFAULT_INSTANCE_NAME = 'default';

export interface InstancesContext {
  env: Record<string, string | undefined>;
  at(path: (string | number)[], message: string): InputProblem;
  locAt(path: (string | number)[]): SourceLocation;
  /** Why a base URL cannot be used (load.ts's checks), or null. */
  badUrl(value: string): string | null;
  scope: ScopeContext;
  scheduleFilter?: ScheduleFilter;
}

/**
 * The instances picked (`--instance`, else every one, in file order), with their tokens read
 * from the environment (each one's unset variables kept for a command that connects); problems
 * for an unknown name or a bad URL. Null without `instances:`.
 */
export function namedInstances(
  entries: Record<string, InstanceEntry> | undefined,
  picked: readonly string[] | undefined,
  ctx: InstancesContext,
): { instances: NamedInstance[] | null; secrets: string[]; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  if (!entries) {
    if (picked?.length) problems.push({ file: '--instance', line: 0, column: 0, message: 'there is no instances: in the config to pick from' });
    return { instances: null, secrets: [], problems };
  }
  const names = Object.keys(entries);
  for (const name of picked ?? []) {
    if (!names.includes(name)) problems.push({ file: '--instance', line: 0, column: 0, message: `no instance "${name}" in instances: (${names.join(', ')})` });
  }
  const chosen = picked?.length ? names.filter((n) => picked.includes(n)) : names;
  const secrets: string[] = [];
  const instances = chosen.map((name): NamedInstance => {
    const e = entries[name]!;
    const where = ['instances', name];
    const tokenVariables = { token: envVariableOf(e.token), workflowToken: e.workflowToken === undefined ? null : envVariableOf(e.workflowToken) };
    // A token not set is bad input only to a command that connects (library/connect.ts).
    const unsetTokens: InputProblem[] = [];
    const fromEnv = (variable: string | null, at: (string | number)[]): string | null => {
      if (variable === null) return null;
      const value = ctx.env[variable]?.trim() || null;
      if (!value) unsetTokens.push(ctx.at(at, `${at.join('.')}: ${variable} is not set`));
      else secrets.push(value);
      return value;
    };
    for (const key of ['baseUrl', 'workflowUrl'] as const) {
      const bad = e[key] ? ctx.badUrl(e[key]) : null;
      if (bad) problems.push(ctx.at([...where, key], `instances.${name}.${key} ${bad}`));
    }
    return {
      name,
      instance: {
        baseUrl: e.baseUrl,
        workflowUrl: e.workflowUrl ?? null,
        token: fromEnv(tokenVariables.token, [...where, 'token']),
        workflowToken: fromEnv(tokenVariables.workflowToken, [...where, 'workflowToken']),
        tokenHeader: e.tokenHeader ?? null,
        tokenId: e.tokenId === undefined ? null : String(e.tokenId),
        tokenWarningDays: TOKEN_WARNING_DAYS_DEFAULT,
        pageSize: e.pageSize ?? null,
      },
      requestsPerSecond: e.requestsPerSecond ?? null,
      scope: e.scope ? resolveScope(e.scope, [...where, 'scope'], ctx.scope, ctx.scheduleFilter) : null,
      unsetTokens,
      tokenVariables,
      location: ctx.locAt(where),
    };
  });
  return { instances, secrets, problems };
}

/** `config` narrowed to one of its instances: what a single-instance run of it reads. */
export function forInstance(config: Config, named: NamedInstance): Config {
  return {
    ...config,
    instance: named.instance,
    requestsPerSecond: named.requestsPerSecond ?? config.requestsPerSecond,
    scope: named.scope ?? config.scope,
    instances: [named],
  };
}
