// The binary's standard output and error (src/cli/std-output.ts): a file or a pipe written in
// place, a terminal or another character device through Node's stream, a full non-blocking pipe
// handing the rest to the stream, a reader that has gone sent nothing more.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OutputCalls, type StandardStream, standardOutput, standardOutputs } from '../../src/cli/std-output.js';
import { CLI, demoSnapshot, tempDir } from './helpers.js';

/** A terminal ('char'), the null device, a directory: what fstat says of the descriptor. */
type Kind = 'file' | 'fifo' | 'socket' | 'char' | 'null' | 'dir' | 'closed';

/** The null device's numbers in these fakes (a terminal's are others). */
const NULL_RDEV = 259;

const status = (kind: Kind, rdev: number) => ({
  isFile: () => kind === 'file',
  isFIFO: () => kind === 'fifo',
  isSocket: () => kind === 'socket',
  isCharacterDevice: () => kind === 'char' || kind === 'null',
  rdev,
});

/**
 * node:fs as an output sees it: a descriptor of `kind`, whose writes take at most `step` bytes
 * or throw the codes in `failures`, in turn; `nullDevice`: what /dev/null is ('missing': none).
 */
function fakeCalls(kind: Kind, log: string[], failures: (string | null)[] = [], step = Number.POSITIVE_INFINITY, nullDevice: 'null' | 'file' | 'missing' = 'null'): OutputCalls {
  return {
    fstatSync: () => {
      if (kind === 'closed') throw Object.assign(new Error('EBADF: bad file descriptor, fstat'), { code: 'EBADF' });
      return status(kind, kind === 'null' ? NULL_RDEV : kind === 'char' ? 34_816 : 0);
    },
    statSync: (file) => {
      log.push(`stat ${file}`);
      if (nullDevice === 'missing') throw Object.assign(new Error(`ENOENT: no such file or directory, stat '${file}'`), { code: 'ENOENT' });
      return status(nullDevice, NULL_RDEV);
    },
    writeSync: (fd, buffer, offset, length) => {
      // As node:fs: a range past the buffer is refused.
      if (offset + length > buffer.length) throw new RangeError(`offset ${offset} + length ${length} is past ${buffer.length} bytes`);
      const failure = failures.shift();
      if (failure) throw Object.assign(new Error(`${failure}: write`), { code: failure });
      const n = Math.min(length, step);
      log.push(`fd ${fd} ${JSON.stringify(Buffer.from(buffer.subarray(offset, offset + n)).toString('utf8'))}`);
      return n;
    },
  };
}

/** A stream as process.stdout is, logging what it is given and asked. */
function fakeStream(log: string[], tty = false): StandardStream & { emit(error: NodeJS.ErrnoException): void } {
  const listeners: ((error: NodeJS.ErrnoException) => void)[] = [];
  return {
    writableLength: 0,
    isTTY: tty,
    columns: tty ? 120 : undefined,
    _handle: { setBlocking: (blocking: boolean) => log.push(`setBlocking ${blocking}`) },
    write: (chunk: string | Uint8Array) => {
      log.push(`stream ${JSON.stringify(Buffer.from(chunk).toString('utf8'))}`);
      return true;
    },
    on: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => {
      listeners.push(listener);
      log.push(`on ${event}`);
    },
    emit: (error: NodeJS.ErrnoException) => {
      for (const l of listeners) l(error);
    },
  } as unknown as StandardStream & { emit(error: NodeJS.ErrnoException): void };
}

describe('standard output', () => {
  /** The demo instance recorded once, for the binary's runs below. */
  let snapshot: string;
  beforeAll(() => {
    snapshot = demoSnapshot();
  });

  it('a file, a pipe, a socket or the null device is written in place, each text whole before write returns (a short write continues), and no stream is made', () => {
    for (const kind of ['file', 'fifo', 'socket', 'null'] as const) {
      const log: string[] = [];
      const made: unknown[] = [];
      const out = standardOutput(1, () => fakeStream(log), (s) => made.push(s), fakeCalls(kind, log, [], 4));
      expect(out.write('héllo, world')).toBe(true);
      expect([out.isTTY, out.columns]).toEqual([false, undefined]);
      // 13 bytes (é is two), four at a time.
      expect(log).toEqual([...(kind === 'null' ? ['stat /dev/null'] : []), 'fd 1 "hél"', 'fd 1 "lo, "', 'fd 1 "worl"', 'fd 1 "d"']);
      expect(made).toEqual([]);
    }
  });

  it("a terminal, another device, a descriptor fstat cannot read goes through Node's stream, made once, blocking, with its width", () => {
    const cases: [Kind, 'null' | 'file' | 'missing', string[]][] = [
      ['char', 'null', ['stat /dev/null']],
      // A character device, where /dev/null is missing or is no device (a chroot's plain file of that name).
      ['null', 'missing', ['stat /dev/null']],
      ['null', 'file', ['stat /dev/null']],
      ['dir', 'null', []],
      ['closed', 'null', []],
    ];
    for (const [kind, nullDevice, asked] of cases) {
      const log: string[] = [];
      const made: unknown[] = [];
      const stream = fakeStream(log, true);
      const out = standardOutput(2, () => stream, (s) => made.push(s), fakeCalls(kind, log, [], Number.POSITIVE_INFINITY, nullDevice));
      expect([out.isTTY, out.columns]).toEqual([true, 120]);
      out.write('a');
      out.write('b');
      expect([kind, nullDevice, log]).toEqual([kind, nullDevice, [...asked, 'setBlocking true', 'on error', 'stream "a"', 'stream "b"']]);
      expect(made).toEqual([stream]);
    }
  });

  it('a pipe left non-blocking that fills (EAGAIN) hands the rest, and every later text, to the stream, in order', () => {
    const log: string[] = [];
    const made: unknown[] = [];
    const out = standardOutput(1, () => fakeStream(log), (s) => made.push(s), fakeCalls('fifo', log, [null, 'EAGAIN'], 3));
    out.write('abcdefgh');
    out.write('ij');
    expect(log).toEqual(['fd 1 "abc"', 'setBlocking true', 'on error', 'stream "defgh"', 'stream "ij"']);
    expect(made).toHaveLength(1);
  });

  it('a reader that has gone (EPIPE) is sent nothing more, in place or through the stream; any other failure is thrown', () => {
    const log: string[] = [];
    const out = standardOutput(1, () => fakeStream(log), () => {}, fakeCalls('fifo', log, [null, 'EPIPE'], 2));
    expect(out.write('abcd')).toBe(true);
    expect(out.write('more')).toBe(true);
    expect(log).toEqual(['fd 1 "ab"']);

    const streamLog: string[] = [];
    const stream = fakeStream(streamLog);
    const viaStream = standardOutput(1, () => stream, () => {}, fakeCalls('char', streamLog));
    viaStream.write('x');
    stream.emit(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
    viaStream.write('y');
    expect(streamLog).toEqual(['stat /dev/null', 'setBlocking true', 'on error', 'stream "x"']);
    expect(() => stream.emit(Object.assign(new Error('EIO'), { code: 'EIO' }))).toThrow('EIO');

    const failing = standardOutput(1, () => fakeStream([]), () => {}, fakeCalls('file', [], ['ENOSPC']));
    expect(() => failing.write('x')).toThrow('ENOSPC: write');
  });

  it("the process's outputs are descriptors 1 and 2, and list the streams made so far", () => {
    const log: string[] = [];
    const outputs = standardOutputs(fakeCalls('file', log));
    outputs.stdout.write('o');
    outputs.stderr.write('e');
    expect(log).toEqual(['fd 1 "o"', 'fd 2 "e"']);
    expect(outputs.streams()).toEqual([]);
    // Over terminals: each stream listed once it is made, stderr's first here.
    const streamLog: string[] = [];
    const [stdout, stderr] = [fakeStream(streamLog, true), fakeStream(streamLog, true)];
    const terminals = standardOutputs(fakeCalls('char', []), { stdout: () => stdout, stderr: () => stderr });
    expect(terminals.streams()).toEqual([]);
    terminals.stderr.write('e');
    expect(terminals.streams()).toEqual([stderr]);
    terminals.stdout.write('o');
    expect(terminals.streams()).toEqual([stderr, stdout]);
  });

  it('the binary writes a report to a file, to a pipe and to /dev/null the same, with its exit code; an error goes to stderr through either', () => {
    const dir = tempDir('steward-std-output-');
    const report = path.join(dir, 'report.json');
    const args = ['check', '-c', 'demo/steward.yaml', '--from', snapshot, '--format', 'json', '-q'];
    const toFile = spawnSync('bash', ['-c', `"$0" "$@" > "${report}"`, process.execPath, CLI, ...args], { encoding: 'utf8' });
    const toPipe = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    const toNull = spawnSync('bash', ['-c', `"$0" "$@" > /dev/null`, process.execPath, CLI, ...args], { encoding: 'utf8' });
    const strip = (text: string) => text.replace(/"(startedAt|durationMs)":[^,]*,/g, '');
    expect([toFile.status, toPipe.status, toNull.status]).toEqual([1, 1, 1]);
    expect(strip(readFileSync(report, 'utf8'))).toBe(strip(toPipe.stdout));
    expect(JSON.parse(toPipe.stdout).summary.gate).toBe('fail');
    const bad = spawnSync('bash', ['-c', `"$0" "$1" check -c no-such.yaml 2> "${path.join(dir, 'err.txt')}"`, process.execPath, CLI], { encoding: 'utf8' });
    const badPipe = spawnSync(process.execPath, [CLI, 'check', '-c', 'no-such.yaml'], { encoding: 'utf8' });
    expect([bad.status, badPipe.status]).toEqual([2, 2]);
    expect(readFileSync(path.join(dir, 'err.txt'), 'utf8')).toBe(badPipe.stderr);
    expect(badPipe.stderr).toContain('no-such.yaml');
  });
});
