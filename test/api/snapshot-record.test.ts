// Recording a run's answers (src/api/snapshot-record.ts): what a recording keeps of a read and of
// its error, that writes pass through unrecorded, the answers' order, and the page spool: each
// page kept in a private temporary file and read back, nothing left behind, pages kept in memory
// where no temporary file can be made, and a recording whose spool lost a page refused.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageLine, type PageSpool, recordingApi, spooledRecorder, withPageSpool } from '../../src/api/snapshot.js';
import { SecretSet } from '../../src/core/redact.js';
import { type Demo, NOW, startDemo } from '../engine/harness.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

/** `fn` with the system's temporary folder at `dir` (os.tmpdir() reads TMPDIR on each call). */
async function withTmpdir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

describe('recordingApi', () => {
  it("keeps each read's answer, sorted by operation and arguments whatever the order read; a write passes through unrecorded", async () => {
    const s = demo.sandbox;
    const recorder = recordingApi(demo.api(), { now: () => NOW });
    const [queue, permissions] = [...s.state.queuePermissions][0]!;
    await recorder.getQueuePermissions(queue);
    await recorder.getCalculatedFieldStatistics();
    await recorder.getDataset('no-such-dataset').catch(() => undefined);
    s.resetCounts();
    await recorder.updateQueuePermissions(queue, permissions);
    expect(s.counts.updateQueuePermissions).toBe(1);
    const snap = recorder.snapshot();
    expect([snap.version, snap.instance, snap.recordedAt]).toEqual([2, '', NOW.toISOString()]);
    expect(snap.answers.map((a) => a.operation)).toEqual(['getCalculatedFieldStatistics', 'getDataset', 'getQueuePermissions']);
  });

  it("an API error is kept with its kind, method, path, status and the API's own message", async () => {
    const recorder = recordingApi(demo.api());
    const err = await recorder.getDataset('no-such-dataset').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const [answer] = recorder.snapshot().answers;
    expect(answer).toMatchObject({ operation: 'getDataset', args: ['no-such-dataset'] });
    expect(answer!.error).toEqual({
      message: (err as Error).message,
      kind: 'http',
      method: 'GET',
      path: '/api/data/v3/datasources/no-such-dataset',
      status: 404,
      apiMessage: (err as { apiMessage?: string }).apiMessage,
    });
    expect((err as { apiMessage?: string }).apiMessage).toEqual(expect.any(String));
    // Another error (not the client's) keeps its message alone.
    const plain = recordingApi({ ...demo.api(), getDataset: async () => Promise.reject(new Error('socket hang up')) });
    await plain.getDataset('x').catch(() => undefined);
    expect(plain.snapshot().answers[0]!.error).toStrictEqual({ message: 'socket hang up' });
  });
});

describe('the page spool', () => {
  it('keeps each line in a private file, gives it back byte for byte, refuses a read once the recording ended, and leaves nothing behind', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'steward-spool-test-'));
    try {
      let kept: PageLine[] = [];
      const inside = await withTmpdir(tmp, () =>
        withPageSpool(async (spool) => {
          kept = ['{"page":["é","日本"]}', '{"page":[]}', `{"page":["${'x'.repeat(70_000)}"]}`].map((line) => spool.add(line));
          return { lines: kept.map((p) => p.line()), failure: spool.failure(), files: readdirSync(tmp) };
        }),
      );
      expect(inside.lines).toEqual(['{"page":["é","日本"]}', '{"page":[]}', `{"page":["${'x'.repeat(70_000)}"]}`]);
      expect(inside.failure).toBeNull();
      // The folder went as soon as the file was open (POSIX): nothing to leave behind.
      expect(inside.files).toEqual(process.platform === 'win32' ? [expect.stringMatching(/^steward-snapshot-/)] : []);
      expect(() => kept[0]!.line()).toThrow('internal: a spooled page read after its recording ended');
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('where no temporary file can be made, keeps the pages in memory and says why', async () => {
    const missing = path.join(tmpdir(), 'steward-no-such-folder', 'deeper');
    const heard: string[] = [];
    const line = await withTmpdir(missing, () => withPageSpool(async (spool) => spool.add('{"page":[1]}').line(), (why) => heard.push(why)));
    expect(line).toBe('{"page":[1]}');
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatch(/^pages kept in memory while recording: no temporary file \(ENOENT: no such file or directory, mkdtemp '.*steward-snapshot-XXXXXX'\)$/);
    expect(existsSync(missing)).toBe(false);
  });

  it("a recording whose spool lost a page is refused, never written; one that made no client has no snapshot", async () => {
    const lost = new Error('the recording is incomplete, so nothing was written: a page could not be kept in its temporary file (EFBIG: file too large)');
    let failure: Error | null = null;
    const spool: PageSpool = { add: (line) => new PageLine(line), failure: () => failure };
    const recorder = spooledRecorder(spool);
    expect(recorder.snapshot()).toBeNull();
    const api = recorder.wrapApi(demo.api(), 'https://acme.example', new SecretSet());
    await api.getCalculatedFieldStatistics();
    expect(recorder.snapshot()?.answers).toHaveLength(1);
    failure = lost;
    expect(() => recorder.snapshot()).toThrow(lost);
  });
});
