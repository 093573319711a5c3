// The binary's standard output and error. A file, a pipe, a socket or the null device is written
// in place, each text whole with `fs.writeSync` before the call returns: Node's `process.stdout`
// over it is a stream (a pipe's a socket, made blocking through a private handle call), whose
// making and writes cost ~3 ms of a Node 24 `check --from` (BENCHMARKS.md, 2026-12-03 23:10
// UTC); Node itself writes the null device in place. A terminal, or another character device,
// is written through Node's stream: it knows a terminal's width, and on Windows the console's
// encoding (only `node:tty` tells a terminal from another device, and it loads the streams). A
// pipe another process left non-blocking, once full (EAGAIN), hands the rest to the stream, made
// blocking. A reader that has gone (EPIPE, `steward check | head`) is sent nothing more, and the
// run ends with its own exit code, never a pass for a failing run. Made by the entry
// (cli/index.ts), which hands them to the program and ends the process once the streams made
// here have written what they hold (process-end.ts).
import { fs } from './builtins.js';
import { type OutputStream, writeOutputsSynchronously } from './process-end.js';

/** What the program writes to (CliIo's stdout and stderr). */
export interface StandardOutput {
  write(text: string): boolean;
  readonly isTTY: boolean;
  readonly columns: number | undefined;
}

/** A stream as Node's `process.stdout` and `process.stderr` are. */
export type StandardStream = OutputStream & { isTTY?: boolean; columns?: number; on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown };

export interface StandardOutputs {
  stdout: StandardOutput;
  stderr: StandardOutput;
  /** The streams made so far (a terminal's, a full non-blocking pipe's): what the end of the process waits for. */
  streams(): OutputStream[];
}

/** What an output asks of a file's status. */
interface OutputStat {
  isFile(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  rdev: number;
}

/** The node:fs calls an output makes (the tests give their own). */
export interface OutputCalls {
  fstatSync(fd: number): OutputStat;
  statSync(file: string): OutputStat;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
}

/** The null device, where there is one (Windows' NUL goes through Node's stream). */
const NULL_DEVICE = '/dev/null';

/** Written in place: a regular file, a pipe, a socket, the null device. Anything else goes through Node's stream. */
function writtenInPlace(fd: number, calls: OutputCalls): boolean {
  try {
    const stat = calls.fstatSync(fd);
    if (stat.isFile() || stat.isFIFO() || stat.isSocket()) return true;
    if (!stat.isCharacterDevice()) return false;
    const nullDevice = calls.statSync(NULL_DEVICE);
    return nullDevice.isCharacterDevice() && nullDevice.rdev === stat.rdev;
  } catch {
    // A descriptor that is closed or cannot be asked about, a system without /dev/null: Node's stream says what it is.
    return false;
  }
}

/** The output on descriptor `fd` (1 or 2), its stream made by `stream` when first needed. */
export function standardOutput(fd: number, stream: () => StandardStream, made: (s: StandardStream) => void, calls: OutputCalls = fs): StandardOutput {
  let inPlace: boolean | undefined;
  let through: StandardStream | undefined;
  let gone = false;
  const isInPlace = () => (inPlace ??= writtenInPlace(fd, calls));
  const theStream = (): StandardStream => {
    if (!through) {
      through = stream();
      writeOutputsSynchronously([through]);
      through.on('error', (error) => {
        if (error.code !== 'EPIPE') throw error;
        gone = true;
      });
      made(through);
    }
    return through;
  };
  return {
    write(text) {
      if (gone) return true;
      if (through || !isInPlace()) return theStream().write(text);
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) {
        try {
          done += calls.writeSync(fd, bytes, done, bytes.length - done);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') {
            gone = true;
            return true;
          }
          if (code !== 'EAGAIN') throw error;
          return theStream().write(bytes.subarray(done));
        }
      }
      return true;
    },
    get isTTY() {
      return isInPlace() ? false : Boolean(theStream().isTTY);
    },
    get columns() {
      return isInPlace() ? undefined : theStream().columns;
    },
  };
}

/** The process's stdout (1) and stderr (2), over Node's `process.stdout` and `process.stderr` where a stream is needed. */
export function standardOutputs(
  calls: OutputCalls = fs,
  streams: { stdout: () => StandardStream; stderr: () => StandardStream } = { stdout: () => process.stdout, stderr: () => process.stderr },
): StandardOutputs {
  const made: OutputStream[] = [];
  const keep = (s: StandardStream) => made.push(s);
  return {
    stdout: standardOutput(1, streams.stdout, keep, calls),
    stderr: standardOutput(2, streams.stderr, keep, calls),
    streams: () => [...made],
  };
}
