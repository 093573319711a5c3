// Which config a command uses when none is named: the nearest DEFAULT_CONFIG_FILE from the cwd
// up to the repository root (the nearest folder holding `.git`), as ESLint finds its config.
// Outside a repository only the cwd is looked at: a stray file in /tmp or $HOME is never
// picked up. `--config builtin` runs the built-in pack with defaults on purpose.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../io/contained-path.js';
import { DEFAULT_CONFIG_FILE } from './paths.js';

/** `--config builtin`: no file, the built-in pack and every default, chosen on purpose. */
export const BUILTIN_CONFIG = 'builtin';

export interface FoundConfig {
  /** The config file found (absolute), or null. */
  file: string | null;
  /** The folders looked in, nearest first. */
  looked: string[];
}

export function findConfig(cwd: string): FoundConfig {
  const start = path.resolve(cwd);
  const root = projectRoot(start);
  const looked: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    looked.push(dir);
    const file = path.join(dir, DEFAULT_CONFIG_FILE);
    if (existsSync(file)) return { file, looked };
    if (dir === root || path.dirname(dir) === dir) return { file: null, looked };
  }
}
