// How a file is named in output: relative to the run's root when inside it, `/` separated.
import path from 'node:path';

/** A path as shown to the user: relative to the cwd when inside it, `/` separated. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, file);
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  return shown.split(path.sep).join('/');
}
