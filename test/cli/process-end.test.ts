// How the binary's process ends (src/cli/process-end.ts): its output written synchronously, a
// pipe's too, and the process ended the moment the run is over, with nothing it wrote lost.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { endProcess, type OutputStream, writeOutputsSynchronously } from '../../src/cli/process-end.js';
import { CLI, demoSnapshot, tempDir } from './helpers.js';

/** A stream as endProcess sees it: `queued` characters waiting, written out `after` ms after a write. */
function fakeOutputStream(queued: number, after: number, log: string[], name: string): OutputStream {
  const stream = {
    writableLength: queued,
    write: (text: string, done: () => void) => {
      log.push(`${name} write ${JSON.stringify(text)}`);
      setTimeout(() => {
        stream.writableLength = 0;
        log.push(`${name} flushed`);
        done();
      }, after);
      return false;
    },
  };
  return stream as unknown as OutputStream;
}

describe('the end of the process', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The demo instance recorded once, for the binary's runs below. */
  let snapshot: string;
  beforeAll(() => {
    snapshot = demoSnapshot();
  });

  it('makes each stream with a handle that can block write synchronously, and leaves the others', () => {
    const setBlocking = vi.fn();
    const pipe = { writableLength: 0, _handle: { setBlocking } } as unknown as OutputStream;
    const file = { writableLength: 0 } as unknown as OutputStream;
    const older = { writableLength: 0, _handle: {} } as unknown as OutputStream;
    writeOutputsSynchronously([pipe, file, older]);
    expect(setBlocking.mock.calls).toEqual([[true]]);
  });

  it('exits once every stream with output still queued has written it, and at once when none has', async () => {
    const log: string[] = [];
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      log.push('exit');
      return undefined as never;
    });
    await endProcess([fakeOutputStream(5, 30, log, 'stdout'), fakeOutputStream(0, 0, log, 'stderr'), fakeOutputStream(2, 10, log, 'other')]);
    expect(log).toEqual(['stdout write ""', 'other write ""', 'other flushed', 'stdout flushed', 'exit']);
    log.length = 0;
    await endProcess([fakeOutputStream(0, 0, log, 'stdout'), fakeOutputStream(0, 0, log, 'stderr')]);
    expect(log).toEqual(['exit']);
    expect(exit).toHaveBeenCalledTimes(2);
  });

  it('the binary ends when a run that went through does: a handle left open (a 60 s timer) does not hold it, and its exit code stands', () => {
    const dir = tempDir('steward-process-end-');
    const timer = path.join(dir, 'timer.cjs');
    writeFileSync(timer, 'setTimeout(() => {}, 60_000);\n');
    const started = Date.now();
    const valid = spawnSync(process.execPath, ['-r', timer, CLI, 'validate', '-c', 'demo/steward.yaml'], { encoding: 'utf8', timeout: 30_000 });
    expect([valid.status, valid.signal, valid.stdout]).toEqual([0, null, expect.stringMatching(/^valid: \d+ policies, /)]);
    const failing = spawnSync(process.execPath, ['-r', timer, CLI, 'check', '-c', 'demo/steward.yaml', '--from', snapshot, '--format', 'json'], { encoding: 'utf8', timeout: 30_000 });
    expect([failing.status, failing.signal, JSON.parse(failing.stdout).summary.gate]).toEqual([1, null, 'fail']);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a report larger than a pipe holds, read by a reader that waits first, arrives whole: the same bytes as its file', () => {
    const dir = tempDir('steward-process-end-');
    const file = path.join(dir, 'report.json');
    // A reader that waits a second before it reads (a shell pipe: a Node parent would read it all at once).
    const command = `"$0" "$1" check -c demo/steward.yaml --from "$2" --format json -o "json=$3" -q | { sleep 1; cat; }; exit "\${PIPESTATUS[0]}"`;
    const piped = spawnSync('bash', ['-c', command, process.execPath, CLI, snapshot, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const [code, stdout] = [piped.status, piped.stdout];
    expect(code).toBe(1);
    expect(stdout.length).toBeGreaterThan(65_536);
    expect(stdout).toBe(readFileSync(file, 'utf8'));
    // A reader that stops after ten bytes, or reads nothing: still the run's verdict (1, its
    // violations), never a pass, and nothing on stderr.
    for (const reader of ['head -c 10 >/dev/null', 'true']) {
      const stopped = spawnSync('bash', ['-c', `"$0" "$1" check -c demo/steward.yaml --from "$2" --format json 2>"$3" | ${reader}; exit "\${PIPESTATUS[0]}"`, process.execPath, CLI, snapshot, path.join(dir, 'stderr.txt')], { encoding: 'utf8' });
      expect([reader, stopped.status, readFileSync(path.join(dir, 'stderr.txt'), 'utf8')]).toEqual([reader, 1, '']);
    }
  });
});
