// JSON Schemas of the responses. They accept what the platform is documented or captured to
// send (nulls, epoch-millisecond dates, extra fields, which stay in the documents) and stay
// strict where steward itself relies on a value: ids, the fields a join or a fix uses, and the
// list/object shape. A mismatch there is "API drift", named by field (drift.ts).
// Every schema keeps its literal type (`as const`, const type parameters): the TypeScript type of
// each answer is derived from its schema (`FromSchema`, `Answer` below), so a field is declared once.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { CERTIFICATION_STATES, type USER_SEARCH_ATTRIBUTES } from './assumptions.js';
import { DATASET_ACCESS_LEVELS, FILESET_PERMISSIONS, QUEUE_PERMISSIONS } from './vocabularies.js';

export type Schema = Record<string, unknown>;
/** The type of an answer that matches the schema `T` (fields it leaves out stay, as `unknown`): each sits beside its schema. */
export type Answer<T> = T extends JSONSchema ? FromSchema<T> : unknown;

export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
type JsonType = 'string' | 'integer' | 'boolean' | 'array' | 'object' | 'number';
function nullable<const T extends JsonType>(type: T): { readonly type: readonly [T, 'null'] };
function nullable<const T extends readonly JsonType[]>(types: T): { readonly type: readonly [...T, 'null'] };
function nullable(type: JsonType | readonly JsonType[]): { readonly type: readonly string[] } {
  return { type: [...(typeof type === 'string' ? [type] : type), 'null'] };
}
export const nullableInt = nullable('integer');
export const nullableStr = nullable('string');
export const nullableBool = nullable('boolean');
/** ISO text or epoch milliseconds: both are seen for the platform's dates. */
const date = nullable(['string', 'integer']);

type Props = Record<string, JSONSchema>;
/** An object: `required` must be present (and typed), `optional` typed when present; others pass. */
function object<const R extends Props, const O extends Props = Record<never, JSONSchema>>(required: R, optional?: O) {
  return { type: 'object', properties: { ...(optional ?? ({} as O)), ...required }, required: Object.keys(required) as (keyof R & string)[] } as const;
}

/** The spec's schedule fields; `enabled` and `frequency` are what policies gate on. */
const scheduleSettings = object(
  { frequency: str, enabled: bool },
  {
    daysToRun: nullableStr,
    hourOfDay: nullableInt,
    minOfHour: nullableInt,
    timezone: nullableStr,
    startDate: date,
    nextRunDate: date,
  },
);

/**
 * `id` joins the misconfigured list and `cardId` the cards, so both are typed; a captured
 * schedule has `viewName`/`embedViewId` null and `pageId` 0, so the rest may be null.
 */
export const reportScheduleSchema = object(
  { id: int, title: nullableStr, schedule: scheduleSettings },
  { reportViewId: nullableInt, pageId: nullableInt, viewName: nullableStr, type: nullableStr, ownerId: nullableInt, embedViewId: nullableInt, owner: nullableBool, cardCount: nullableInt, recipientCount: nullableInt, cardId: nullableInt },
);
export type ReportSchedule = Answer<typeof reportScheduleSchema>;

/** Only `id` is joined on; the one public sample carries title, schedule and active. */
export const misconfiguredReportSchema = object(
  { id: int },
  {
    title: nullableStr,
    schedule: { type: ['object', 'null'], properties: { frequency: nullableStr, enabled: nullableBool } },
    active: nullableBool,
  },
);
export type MisconfiguredReport = Answer<typeof misconfiguredReportSchema>;

// Closed vocabularies (./vocabularies.ts): a word outside one is drift (exit 3).
const principalType = { type: 'string', enum: ['USER', 'GROUP'] } as const;
const nullablePrincipalType = { type: ['string', 'null'], enum: ['USER', 'GROUP', null] } as const;
const wordOf = <const W extends readonly string[]>(words: W) => ({ type: 'string', enum: words }) as const;

/** `type`, `id` and `accessLevel` are what ownership policies read. */
export const datasetAccessListSchema = object(
  { list: { type: 'array', items: object({ type: principalType, id: str, accessLevel: wordOf(DATASET_ACCESS_LEVELS) }, { name: nullableStr }) } },
  { totalUserCount: nullableInt, totalGroupCount: nullableInt },
);
export type DatasetAccessList = Answer<typeof datasetAccessListSchema>;
export type DatasetAccessEntry = DatasetAccessList['list'][number];

/** Matches the spec exactly in the platform's own sample: every counter an integer. */
export const calculatedFieldStatisticsSchema = object({
  total: int, onDatasets: int, onCards: int, inVisualizations: int, locked: int, invalid: int, invalidLink: int, archived: int,
});
export type CalculatedFieldStatistics = Answer<typeof calculatedFieldStatisticsSchema>;

/** The reference types downloadUrl, connectorKey, indexStatus and indexReason `string | null`. */
export const filesetFileSchema = object(
  { id: str, path: str },
  {
    name: nullableStr,
    fileType: nullableStr,
    contentType: nullableStr,
    size: nullableInt,
    created: date,
    createdBy: nullable(['integer', 'string']),
    hash: nullableStr,
    hashAlgorithm: nullableStr,
    downloadUrl: nullableStr,
    connectorKey: nullableStr,
    indexStatus: nullableStr,
    indexReason: nullableStr,
  },
);
export type FilesetFile = Answer<typeof filesetFileSchema>;

const revision = object(
  {},
  {
    dataFileRevisionId: nullableInt,
    dataFileId: nullableInt,
    contentType: nullableStr,
    uploadUserId: nullableInt,
    sizeBytes: nullableInt,
    uploadTimeMillis: nullableInt,
    md5Hash: nullableStr,
    datetimeUploaded: date,
    scanState: nullableStr,
    sha256HashValue: nullableStr,
  },
);

/** The new file's id is what a caller uses. */
export const dataFileSchema = object(
  { dataFileId: int },
  {
    name: nullableStr,
    responsibleUserId: nullableInt,
    currentRevision: { anyOf: [revision, { type: 'null' }] },
    datetimeCreated: date,
    revisions: { type: ['array', 'null'], items: revision },
    existing: nullableBool,
  },
);
export type DataFile = Answer<typeof dataFileSchema>;
export type DataFileRevision = NonNullable<DataFile['currentRevision']>;

/** state, metadata and updated may each be null (state null = never certified); updated is epoch ms. */
export const certificationStatusSchema = object(
  { state: { type: ['string', 'null'], enum: [...CERTIFICATION_STATES, null] } },
  { tag: nullableStr, metadata: {}, updated: {} },
);
export type CertificationStatus = Answer<typeof certificationStatusSchema>;

/** See WORKFLOW_LIST_SHAPE: a string `id`; everything else is kept as is. */
export const workflowSchema = object({ id: str }, { name: nullableStr });
export type Workflow = Answer<typeof workflowSchema>;

/** `tags` is a JSON-encoded array of strings (a list is accepted too); it is parsed by the dataset kind. */
export const datasetDetailsSchema = object({}, { tags: nullable(['string', 'array']) });

/**
 * A listing page: an object holding its items under one of `keys` (which one the pager finds),
 * each item checked against `item` as every answer is: a page with one item astray is drift.
 */
export function listingSchema<const I extends Schema>(keys: readonly string[], item: I, options: { nullable?: boolean } = {}) {
  const items = { type: options.nullable ? ['array', 'null'] : 'array', items: item };
  return { type: 'object', properties: Object.fromEntries(keys.map((k) => [k, items])) } as const;
}

/** A dataset of the list: its id is what steward reads (the name when present). */
export const datasetListItemSchema = object({ id: str }, { name: nullableStr });

/** A search result: `databaseId` is the entity's id. */
export const searchObjectSchema = object({ databaseId: { type: ['string', 'integer'] } }, { name: nullableStr, entityType: nullableStr });

/** A queue of the list (UUID id). */
export const queueSchema = object({ id: str }, { name: nullableStr });

const permissionEntry = object({ id: str, permissions: { type: 'array', items: wordOf(QUEUE_PERMISSIONS) } }, { name: nullableStr, type: nullablePrincipalType });

/**
 * Permissions grouped by principal type (queues, workflows): USER and GROUP, either list absent.
 * Another key is drift: a principal type steward does not read would hold what no policy sees.
 */
function byPrincipalType<const E extends JSONSchema>(entry: E) {
  return { type: 'object', properties: { USER: { type: 'array', items: entry }, GROUP: { type: 'array', items: entry } }, required: [], additionalProperties: false } as const;
}

/** A queue's permissions by principal type. */
export const queuePermissionsReadSchema = byPrincipalType(permissionEntry);
export type QueuePermissionsRead = Answer<typeof queuePermissionsReadSchema>;

/** A data file of the list: `dataFileId` is its id. */
export const dataFileListItemSchema = object({ dataFileId: int }, { name: nullableStr });

/** The data file's permissions as the PUT body has them, `entityType` included. */
export const dataFilePermissionsReadSchema = object({
  publicAccess: bool,
  entries: {
    type: 'array',
    items: object({ entityId: str, grant: str, pass: str }, { entityType: { type: ['string', 'null'], enum: ['USER', 'GROUP', null] } }),
  },
});

/** A file set of the search. */
export const filesetSchema = object({ id: str }, { name: nullableStr });

/**
 * The type of each attribute's values that steward reads (USER_SEARCH_ATTRIBUTES; epoch
 * milliseconds for dates, users-identity-search.json): a value of another type is drift, never
 * read as "none" (a drifted `isPending` would otherwise make an invitation a live user).
 */
const USER_ATTRIBUTE_TYPES = {
  id: int,
  displayName: nullableStr,
  userName: nullableStr,
  emailAddress: nullableStr,
  roleId: nullableInt,
  isActive: nullableBool,
  isPending: nullableBool,
  isSystemUser: nullableBool,
  created: nullableInt,
  lastLogin: nullableInt,
  lastActivity: nullableInt,
} as const satisfies Record<(typeof USER_SEARCH_ATTRIBUTES)[number], JSONSchema>;

/** The identity search's user: `id` and the attribute list (`{key, values: [...]}`) carry its state. */
const userAttribute = {
  ...object({ key: str, values: { type: 'array' } }),
  allOf: Object.entries(USER_ATTRIBUTE_TYPES).map(([key, items]) => ({
    if: { properties: { key: { const: key } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    then: { properties: { values: { type: 'array' as const, items } } },
  })),
} as const;
export const identityUserSchema = object(
  { id: int, attributes: { type: 'array', items: userAttribute } },
  { displayName: nullableStr, userName: nullableStr, emailAddress: nullableStr, roleId: nullableInt },
);
export type IdentityUser = Answer<typeof identityUserSchema>;

/** A group of the group list: `groupId` is a number; owners' and members' ids are strings. */
const groupPrincipal = object({ type: principalType, id: str }, { displayName: nullableStr });
export const groupSchema = object(
  { groupId: int },
  {
    name: nullableStr,
    groupType: nullableStr,
    memberCount: nullableInt,
    owners: { type: ['array', 'null'], items: groupPrincipal },
    groupMembers: { type: ['array', 'null'], items: groupPrincipal },
    created: date,
  },
);
export type GroupListItem = Answer<typeof groupSchema>;
export type GroupPrincipal = NonNullable<GroupListItem['owners']>[number];

/**
 * One group as `GET /groups/{id}` answers it (group-get.json): `active` false for a deleted group
 * (its name suffixed `_deleted_<uuid>`); required, since it is what a group owner is judged by.
 */
export const groupGetSchema = object({ id: int, active: bool }, { name: nullableStr, type: nullableStr, memberCount: nullableInt });

/** One group's members: USER entries only, with the role's name and the last sign-in. */
export const groupUsersSchema = object({
  groupUserList: { type: 'array', items: object({ userId: int }, { role: nullableStr, roleId: nullableInt, lastSignIn: nullableStr }) },
});

/** A role: system roles have ids 1–5 (SYSTEM_ROLE_IDS). */
export const roleSchema = object({ id: int, name: str }, { description: nullableStr, authorityCount: nullableInt, userCount: nullableInt, created: date, modified: date });
export type Role = Answer<typeof roleSchema>;

/** A role's grants: a bare array of authority names. */
export const roleAuthoritiesSchema = { type: 'array', items: str } as const;

/**
 * An authority (grant) of the instance, with the platform's own mark of an admin-level one
 * (`adminLevel`: `authorization.roles`, `user.edit`, `dataset.admin`, …; authorities-list.json).
 */
export const authoritySchema = object({ authority: str, adminLevel: bool }, { title: nullableStr, description: nullableStr, authorityUIGroup: nullableStr, roleIds: { type: ['array', 'null'], items: int }, userCount: nullableInt });
export type Authority = Answer<typeof authoritySchema>;

/** A holder of a role (the role-users listing's item). */
export const roleUserSchema = object({ userId: int }, { displayName: nullableStr, email: nullableStr, roleId: nullableInt });

/** An access token: the owner is an id only (ownerName/ownerEmail are null in the list); `expires` is epoch ms. */
export const accessTokenSchema = object({ id: int, ownerId: int, expires: int }, { name: nullableStr, ownerName: nullableStr, ownerEmail: nullableStr });
export type AccessToken = Answer<typeof accessTokenSchema>;

/** A page of the admin summary: `pageId` a number; owners' ids are numbers here. */
const numericPrincipal = object({ id: int, type: principalType }, { displayName: nullableStr });
export const pageSummarySchema = object(
  { pageId: int },
  { pageTitle: nullableStr, pageType: nullableStr, parentPageId: nullableInt, topPageId: nullableInt, ownerId: nullableInt, owners: { type: ['array', 'null'], items: numericPrincipal }, locked: nullableBool, lastModified: date, cardCount: nullableInt },
);
export type PageSummary = Answer<typeof pageSummarySchema>;

/** A card of the admin summary: owners' ids are strings here. */
export const cardSummarySchema = object(
  { id: int },
  { title: nullableStr, type: nullableStr, locked: nullableBool, owners: { type: ['array', 'null'], items: object({ id: str, type: principalType }, { displayName: nullableStr }) } },
);

/**
 * The content access list (page-accesslist.json): direct users, groups (each with its users when
 * expanded), the distinct people reached, and which resource it is about. The card's form is not
 * shown publicly: the page's is required of it too, `resource.type` included (checked by the kind).
 */
const sharedUser = object({ id: int }, { displayName: nullableStr, emailAddress: nullableStr });
export const contentAccessListSchema = object({
  users: { type: 'array', items: sharedUser },
  groups: { type: 'array', items: object({ id: int }, { name: nullableStr, users: { type: ['array', 'null'], items: sharedUser } }) },
  totalUserCount: int,
  resource: object({ id: str, type: str }),
});
export type ContentAccessList = Answer<typeof contentAccessListSchema>;

/** A connector account: `id` is the account id, `userId` its owner. */
export const accountSchema = object({ id: int }, { userId: nullableInt, name: nullableStr, displayName: nullableStr, type: nullableStr, valid: nullableBool, dataProviderType: nullableStr, credentialsType: nullableStr });
export type Account = Answer<typeof accountSchema>;

/** An account's share list: the dataset access list's form, without totalGroupCount. */
export const accountSharesSchema = object({
  list: { type: 'array', items: object({ type: principalType, id: str, accessLevel: str }, { name: nullableStr }) },
});

/** A file set's access: numeric entity ids, OWNER/EDIT/READ/NONE. */
export const filesetAccessSchema = object({
  fileSetAccess: { type: 'array', items: object({ entityId: int, entityType: principalType, permission: wordOf(FILESET_PERMISSIONS) }) },
});

/** A workflow's permissions grouped by principal type, with no type field. */
const workflowPrincipal = object({ id: str, permissions: { type: 'array', items: str } }, { name: nullableStr });
export const workflowPermissionsSchema = byPrincipalType(workflowPrincipal);

/**
 * PDP filter groups: a bare array; the open "All Rows" policy has `type: "open"` and
 * `dataSourcePermissions: false`. User ids are numbers, or strings of digits (both are sent), as
 * every user id of the platform; groups' and virtual users' (`vu:<uuid>`) may be other strings.
 */
const userIdList = { type: ['array', 'null'], items: { type: ['string', 'integer'], pattern: '^[0-9]+$' } } as const;
const idList = { type: ['array', 'null'], items: { type: ['string', 'integer'] } } as const;
/**
 * With `load_associations` the platform names a policy's principals twice: in the three lists and
 * in `resources` by type (pdp-filter-groups.json); either form may be left out where empty.
 */
const pdpResources = { type: ['object', 'null'], properties: { USER: userIdList, GROUP: idList, VIRTUAL_USER: idList } } as const;
export const pdpPoliciesSchema = {
  type: 'array',
  items: object(
    { filterGroupId: int, name: str },
    { type: nullableStr, dataSourcePermissions: nullableBool, userIds: userIdList, groupIds: idList, virtualUserIds: idList, resources: pdpResources, parameters: { type: ['array', 'null'] } },
  ),
} as const;
export type PdpPolicy = Answer<typeof pdpPoliciesSchema>[number];
