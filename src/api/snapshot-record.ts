// Records every read answer of a live client (DESIGN §12) while passing it through unchanged.
import { isApiError } from './errors.js';
import { OPERATION_IDS, OPERATIONS, type OperationId } from './operations.js';
import type { InstanceApi } from './types.js';
import { answerKey, type RecordedAnswer, type RecordedError, SNAPSHOT_VERSION, type SnapshotFile } from './snapshot-format.js';

export type RecordingApi = InstanceApi & { snapshot(): SnapshotFile };

function recordError(err: unknown): RecordedError {
  if (isApiError(err)) {
    const e: RecordedError = { message: err.message, kind: err.kind, method: err.method, path: err.path };
    if (err.status !== undefined) e.status = err.status;
    if (err.apiMessage !== undefined) e.apiMessage = err.apiMessage;
    return e;
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

export function recordingApi(api: InstanceApi, options: { instance?: string; now?: () => Date } = {}): RecordingApi {
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
        const pages: T[][] = [];
        try {
          for await (const page of call(...args)) {
            pages.push(page);
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
