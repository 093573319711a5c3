// The client's method signatures, derived from the operations table's rows: `args` give the
// parameters, `paging` and `response`/`item` the result, typed by `Answer` of the row's JSON
// Schema (json-schema-to-ts `FromSchema`, schemas.ts: what is validated and what is typed are one
// declaration; each named answer type sits beside its schema there).
import type { OPERATIONS, OperationId } from './operations.js';
import type { ScheduleQuery } from './schedule-query.js';
import type { Answer } from './schemas.js';

type Row<K extends OperationId> = (typeof OPERATIONS)[K];
type ArgType<A> = A extends 'body' ? unknown : A extends 'query' ? ScheduleQuery : string;
type ArgList<T extends readonly unknown[]> = { -readonly [I in keyof T]: ArgType<T[I]> };
/** A read may leave its trailing query or body out (the row's default is sent). */
type Params<K extends OperationId> = Row<K>['args'] extends readonly [...infer H, infer L]
  ? Row<K>['access'] extends 'read'
    ? L extends 'query' | 'body'
      ? [...ArgList<H>, ArgType<L>?]
      : ArgList<Row<K>['args']>
    : ArgList<Row<K>['args']>
  : [];
type ItemSchema<R> = R extends { item: infer I } ? I : R extends { response: { items: infer I } } ? I : never;
type Result<K extends OperationId> = Row<K>['paging'] extends 'none'
  ? Promise<Row<K>['response'] extends null ? void : Answer<Row<K>['response']>>
  : AsyncIterable<Answer<ItemSchema<Row<K>>>[]>;

/** One method per row of the table: limit/skip, offset and cursor reads answer an async iterable of pages. */
export type OperationMethods = { [K in OperationId]: Params<K> extends infer P extends unknown[] ? (...args: P) => Result<K> : never };
