// Manifest globs of steward.yaml (`permissions/queues/*.yaml`), expanded with tinyglobby
// (Node 20 has no fs.globSync). A pattern without glob characters is a literal path, and a
// literal directory stands for the *.yaml / *.yml files in it.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the pattern contains glob syntax. */
export function hasMagic(pattern: string): boolean {
  return isDynamicPattern(pattern);
}

/** Absolute, sorted, de-duplicated files matching `pattern` (relative to `baseDir`). */
export function expandGlob(pattern: string, baseDir: string): string[] {
  const absolute = path.resolve(baseDir, pattern);
  if (!hasMagic(pattern)) {
    if (isDir(absolute)) return expandGlob('*.{yaml,yml}', absolute);
    return existsSync(absolute) ? [absolute] : [];
  }
  const files = globSync(pattern, { cwd: baseDir, absolute: true, onlyFiles: true, expandDirectories: false });
  return [...new Set(files.map((f) => path.normalize(f)))].sort();
}
