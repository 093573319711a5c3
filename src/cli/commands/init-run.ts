// What `steward init` does (its flags are init.ts): write the starter files, never over anything.
// Loaded when the command runs.
import { closeSync, lstatSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { initFiles } from '../init-templates.js';
import { displayPath } from '../../library/without-policies.js';

export async function runInit(ctx: CliContext, dir: string): Promise<void> {
  const root = path.resolve(ctx.io.cwd, dir);
  const files = initFiles();
  const targets = Object.keys(files).map((rel) => path.join(root, rel));
  const inTheWay = [...new Map(targets.flatMap((t) => obstaclesOn(root, t)).map((o) => [o.path, o])).values()];
  const existing = inTheWay.map((o) => o.path);
  if (existing.length > 0) {
    // Not an input problem of a run: say which files are in the way and how to proceed.
    warn(ctx.io, ...inTheWay.map((o) => `${displayPath(o.path, ctx.io.cwd)}: ${o.why}`));
    warn(
      ctx.io,
      `steward init: nothing was written (init never overwrites): remove ${existing.length === 1 ? 'that file' : 'those files'} or run \`steward init <another directory>\``,
    );
    ctx.exitCode = 2;
    return;
  }
  // All of them or none: a file that cannot be written (a full disk) takes back those this
  // run made, its own part-written one included, so a second init finds nothing in the way.
  const made: string[] = [];
  try {
    for (const [rel, text] of Object.entries(files)) {
      const target = path.join(root, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      // 'wx': create only; fails on anything there, a symlink included, rather than follow it.
      const fd = openSync(target, 'wx');
      made.push(target);
      try {
        writeFileSync(fd, text);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    for (const file of made) rmSync(file, { force: true });
    throw new Error(`init could not write ${displayPath(made.at(-1) ?? root, ctx.io.cwd)} (${(error as Error).message}): nothing was written`, { cause: error });
  }
  for (const file of made) print(ctx.io, `wrote ${displayPath(file, ctx.io.cwd)}\n`);
  print(ctx.io, '\nNext: set STEWARD_TOKEN, edit steward.yaml, then run `steward check`.\n');
  ctx.exitCode = 0;
}

/**
 * What stands in the way of writing `target` under `root`: the target itself if anything is
 * there (a dangling symlink too), and any folder on the way that is a symlink or not a folder.
 */
function obstaclesOn(root: string, target: string): { path: string; why: string }[] {
  const parts = path.relative(root, target).split(path.sep);
  for (let i = 1; i <= parts.length; i++) {
    const p = path.join(root, ...parts.slice(0, i));
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      return []; // nothing there yet: neither it nor anything below it can be in the way
    }
    if (st.isSymbolicLink()) return [{ path: p, why: 'is a symbolic link (init writes only regular files inside the target)' }];
    if (i === parts.length) return [{ path: p, why: 'already exists' }];
    if (!st.isDirectory()) return [{ path: p, why: 'is not a folder' }];
  }
  return [];
}
