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
