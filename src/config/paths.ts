// Where the installed package lives: the built-in pack, the demo config and the version are
// found relative to it, whether running from src/ (tests) or from the dist/ bundle.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../core/package-name.js';

let cachedRoot: string | null = null;

/** The directory holding steward's package.json. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE_NAME) {
      cachedRoot = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('steward: cannot find its own package.json');
    dir = parent;
  }
}

export function packageVersion(): string {
  return JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).version;
}

/**
 * A history given as a URL (`postgres://user:pass@host/db`): not a file. The history is an SQLite
 * file for now; such a value is refused before anything is created or sent, and never echoed
 * (it may carry a password).
 */
export function isDatabaseUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());
}

export const DATABASE_URL_REFUSED = 'a database URL is not supported: the run history is an SQLite file (a path, or true for .steward/history.sqlite); the URL is not printed, as it may carry a password';

/** Where the run history lives when enabled without a path (`history: true`, a bare `--history`), relative to the config's folder. */
export const DEFAULT_HISTORY_FILE = '.steward/history.sqlite';

/** The word in `policies:` that stands for the shipped pack. */
export const BUILTIN_POLICIES = 'builtin';

export function builtinPolicyDir(): string {
  return path.join(packageRoot(), 'policies');
}

/** Config used by `check --sandbox` when no --config is given. */
export function demoConfigPath(): string {
  return path.join(packageRoot(), 'demo', 'steward.yaml');
}

/** `--config` default (DESIGN §4). */
export const DEFAULT_CONFIG_FILE = 'steward.yaml';
