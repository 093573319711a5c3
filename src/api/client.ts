// The typed client, built from the operations table: each operation's positional arguments
// become its path parameters, body and query; limit/skip reads become async iterables of
// pages; reads are checked against the row's schema and memoised for the client's lifetime.
import { CLIENT_DEFAULTS } from './assumptions.js';
import { createTransport, type RequestSpec, type Transport } from './http.js';
import { OPERATION_IDS, type OperationId, type OperationSpec, operation, type QueryDefaults } from './operations.js';
import { cursorPages, offsetPages, pages } from './pagination.js';
import type { ClientOptions, InstanceApi, ScheduleQuery } from './types.js';
import { sendWrite } from './writes.js';

/** The request one call makes: its arguments placed as the row's `args` say. */
function requestOf(id: OperationId, op: OperationSpec, args: unknown[], defaults: QueryDefaults): RequestSpec {
  const spec: RequestSpec = { operation: id, method: op.method, host: op.host, path: op.path, params: {}, query: { ...op.query?.(undefined, defaults) } };
  if (op.body !== undefined) spec.body = op.body;
  if (op.access === 'read' && op.method !== 'GET') spec.read = true;
  op.args.forEach((name, i) => {
    const value = args[i];
    if (name === 'body') spec.body = value === undefined ? spec.body : value; // an omitted body: the row's default
    else if (name === 'query') spec.query = { ...op.query?.(value, defaults) };
    else if (name.startsWith('query:')) spec.query = { ...spec.query, [name.slice('query:'.length)]: value as string };
    else spec.params![name] = String(value);
  });
  return spec;
}

/** A page size a caller asked for in a `query` argument (the schedule list's `pageSize`). */
function pageSizeOf(op: OperationSpec, args: unknown[], fallback: number): number {
  const at = op.args.indexOf('query');
  const asked = at === -1 ? undefined : (args[at] as ScheduleQuery | undefined)?.pageSize;
  return Math.max(1, Math.floor(asked ?? fallback));
}

async function allPages<T>(iterable: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of iterable) all.push(...page);
  return all;
}

function caller(t: Transport, options: ClientOptions) {
  const defaults: QueryDefaults = { scheduleFilter: options.scheduleFilter };
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? CLIENT_DEFAULTS.pageSize));
  // limit/skip and offset lists read this many pages ahead at most (the limiter's bound).
  const ahead = Math.max(1, Math.floor(options.concurrency ?? CLIENT_DEFAULTS.concurrency));
  const call = (id: OperationId, args: unknown[]): unknown => {
    const op = operation(id);
    if (op.fallback && !t.hasHost(op.host)) {
      const fallback = op.fallback as OperationId;
      const answer = call(fallback, args);
      return operation(fallback).paging === 'limit-skip' ? allPages(answer as AsyncIterable<unknown[]>) : answer;
    }
    const spec = requestOf(id, op, args, defaults);
    if (op.paging === 'limit-skip') return pages(t, spec, op.response!, pageSizeOf(op, args, pageSize), ahead);
    if (op.paging === 'offset-total') return offsetPages({ transport: t, request: spec, schema: op.response!, shape: op.page! }, ahead);
    if (op.paging === 'cursor') return cursorPages({ transport: t, request: spec, schema: op.response!, shape: op.page! });
    if (op.access === 'read') return t.getJson(spec, op.response!);
    return op.response ? t.writeJson(spec, op.response) : t.write(spec);
  };
  return call;
}

export function createClient(options: ClientOptions): InstanceApi {
  const t = createTransport(options);
  const call = caller(t, options);
  const operations = Object.fromEntries(OPERATION_IDS.map((id) => [id, (...args: unknown[]) => call(id, args)]));
  return { ...operations, send: (request) => sendWrite(t, request), stats: () => t.stats() } as InstanceApi;
}
