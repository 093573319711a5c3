// The TypeScript type of every answer, derived from its JSON Schema (json-schema-to-ts
// `FromSchema`: the schemas stay the plain JSON Schema objects Ajv checks, so what is validated
// and what is typed are one declaration), and the client's method signatures derived from the
// operations table's rows: `args` give the parameters, `paging` and `response`/`item` the result.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { OPERATIONS, OperationId } from './operations.js';
import type { ScheduleQuery } from './schedule-query.js';
import type * as S from './schemas.js';

/** The type of an answer that matches the schema `T` (fields it leaves out stay, as `unknown`). */
export type Answer<T> = T extends JSONSchema ? FromSchema<T> : unknown;

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

export type ReportSchedule = Answer<typeof S.reportScheduleSchema>;
export type MisconfiguredReport = Answer<typeof S.misconfiguredReportSchema>;
export type DatasetAccessList = Answer<typeof S.datasetAccessListSchema>;
export type DatasetAccessEntry = DatasetAccessList['list'][number];
export type CalculatedFieldStatistics = Answer<typeof S.calculatedFieldStatisticsSchema>;
export type FilesetFile = Answer<typeof S.filesetFileSchema>;
export type DataFile = Answer<typeof S.dataFileSchema>;
export type DataFileRevision = NonNullable<DataFile['currentRevision']>;
export type CertificationStatus = Answer<typeof S.certificationStatusSchema>;
export type Workflow = Answer<typeof S.workflowSchema>;
export type DatasetDetails = Answer<typeof S.datasetDetailsSchema>;
export type DatasetListItem = Answer<typeof S.datasetListItemSchema>;
export type SearchObject = Answer<typeof S.searchObjectSchema>;
export type QueueListItem = Answer<typeof S.queueSchema>;
export type QueuePermissionsRead = Answer<typeof S.queuePermissionsReadSchema>;
export type DataFileListItem = Answer<typeof S.dataFileListItemSchema>;
export type DataFilePermissionsRead = Answer<typeof S.dataFilePermissionsReadSchema>;
export type Fileset = Answer<typeof S.filesetSchema>;
export type IdentityUser = Answer<typeof S.identityUserSchema>;
export type UserAttribute = IdentityUser['attributes'][number];
export type GroupListItem = Answer<typeof S.groupSchema>;
export type GroupPrincipal = NonNullable<GroupListItem['owners']>[number];
export type GroupUsers = Answer<typeof S.groupUsersSchema>;
export type Role = Answer<typeof S.roleSchema>;
export type RoleUser = Answer<typeof S.roleUserSchema>;
export type AccessToken = Answer<typeof S.accessTokenSchema>;
export type PageSummary = Answer<typeof S.pageSummarySchema>;
export type CardSummary = Answer<typeof S.cardSummarySchema>;
export type ContentAccessList = Answer<typeof S.contentAccessListSchema>;
export type SharedUser = ContentAccessList['users'][number];
export type Account = Answer<typeof S.accountSchema>;
export type AccountShares = Answer<typeof S.accountSharesSchema>;
export type FilesetAccess = Answer<typeof S.filesetAccessSchema>;
export type WorkflowPermissions = Answer<typeof S.workflowPermissionsSchema>;
export type PdpPolicy = Answer<typeof S.pdpPoliciesSchema>[number];
