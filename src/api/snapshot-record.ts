// Records every read answer of a live client (DESIGN §12) while passing it through unchanged.
// With a spool, each page is written to a file as it arrives and kept as its place there: a
// recording then holds no page (a paged answer is written only when whole, so its pages wait).
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SecretSet } from '../core/redact.js';
import { writeAll } from '../io/write-whole.js';
import { isApiError } from './errors.js';
import { OPERATION_IDS, OPERATIONS, type OperationId } from './operations.js';
import type { InstanceApi } from './types.js';
import {
  answerKey,
  answerLineHead,
  PageLine,
  pageLine,
  type RecordedAnswer,
  type RecordedError,
  type RecordedPage,
  SNAPSHOT_VERSION,
  type SnapshotFile,
} from './snapshot-format.js';

export type RecordingApi = InstanceApi & { snapshot(): SnapshotFile };

/** Where a recording keeps its pages' lines until the snapshot is written. */
export interface PageSpool {
  /** Keeps `line` (a page line of the format) and gives it back as a PageLine that reads it again. */
  add(line: string): PageLine;
  /** Why a page could not be kept (a full disk), or null: a recording missing a page is never written. */
  failure(): Error | null;
}

/** `spool` keeping each line with `secrets` redacted: the temporary file holds what the snapshot will. */
const redactingSpool = (spool: PageSpool, secrets: SecretSet): PageSpool => ({ add: (line) => spool.add(secrets.redact(line)), failure: () => spool.failure() });

/**
 * The recorder of one run (`steward snapshot`, `steward evidence`): `wrapApi` for the run's
 * options (each page spooled, the run's secrets redacted), then the snapshot of what it
 * recorded, or null when the run made no client (it failed before). A page the spool could not
 * keep is the machine's failure, not the instance's: the snapshot is refused (an error), never
 * written with the read recorded as failed.
 */
export function spooledRecorder(spool: PageSpool): {
  wrapApi: (api: InstanceApi, instance: string, secrets: SecretSet) => InstanceApi;
  snapshot: () => SnapshotFile | null;
} {
  let recorder: RecordingApi | null = null;
  return {
    wrapApi: (api, instance, secrets) => (recorder = recordingApi(api, { instance, spool: redactingSpool(spool, secrets) })),
    snapshot: () => {
      const failure = spool.failure();
      if (failure) throw failure;
      return recorder?.snapshot() ?? null;
    },
  };
}

/** Pages kept in memory, each as its line's text: where no temporary file can be made. */
const inMemory: PageSpool = { add: (line) => new PageLine(line), failure: () => null };

/**
 * Runs `record` with a spool: a file only this user may read, in a folder of its own under the
 * system's temporary folder (1,000,000 schedules recorded whole in memory peaked at ~1 GB). The
 * folder is removed as soon as the file is open where the system allows it (POSIX: the open
 * file keeps its pages, and nothing is left behind however the process ends), else at the end.
 * A page read after `record` has settled is an error, never another file's bytes. Where the
 * file cannot be made (no temporary folder, or one this user cannot write to), the pages are
 * kept in memory as their lines and `onMemory` hears why: the recording is the same.
 */
export async function withPageSpool<T>(record: (spool: PageSpool) => Promise<T>, onMemory: (why: string) => void = () => {}): Promise<T> {
  let dir: string | undefined;
  let fd: number;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-snapshot-'));
    fd = openSync(path.join(dir, 'pages'), 'wx+', 0o600);
  } catch (error) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    onMemory(`pages kept in memory while recording: no temporary file (${(error as Error).message})`);
    return record(inMemory);
  }
  let removed = false;
  try {
    rmSync(dir, { recursive: true });
    removed = true;
  } catch {
    // Windows: an open file cannot be removed; the folder goes when the recording ends.
  }
  let open = true;
  let size = 0;
  let failed: Error | null = null;
  const read = (at: number, length: number): string => {
    if (!open) throw new Error('internal: a spooled page read after its recording ended');
    const bytes = Buffer.allocUnsafe(length);
    for (let got = 0; got < length; ) {
      const n = readSync(fd, bytes, got, length - got, at + got);
      if (n === 0) throw new Error('the snapshot spool ended before a page it held');
      got += n;
    }
    return bytes.toString('utf8');
  };
  const spool: PageSpool = {
    add(line) {
      if (failed) throw failed;
      const bytes = Buffer.from(line, 'utf8');
      const at = size;
      try {
        writeAll(fd, bytes, at);
      } catch (error) {
        failed = new Error(`the recording is incomplete, so nothing was written: a page could not be kept in its temporary file (${(error as Error).message})`);
        throw failed;
      }
      size += bytes.length;
      // The closure holds two numbers, not the line.
      const length = bytes.length;
      return new PageLine(() => read(at, length));
    },
    failure: () => failed,
  };
  try {
    return await record(spool);
  } finally {
    open = false;
    closeSync(fd);
    if (!removed) rmSync(dir, { recursive: true, force: true });
  }
}

function recordError(err: unknown): RecordedError {
  if (isApiError(err)) {
    const e: RecordedError = { message: err.message, kind: err.kind, method: err.method, path: err.path };
    if (err.status !== undefined) e.status = err.status;
    if (err.apiMessage !== undefined) e.apiMessage = err.apiMessage;
    return e;
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

export function recordingApi(api: InstanceApi, options: { instance?: string; now?: () => Date; spool?: PageSpool } = {}): RecordingApi {
  const { spool } = options;
  const answers = new Map<string, RecordedAnswer>();
  const put = (a: RecordedAnswer) => answers.set(answerKey(a.operation, a.args), a);

  function single<A extends unknown[], T>(operation: OperationId, call: (...args: A) => Promise<T>) {
    return async (...args: A): Promise<T> => {
      try {
        const value = await call(...args);
        put({ operation, args, value });
        return value;
      } catch (err) {
        put({ operation, args, error: recordError(err) });
        throw err;
      }
    };
  }

  function paged<A extends unknown[], T>(operation: OperationId, call: (...args: A) => AsyncIterable<T[]>) {
    return (...args: A): AsyncIterable<T[]> => ({
      async *[Symbol.asyncIterator]() {
        const pages: RecordedPage[] = [];
        const head = spool && answerLineHead(operation, args);
        try {
          for await (const page of call(...args)) {
            pages.push(head ? spool.add(pageLine(head, page)) : page);
            yield page;
          }
          put({ operation, args, pages });
        } catch (err) {
          put({ operation, args, pages, error: recordError(err) });
          throw err;
        }
      },
    });
  }

  // Every read of the table is recorded; writes pass through and are not recorded (a snapshot
  // only serves reads).
  const calls = Object.fromEntries(
    OPERATION_IDS.map((id) => {
      const op = OPERATIONS[id];
      const live = (...args: unknown[]) => (api[id] as (...a: unknown[]) => unknown)(...args);
      if (op.access === 'write') return [id, live];
      return [id, op.paging === 'none' ? single(id, live as (...a: unknown[]) => Promise<unknown>) : paged(id, live as (...a: unknown[]) => AsyncIterable<unknown[]>)];
    }),
  );
  return {
    ...(calls as unknown as InstanceApi),
    send: (request) => api.send(request),
    stats: () => api.stats(),
    snapshot: () => ({
      version: SNAPSHOT_VERSION,
      instance: options.instance ?? '',
      recordedAt: (options.now?.() ?? new Date()).toISOString(),
      answers: [...answers.values()].sort((a, b) =>
        answerKey(a.operation, a.args) < answerKey(b.operation, b.args) ? -1 : 1,
      ),
    }),
  };
}
