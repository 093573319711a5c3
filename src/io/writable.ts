// Whether a file steward is about to write can be written, asked before any request: a report
// file, the baseline to write or the run history named as a folder (or on a read-only mount) is
// bad input (exit 2 with nothing sent), not a failure after the run's work is done.
import { accessSync, constants, existsSync, mkdirSync, realpathSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { InputProblem } from '../core/problem.js';
import { writtenInPlace } from './write-whole.js';

/**
 * The problem of a file that cannot be written, at `at` (the flag or input that names it) and
 * shown as there given; null when it can be written (its missing folders are made).
 */
export function unwritableProblem(at: string, file: string, shown: string = file): InputProblem | null {
  const why = unwritable(file);
  return why === null ? null : { file: at, line: 0, column: 0, message: `${shown}: ${why}` };
}

/**
 * Why `file` cannot be written (created with its folders, or replaced), or null. Missing folders
 * are created now, one level at a time, and a file is created and removed in the last one: asking
 * the file system is the only answer that holds for root and special file systems (/proc answers
 * a root's access check yes, then refuses, and Node's recursive mkdir never returns there). A
 * file that is there is replaced by one made beside it (io/write-whole.ts): its folder is asked too
 * (not for a device or a pipe, which is written into).
 */
export function unwritable(file: string): string | null {
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) return 'is a directory';
    // Stryker disable next-line StringLiteral: a root run (this machine's, CI's) may write any file: access(W_OK) never refuses it
    if (!canWrite(file)) return 'is not writable';
    return writtenInPlace(file) ? null : probeFolder(path.dirname(realpathSync(file)));
  }
  const missing: string[] = [];
  let dir = path.dirname(file);
  for (; !existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (e) {
      return `cannot create the folder ${folder} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
  return probeFolder(path.dirname(file));
}

/** Why no file can be created in `dir`, or null: one is created there and removed. */
function probeFolder(dir: string): string | null {
  const probe = path.join(dir, `.steward-probe-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    unlinkSync(probe);
  } catch (e) {
    return `cannot create files in ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  return null;
}

function canWrite(p: string): boolean {
  try {
    accessSync(p, constants.W_OK);
    return true;
  } catch {
    // Stryker disable next-line BooleanLiteral: as above, never reached as root
    return false;
  }
}
