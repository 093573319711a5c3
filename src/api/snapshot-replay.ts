// Serves a snapshot's answers offline (`steward check --from FILE`): no request is made; a
// read the snapshot lacks, and every write, fails with an ApiError.
import { ApiError, type ApiErrorKind } from './errors.js';
import { OPERATION_IDS, OPERATIONS, type OperationId, operation } from './operations.js';
import { checkResponse } from './drift.js';
import type { Schema } from './schemas.js';
import type { InstanceApi } from './types.js';
import { answerKey, pageItems, type RecordedAnswer, type SnapshotFile } from './snapshot-format.js';

function replayError(operation: OperationId, detail: string, init: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) {
  return new ApiError({ kind: 'config', operation, method: 'GET', path: '', detail, ...init });
}

function recordedError(a: RecordedAnswer): ApiError {
  const e = a.error!;
  const prefix = `${a.operation}: `;
  return new ApiError({
    kind: (e.kind as ApiErrorKind | undefined) ?? 'http',
    operation: a.operation,
    method: e.method ?? 'GET',
    path: e.path ?? '',
    detail: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message,
    // Stryker disable next-line ConditionalExpression: a status of undefined is the error's own default
    ...(e.status !== undefined ? { status: e.status } : {}),
    // Stryker disable next-line ConditionalExpression: as is an apiMessage of undefined
    ...(e.apiMessage !== undefined ? { apiMessage: e.apiMessage } : {}),
  });
}

const recordedSchemas = new Map<OperationId, Schema>();

/** The key a keyed listing's items sit under in its pages (null: a bare array, or no listing). */
function itemsKey(id: OperationId): string | null {
  const op = operation(id);
  return op.item && op.page?.items[0] ? op.page.items[0] : null;
}

/**
 * What a recorded answer is checked against. A page of an offset or cursor listing is recorded
 * as its items: a bare array's by the array of items; a keyed listing's as the page it came
 * from (checkReplayed puts the items back under its key), by the live answer's own schema, so
 * the build compiles one validator for both.
 */
export function recordedSchema(id: OperationId): Schema {
  let schema = recordedSchemas.get(id);
  // Stryker disable next-line ConditionalExpression: the schema made again is the same schema
  if (!schema) {
    const op = operation(id);
    // Stryker disable next-line ConditionalExpression: a bare listing's response is the array of its items too (operations.ts listedAsArrayOf)
    schema = op.item && !itemsKey(id) ? { type: 'array', items: op.item } : op.response!;
    recordedSchemas.set(id, schema);
  }
  return schema;
}

/**
 * A replayed body is checked like a live one (client/schemas.ts): one that does not match is
 * API drift of that read, never a pass on data the live client would have refused.
 */
function checkReplayed(id: OperationId, body: unknown): void {
  const key = itemsKey(id);
  const drift = checkResponse(recordedSchema(id), key ? { [key]: body } : body);
  if (drift) {
    throw replayError(id, `API drift at ${drift.field}: ${drift.problem} (replayed from the snapshot)`, {
      kind: 'drift',
      field: drift.field,
    });
  }
}

export function replayApi(snapshot: SnapshotFile): InstanceApi {
  const answers = new Map(snapshot.answers.map((a) => [answerKey(a.operation, a.args), a]));
  const find = (operation: OperationId, args: unknown[]): RecordedAnswer => {
    const a = answers.get(answerKey(operation, args));
    if (!a) throw replayError(operation, `not in snapshot (arguments ${JSON.stringify(args)})`);
    return a;
  };
  // An answer is checked the first time it is read and is then the same object on every read,
  // as a live run's GET memo gives it (copying 100,000 schedules cost a third of an offline run).
  // A page read from a file is parsed from its line at each read, as a live listing's page is
  // fetched again: each read's objects are checked.
  const checked = new WeakSet<object>();
  const replayed = <T>(operation: OperationId, value: T): T => {
    if (value === null || typeof value !== 'object') {
      checkReplayed(operation, value);
    } else if (!checked.has(value)) {
      checkReplayed(operation, value);
      checked.add(value);
    }
    return value;
  };
  const single =
    <A extends unknown[], T>(operation: OperationId) =>
    async (...args: A): Promise<T> => {
      const a = find(operation, args);
      if (a.error) throw recordedError(a);
      return replayed(operation, a.value) as T;
    };
  const paged =
    <A extends unknown[], T>(operation: OperationId) =>
    (...args: A): AsyncIterable<T[]> => ({
      async *[Symbol.asyncIterator]() {
        const a = find(operation, args);
        for (const page of a.pages ?? []) {
          yield replayed(operation, pageItems(page)) as T[];
        }
        if (a.error) throw recordedError(a);
      },
    });
  const refuse = (operation: OperationId, method: string) => async (): Promise<never> => {
    throw replayError(operation, 'refused: a snapshot replay is read-only', { method });
  };
  const calls = Object.fromEntries(
    OPERATION_IDS.map((id) => {
      const op = OPERATIONS[id];
      if (op.access === 'write') return [id, refuse(id, op.method)];
      return [id, op.paging === 'none' ? single(id) : paged(id)];
    }),
  );
  return {
    ...(calls as unknown as InstanceApi),
    send: async (request) => refuse(request.operation as OperationId, request.method)(),
    stats: () => ({ requests: 0, retries: 0, failed: 0 }),
  };
}
