// Exclusive locks on files steward rewrites (the fix journal, manifests being rewritten), so two
// runs never interleave: the second is refused (exit 2) naming the holder. A lock is a hidden
// `.<name>.lock` beside the file (so manifest globs never match it), created with O_EXCL and
// saying who holds it; one left by a process that is gone
// (same host, pid not alive) is taken over. Lock-directory libraries do not record a holder,
// and naming it is the point of the refusal.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { InputError, type InputProblem } from '../core/problem.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** What the holder is doing, e.g. `fix --apply`. */
  purpose: string;
  since: string;
}

export interface HeldLocks {
  /** Removes every lock file this process created (idempotent). */
  release(): void;
}

export const lockPath = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.lock`);

function readHolder(file: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(lockPath(file), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/** Whether a process of this id runs here (a lock's holder, a killed writer of write-whole.ts's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the lock file; false when another live holder has it. */
function tryCreate(file: string, holder: LockHolder): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath(file), 'wx');
      try {
        writeSync(fd, `${JSON.stringify(holder)}\n`);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const current = readHolder(file);
      const gone = current !== null && current.host === holder.host && !isAlive(current.pid);
      if (!gone) return false;
      unlinkSync(lockPath(file));
    }
  }
  return false;
}

/**
 * Locks every file (all or none). `shown` maps a file to its display path. Throws InputError
 * naming each holder when any file is locked by another live process.
 */
export function lockFiles(files: readonly string[], purpose: string, shown: (file: string) => string): HeldLocks {
  const holder: LockHolder = { pid: process.pid, host: hostname(), purpose, since: new Date().toISOString() };
  const held: string[] = [];
  const release = () => {
    for (const file of held.splice(0)) {
      try {
        unlinkSync(lockPath(file));
      } catch {
        // Already gone: nothing to release.
      }
    }
  };
  const problems: InputProblem[] = [];
  for (const file of [...new Set(files)]) {
    if (tryCreate(file, holder)) held.push(file);
    else problems.push({ file: shown(file), line: 0, column: 0, message: refusal(readHolder(file), shown(lockPath(file))) });
  }
  if (problems.length > 0) {
    release();
    throw new InputError(problems);
  }
  return { release };
}

function refusal(holder: LockHolder | null, lockShown: string): string {
  const who = holder ? `steward ${holder.purpose} (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : 'another steward run';
  return `in use by ${who}; nothing was sent or written. Wait for it to finish, or remove ${lockShown} if it is gone`;
}
