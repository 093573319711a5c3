// JSON Schemas of the responses, derived from api-spec.md's tables: documented fields are
// required and typed; extra fields are fine. A mismatch is "API drift", named by field.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { OperationId } from './types.js';

type Schema = Record<string, unknown>;

const int = { type: 'integer' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const nullableStr = { type: ['string', 'null'] };

/** An object whose listed properties are all required; other properties are allowed. */
function object(properties: Record<string, Schema>): Schema {
  return { type: 'object', properties, required: Object.keys(properties) };
}

const scheduleSettings = object({
  frequency: str,
  daysToRun: str,
  hourOfDay: int,
  minOfHour: int,
  timezone: str,
  enabled: bool,
});

export const reportScheduleSchema = object({
  id: int,
  reportViewId: int,
  pageId: int,
  title: str,
  viewName: str,
  type: str,
  ownerId: int,
  embedViewId: int,
  owner: bool,
  cardCount: int,
  recipientCount: int,
  cardId: int,
  schedule: scheduleSettings,
});

export const misconfiguredReportSchema = object({
  id: int,
  title: str,
  schedule: object({ frequency: str, enabled: bool }),
  active: bool,
});

const principalType = { type: 'string', enum: ['USER', 'GROUP'] };

export const datasetAccessListSchema = object({
  list: { type: 'array', items: object({ type: principalType, id: str, accessLevel: str, name: str }) },
  totalUserCount: int,
  totalGroupCount: int,
});

export const calculatedFieldStatisticsSchema = object({
  total: int,
  onDatasets: int,
  onCards: int,
  inVisualizations: int,
  locked: int,
  invalid: int,
  invalidLink: int,
  archived: int,
});

/** indexStatus/indexReason are null on files never indexed (DESIGN §2). */
export const filesetFileSchema = object({
  id: str,
  path: str,
  name: str,
  fileType: str,
  contentType: str,
  size: int,
  created: str,
  createdBy: int,
  hash: str,
  hashAlgorithm: str,
  downloadUrl: str,
  connectorKey: str,
  indexStatus: nullableStr,
  indexReason: nullableStr,
});

const revision = object({
  dataFileRevisionId: int,
  dataFileId: int,
  contentType: str,
  uploadUserId: int,
  sizeBytes: int,
  uploadTimeMillis: int,
  md5Hash: str,
  datetimeUploaded: int,
  scanState: str,
  sha256HashValue: str,
});

export const dataFileSchema = object({
  dataFileId: int,
  name: str,
  responsibleUserId: int,
  currentRevision: revision,
  datetimeCreated: int,
  revisions: { type: 'array', items: revision },
  existing: bool,
});

/** state, metadata and updated may each be null (state null = never certified). */
export const certificationStatusSchema = object({
  tag: str,
  state: nullableStr,
  metadata: {},
  updated: {},
});

/** See WORKFLOW_LIST_SHAPE. */
export const workflowSchema = object({ id: str });

const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

/** The body schema of each operation that returns a document. */
export const RESPONSE_SCHEMAS = {
  listReportSchedules: arrayOf(reportScheduleSchema),
  getMisconfiguredReports: arrayOf(misconfiguredReportSchema),
  getDatasetPermissions: datasetAccessListSchema,
  getCalculatedFieldStatistics: calculatedFieldStatisticsSchema,
  getFileByPath: filesetFileSchema,
  duplicateDataFile: dataFileSchema,
  getCertificationStatus: certificationStatusSchema,
  listWorkflows: arrayOf(workflowSchema),
} satisfies Partial<Record<OperationId, Schema>>;

export type ValidatedOperation = keyof typeof RESPONSE_SCHEMAS;

const ajv = new Ajv({ allErrors: false, allowUnionTypes: true, strict: true });
const validators = new Map<ValidatedOperation, ValidateFunction>();

function validatorFor(operation: ValidatedOperation): ValidateFunction {
  let validate = validators.get(operation);
  if (!validate) {
    validate = ajv.compile(RESPONSE_SCHEMAS[operation]);
    validators.set(operation, validate);
  }
  return validate;
}

export interface DriftProblem {
  /** e.g. `[3].schedule.timezone`, or `(body)` for the whole body. */
  field: string;
  /** e.g. `expected string, got null`. */
  problem: string;
}

/** Undefined when the body matches the operation's schema. */
export function checkResponse(operation: ValidatedOperation, body: unknown): DriftProblem | undefined {
  const validate = validatorFor(operation);
  if (validate(body)) return undefined;
  const error = (validate.errors ?? [])[0];
  if (!error) return { field: '(body)', problem: 'does not match the documented shape' };
  return describeAjvError(error, body);
}

function describeAjvError(error: ErrorObject, body: unknown): DriftProblem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return { field: formatField([...segments, missing]), problem: 'missing' };
  }
  if (error.keyword === 'type') {
    const expected = [(error.params as { type: string | string[] }).type].flat().join(' or ');
    return { field: formatField(segments), problem: `expected ${expected}, got ${typeName(valueAt(body, segments))}` };
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
    const got = JSON.stringify(valueAt(body, segments));
    return { field: formatField(segments), problem: `expected one of ${allowed.join(', ')}, got ${got}` };
  }
  return { field: formatField(segments), problem: error.message ?? 'does not match the documented shape' };
}

/** ['3', 'schedule', 'timezone'] → `[3].schedule.timezone`. */
export function formatField(segments: readonly string[]): string {
  if (segments.length === 0) return '(body)';
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function valueAt(body: unknown, segments: readonly string[]): unknown {
  let value = body;
  for (const s of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[s];
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
