// Node's compile cache (22.1+): V8's compiled code of the CLI's chunks kept on disk, so a start
// compiles none of their 2.6 MB again (~28 ms of each command on Node 24). It lives in
// steward's own cache folder, owner-only, never in the shared temporary folder Node picks by
// default: there another account could leave compiled code for steward's files, and steward
// runs with the instance's token. Only Node's built-ins here: the entry chunk loads this file.
import { mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `module.enableCompileCache` (absent before Node 22.1). */
export type EnableCompileCache = (directory: string) => unknown;

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
  return s.isDirectory() && s.uid === uid && (s.mode & 0o022) === 0;
}

/**
 * Turns the cache on in `<cacheFolder>/node-compile-cache` and returns that folder, or leaves it
 * off and returns null: a Node without it (20), NODE_COMPILE_CACHE set (Node already uses that
 * folder) or NODE_DISABLE_COMPILE_CACHE, a folder that cannot be made, or one another account
 * can change (the cache folder, the folder holding it, or the cache's own).
 */
export function enableCompileCache(enable: EnableCompileCache | undefined, env: NodeJS.ProcessEnv): string | null {
  if (!enable || env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return null;
  const root = cacheFolder(env);
  const directory = path.join(root, 'node-compile-cache');
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    if (uid !== undefined && ![path.dirname(root), root, directory].every((folder) => ownedAndClosed(folder, uid))) return null;
  } catch {
    // No cache folder (a read-only home): a start compiles as it would without the cache.
    return null;
  }
  enable(directory);
  return directory;
}
