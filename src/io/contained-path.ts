// Files a config names (scope list files, waivers, policy paths, manifest globs) stay inside the
// project: the directory of the file naming them, or the repository around it. An absolute
// path, a `..` escape, a symlink out of it and anything but a regular file or folder (a device,
// a FIFO, /proc) are refused, so a config cannot read the process environment (token included)
// into request paths and reports.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository around `dir` (the nearest folder holding `.git`), or `dir` itself. */
export function projectRoot(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  // Stryker disable next-line ConditionalExpression,StringLiteral: an empty relative path neither starts with '..' nor is absolute
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Why `named` (as written, relative to `baseDir`) cannot be read, or null. A path that does not
 * exist yet is judged by where it would be; one that exists, by where it really is.
 */
export function uncontainedPath(named: string, baseDir: string, root: string, kind: 'file' | 'file or folder' = 'file'): string | null {
  if (path.isAbsolute(named)) return `${JSON.stringify(named)} is an absolute path: name a ${kind} inside the project (${root})`;
  const resolved = path.resolve(baseDir, named);
  if (!inside(root, resolved)) return `${JSON.stringify(named)} leads out of the project (${root})`;
  if (!existsSync(resolved)) return null;
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    // Stryker disable next-line StringLiteral: a path that exists yet cannot be resolved is a race no test can stage
    return `${JSON.stringify(named)} cannot be resolved`;
  }
  if (!inside(realpathSync(root), real)) return `${JSON.stringify(named)} is a link out of the project (${root})`;
  const st = statSync(real);
  if (!st.isFile() && !(kind === 'file or folder' && st.isDirectory())) return `${JSON.stringify(named)} is not a regular ${kind}`;
  return null;
}
