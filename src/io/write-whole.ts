// Every file steward writes for a reader (reports, snapshots, baselines, saved plans, manifests,
// waivers, the history) is written whole or not at all: the text goes to a temporary file beside
// the target (the same folder, so the rename is atomic on its file system), is synced, and is
// renamed over the target. A full disk, a file-size limit or an error part-way leaves the
// target as it was and removes the temporary file; only a killed process leaves one behind,
// named `.NAME.PID.N.tmp` beside the target, which the next write of that target removes once it
// is stale. A device or a pipe (`/dev/stdout`) is written into.
import { accessSync, closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from './file-lock.js';

/** A piece of the file: text (written as UTF-8) or bytes. */
export type FilePiece = string | Uint8Array;

export interface WriteWholeOptions {
  /** The permissions of a new file (before the umask); a file replaced keeps its own. Default 0o666. */
  mode?: number;
}

/**
 * Whether `file` is written in place, not replaced: a device, a pipe or a socket (`-o
 * json=/dev/stdout`, a FIFO a reader waits on), or a name of the system's for an open
 * descriptor (`/dev/stderr`, `/dev/fd/3`, `/proc/self/fd/1`) even where it leads to a regular
 * file: replacing one would put a file where the system keeps the name, or write where no reader
 * of the descriptor looks. Nothing of such a file can be kept as it was.
 */
export function writtenInPlace(file: string): boolean {
  const at = path.resolve(file);
  if (process.platform !== 'win32' && /^\/(dev|proc)\//.test(at)) return true;
  try {
    return !statSync(at).isFile();
  } catch {
    return false;
  }
}

/** The system's names for an open descriptor: what is written to one goes where the descriptor leads. */
const DESCRIPTOR_NAME = /^\/(dev\/(stdout|stderr|fd\/\d+)|proc\/(self|\d+)\/fd\/\d+)$/;

/** One file being written beside its target, then renamed over it (or, writtenInPlace, into it). */
class WholeFile {
  readonly #target: string;
  /** Null when the target is written in place. */
  readonly #temporary: string | null;
  readonly #fd: number;
  #open = true;

  constructor(file: string, options: WriteWholeOptions) {
    let target = path.resolve(file);
    if (writtenInPlace(target)) {
      this.#target = target;
      this.#temporary = null;
      // A descriptor's name is opened to append: truncating it would empty the file a shell
      // redirected it to (`>> log.txt` lost what the log held).
      this.#fd = this.#step(() => openSync(target, DESCRIPTOR_NAME.test(target) ? 'a' : 'w'));
      return;
    }
    let keptMode: number | undefined;
    try {
      // Through a symbolic link to the file it names: the link stays a link.
      target = realpathSync(target);
      keptMode = statSync(target).mode & 0o7777;
    } catch {
      // A new file (or a link to nothing: replaced by the file).
    }
    this.#target = target;
    // A file this user may not write is not replaced either (a rename asks only its folder).
    if (keptMode !== undefined) this.#step(() => accessSync(target, constants.W_OK));
    const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${++made}.tmp`);
    this.#temporary = temporary;
    this.#fd = this.#step(() => openSync(temporary, 'wx', options.mode ?? 0o666));
    try {
      if (keptMode !== undefined) this.#step(() => fchmodSync(this.#fd, keptMode));
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  write(piece: FilePiece): void {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    this.#step(() => writeAll(this.#fd, bytes));
  }

  /** Synced, then renamed over the target (a device or a pipe: closed). */
  finish(): void {
    const temporary = this.#temporary;
    this.#step(() => {
      try {
        if (temporary) fsyncSync(this.#fd);
      } finally {
        this.#close();
      }
      if (temporary) renameSync(temporary, this.#target);
    });
    if (temporary) removeStaleLeftovers(this.#target);
  }

  /** A step of the file system's, its failure said as the target's (the content's own errors pass as they are). */
  #step<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw new Error(`could not write ${this.#target} (${(error as Error).message})${this.#temporary ? ': nothing was written to it' : ''}`, { cause: error });
    }
  }

  /** Closed and removed: the target is as it was (a device or a pipe has what it was sent). */
  abandon(): void {
    this.#close();
    if (this.#temporary) rmSync(this.#temporary, { force: true });
  }

  #close(): void {
    if (!this.#open) return;
    this.#open = false;
    closeSync(this.#fd);
  }
}

let made = 0;

/** Every byte of `bytes` written to `fd`, from `position` on (else at its offset): one write may take only part. */
export function writeAll(fd: number, bytes: Uint8Array, position?: number): void {
  for (let put = 0; put < bytes.length; ) put += writeSync(fd, bytes, put, bytes.length - put, position === undefined ? null : position + put);
}

/**
 * Writes `file` whole or not at all, from one piece or a sequence of them (a large file is never
 * one string). Synchronously: a pipe's reader is another process (a shell's `--out /dev/stdout |`).
 */
export function writeWholeSync(file: string, content: FilePiece | Iterable<FilePiece>, options: WriteWholeOptions = {}): void {
  const pieces = typeof content === 'string' || content instanceof Uint8Array ? [content] : content;
  const whole = new WholeFile(file, options);
  try {
    for (const piece of pieces) whole.write(piece);
    whole.finish();
  } catch (error) {
    whole.abandon();
    throw error;
  }
}

/** Whether `name` (in the target's folder) is a temporary file a killed writer of `file` left. */
export const isLeftoverOf = (file: string, name: string): boolean => name.startsWith(`.${path.basename(file)}.`) && name.endsWith('.tmp');

/**
 * How long a killed writer's temporary file must have gone unwritten before a later write of its
 * target removes it (its process gone too). A live writer writes more often than this (a page, a
 * report's piece); a writer in another PID namespace sharing the folder, whose process this one
 * cannot see, keeps its file while it writes at least once an hour.
 */
export const LEFTOVER_STALE_MS = 3_600_000;

/** The process id in a temporary file's name (`.NAME.PID.N.tmp`; sql.js's own `.NAME.PID.tmp`), or null. */
function leftoverPid(file: string, name: string): number | null {
  if (!isLeftoverOf(file, name)) return null;
  const middle = /^(\d+)(?:\.\d+)?$/.exec(name.slice(path.basename(file).length + 2, -'.tmp'.length));
  return middle ? Number(middle[1]) : null;
}

/**
 * The temporary files killed writers of `target` left beside it, removed once each has gone
 * LEFTOVER_STALE_MS unwritten and no process of its id runs (a killed `snapshot` of a large
 * instance leaves hundreds of MB). One that cannot be read or removed is left as it is: the write
 * itself has succeeded.
 */
export function removeStaleLeftovers(target: string, now = Date.now()): void {
  const dir = path.dirname(target);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = leftoverPid(target, name);
    if (pid === null || pid === process.pid || isAlive(pid)) continue;
    const at = path.join(dir, name);
    try {
      const stat = lstatSync(at);
      if (stat.isFile() && now - stat.mtimeMs > LEFTOVER_STALE_MS) rmSync(at);
    } catch {
      // Removed meanwhile by another writer, or not this user's to remove.
    }
  }
}
