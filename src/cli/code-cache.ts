// Where the CLI keeps V8's compiled code of its chunks (cli/chunk-loader.ts) and what its input
// files answered (cli/yaml-answers.ts): steward's own cache folder, owner-only, never the shared
// temporary folder. Compiled code is code, and a kept answer is what a run reads its config as:
// another account able to leave a file there could run code with the instance's token or change
// what is checked. Only Node's built-ins here: the entry loads this file before the program.
import { fs, os, path } from './builtins.js';

const { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = fs;

/** Days after which what a build or a Node version kept, saved to last then, is removed. */
export const STALE_DAYS = 90;

/** Whether a folder last saved at `savedMs` went unsaved for STALE_DAYS. */
// Stryker disable next-line EqualityOperator: 90 days to the millisecond
export const unsavedTooLong = (savedMs: number, now = Date.now()): boolean => now - savedMs > STALE_DAYS * 86_400_000;

/**
 * How many builds' kept things a folder of the cache holds, the most recently saved: two installs
 * of steward on one machine (a project's and a global one, two projects') each keep theirs, where
 * one place for all had each start of the one drop the other's and start cold (BENCHMARKS.md,
 * 2026-12-04 13:10 UTC); a developer's rebuilds roll off.
 */
export const KEPT_BUILDS = 4;

/**
 * steward's cache folder: $XDG_CACHE_HOME/steward, else ~/.cache/steward (a relative
 * XDG_CACHE_HOME is ignored, as the XDG spec says); %LOCALAPPDATA%\steward on Windows.
 */
export function cacheFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'steward');
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache'), 'steward');
}

/** Whether only this account can change the folder (POSIX: ours, no group or other write). */
function ownedAndClosed(folder: string, uid: number): boolean {
  const s = statSync(folder);
  // Stryker disable next-line ConditionalExpression: each folder was just made or found by mkdirSync, which fails on a file
  return s.isDirectory() && s.uid === uid && (s.mode & 0o022) === 0;
}

/**
 * `<cacheFolder>/v8-code`, made owner-only, or null, where the code cache stays off:
 * NODE_DISABLE_COMPILE_CACHE set (Node's own switch for cached compiled code), a folder that
 * cannot be made, or one another account can change (the cache folder, the folder holding it,
 * or the cache's own).
 */
export function codeCacheFolder(env: NodeJS.ProcessEnv): string | null {
  return startCacheFolder(env, 'v8-code');
}

/**
 * `<cacheFolder>/yaml-answers`, where answers about the config, manifests and waivers are kept
 * (yaml-answers.ts): off, or owner-only, as the code cache is (one switch turns off both).
 */
export function yamlAnswersFolder(env: NodeJS.ProcessEnv): string | null {
  return startCacheFolder(env, 'yaml-answers');
}

function startCacheFolder(env: NodeJS.ProcessEnv, name: string): string | null {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  const root = cacheFolder(env);
  const directory = path.join(root, name);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    if (uid !== undefined && ![path.dirname(root), root, directory].every((folder) => ownedAndClosed(folder, uid))) return null;
  } catch {
    // No cache folder (a read-only home): a start compiles as it would without the cache.
    return null;
  }
  return directory;
}

/**
 * Writes a file of the cache whole, owner-only, then renames it into place: a start never reads
 * half a file another one is writing, and a failure (a disk that filled, a folder in the way)
 * leaves no half-written file behind before it throws. Not synced: a cache lost to a crash costs
 * time only.
 */
export function keepFile(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, file);
  } catch (error) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: without `force`, a file never made throws, caught the same
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Age after which a `.partial` file is one a killed start left, not one being written. */
const PARTIAL_MS = 3_600_000;

/** A file keepFile was writing (`<name>.<pid>.partial`). */
const PARTIAL_FILE = /\.\d+\.partial$/;

/**
 * Removes from `folder` what keepFile left where its start was killed between the write and the
 * rename (an hour old: one being written now is minutes younger). `entries`: the folder's
 * listing, where the caller has just read it. Returns how many. Never throws: a file another
 * start removed first, or a folder that went away, is nothing to remove.
 */
export function removeLeftPartials(folder: string, now = Date.now(), entries?: readonly string[]): number {
  let removed = 0;
  try {
    for (const entry of entries ?? readdirSync(folder)) {
      if (!PARTIAL_FILE.test(entry)) continue;
      const file = path.join(folder, entry);
      // Stryker disable next-line EqualityOperator: an hour to the millisecond
      if (now - statSync(file).mtimeMs > PARTIAL_MS) {
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
        rmSync(file, { force: true });
        removed++;
      }
    }
  } catch {
    // removed by another start, or the folder with it: time only
  }
  return removed;
}

/**
 * In a folder of builds' kept things (one folder per build, named by its entry chunk's key):
 * removes the builds' folders past the KEPT_BUILDS most recently saved and any unsaved for
 * STALE_DAYS, never `current`; and the files an earlier version kept there, before each build
 * had a folder of its own. Throws what the file system throws (the callers only log it): at
 * worst, one cold start.
 */
export function pruneBuilds(folder: string, current: string, now = Date.now()): void {
  const builds: { at: string; savedMs: number }[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const at = path.join(folder, entry.name);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
    if (!entry.isDirectory()) rmSync(at, { force: true });
    else if (at !== current) builds.push({ at, savedMs: statSync(at).mtimeMs });
  }
  builds.sort((a, b) => b.savedMs - a.savedMs);
  for (const [i, { at, savedMs }] of builds.entries()) {
    // Stryker disable next-line EqualityOperator,ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
    if (i >= KEPT_BUILDS - 1 || unsavedTooLong(savedMs, now)) rmSync(at, { recursive: true, force: true });
  }
}
