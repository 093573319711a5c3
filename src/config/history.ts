// Where the run history lives, from `history:` (or `--history`): an SQLite file, or a PostgreSQL
// database whose URL carries a password, so the file only names the variable holding it
// (`history: env:STEWARD_HISTORY_URL`) and the URL joins the run's secrets. A URL of another
// database, or one written into the file, is bad input; neither is ever echoed.
import path from 'node:path';
import { InputError, type InputProblem } from '../core/problem.js';
import { uncontainedPath } from '../io/contained-path.js';
import { DEFAULT_HISTORY_FILE } from './paths.js';
import { ENV_REF, envVariableOf } from './env-ref.js';

/** Any `scheme://` value: a database URL, not a file path. */
export function isDatabaseUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());
}

/** The URLs a history may be: PostgreSQL's two schemes. */
export const isPostgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value.trim());

export const DATABASE_URL_REFUSED = 'only a PostgreSQL URL (postgres:// or postgresql://) or a file path can hold the run history; the URL is not printed, as it may carry a password';
const URL_IN_FILE = 'a database URL carries a password: name the environment variable that holds it (history: env:STEWARD_HISTORY_URL); the URL is not printed';

/** How much of each instance's past the history keeps in detail: runs, or days (config `history.keep`). */
export type HistoryKeep = { runs: number } | { days: number };
/** One year, unless `history.keep` says otherwise: a year-long audit trail, a file that stops growing. */
export const HISTORY_KEEP_DEFAULT: HistoryKeep = { days: 365 };

export interface HistorySetting {
  /** The file (absolute) or the PostgreSQL URL; null: no history. */
  target: string | null;
  keep: HistoryKeep;
  /** A URL to redact everywhere (the target, when it is one). */
  secret: string | null;
  problems: InputProblem[];
}

/** `history:` of steward.yaml: true (the default file), a path, or `env:NAME` holding a path or a PostgreSQL URL. */
export function historySetting(
  setting: string | boolean | { path: string | true; keep?: number | string } | undefined,
  where: { baseDir: string; root: string; env: Record<string, string | undefined>; at: (message: string) => InputProblem },
): HistorySetting {
  const value = typeof setting === 'object' ? setting.path : setting;
  const keepValue = typeof setting === 'object' ? setting.keep : undefined;
  const keep: HistoryKeep = keepValue === undefined ? HISTORY_KEEP_DEFAULT : typeof keepValue === 'number' ? { runs: keepValue } : { days: Number(keepValue.slice(0, -1)) };
  const none: HistorySetting = { target: null, keep, secret: null, problems: [] };
  if (value === undefined || value === false) return none;
  if (value === true) return { ...none, target: path.resolve(where.baseDir, DEFAULT_HISTORY_FILE) };
  let written = value;
  if (value.startsWith(ENV_REF)) {
    const variable = envVariableOf(value);
    const held = where.env[variable]?.trim();
    if (!held) return { ...none, problems: [where.at(`history: ${variable} is not set (it should hold the history's PostgreSQL URL or file path)`)] };
    if (isPostgresUrl(held)) return { ...none, target: held, secret: held };
    if (isDatabaseUrl(held)) return { ...none, secret: held, problems: [where.at(`history: ${variable}: ${DATABASE_URL_REFUSED}`)] };
    written = held;
  } else if (isDatabaseUrl(value)) {
    return { ...none, secret: value, problems: [where.at(`history: ${isPostgresUrl(value) ? URL_IN_FILE : DATABASE_URL_REFUSED}`)] };
  }
  const refused = uncontainedPath(written, where.baseDir, where.root);
  if (refused) return { ...none, problems: [where.at(`history: ${refused}`)] };
  return { ...none, target: path.resolve(where.baseDir, written) };
}

/**
 * The history a run or command uses: `--history FILE` (relative to the cwd) or a PostgreSQL URL
 * (a secret of the run: loadConfig adds it), a bare `--history` (the default file,
 * DEFAULT_HISTORY_FILE beside the config), else the config's; false: none.
 */
export function historyFileOf(flag: string | boolean | undefined, cwd: string, config: { historyTarget: string | null; baseDir: string }): string | null {
  if (flag === false) return null;
  if (flag === true) return path.resolve(config.baseDir, DEFAULT_HISTORY_FILE);
  if (flag && isDatabaseUrl(flag)) {
    if (!isPostgresUrl(flag)) throw new InputError([{ file: '--history', line: 0, column: 0, message: DATABASE_URL_REFUSED }]);
    return flag.trim();
  }
  return flag ? path.resolve(cwd, flag) : config.historyTarget;
}
