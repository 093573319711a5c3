// Builders of the instance's documents, shared by the filler generator and the planted demo
// entities so both have exactly the same shape as the API answers.
import type {
  CertificationStatus,
  DataFile,
  DataFileRevision,
  DatasetAccessEntry,
  DatasetAccessList,
  FilesetFile,
  MisconfiguredReport,
  ReportSchedule,
  Workflow,
} from '../api/types.js';

/**
 * Time zones for generated schedules: canonical IANA names that `Intl.supportedValuesOf`
 * lists on Node 20 (it lists neither `UTC` nor `Asia/Kolkata`), so any reasonable
 * time-zone check accepts them.
 */
export const FILLER_TIMEZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'America/Mexico_City',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Madrid',
  'Asia/Tokyo',
  'Asia/Singapore',
  'Australia/Sydney',
  'Africa/Johannesburg',
] as const;

/**
 * A workflow model as the instance host lists it (a captured answer): no `status`, owner and
 * dates as the platform sends them. The workflow API host serves the same items.
 */
export interface SandboxWorkflow extends Workflow {
  id: string;
  name: string;
  description: string;
  owner: string;
  createdBy: string;
  createdOn: string;
  updatedBy: string;
  updatedOn: string;
  lastVersionUpdatedBy: string;
  lastVersionUpdatedOn: string;
  userPermissions: string[];
}

export function makeWorkflow(w: { id: string; name: string; description: string; owner: string; createdOn: string }): SandboxWorkflow {
  return {
    ...w,
    createdBy: w.owner,
    updatedBy: w.owner,
    updatedOn: w.createdOn,
    lastVersionUpdatedBy: w.owner,
    lastVersionUpdatedOn: w.createdOn,
    userPermissions: [],
  };
}

/** When and for whom a schedule runs: the settings the spec documents. */
export interface ScheduleTiming {
  frequency: string;
  daysToRun: string;
  hourOfDay: number;
  minOfHour: number;
  timezone: string;
  enabled: boolean;
  /** Epoch milliseconds, inside `schedule` as the platform sends them (the sort keys of orderBy). */
  startDate: number;
  nextRunDate: number;
  ownerId: number;
}

/** The schedule settings the sandbox stores: the spec's fields plus the captured ones. */
export interface SandboxScheduleSettings extends ScheduleTiming {
  additionalRecipients: { type: string; value: string }[];
  unsubscribedRecipients: unknown[];
  [extra: string]: unknown;
}

/** A schedule in the captured shape: the nullable fields are null where the input says so. */
export interface SandboxSchedule extends ReportSchedule {
  title: string;
  recipientCount: number;
  cardId: number;
  owner: boolean;
  schedule: SandboxScheduleSettings;
}

/** All documented fields plus the two sort keys `orderBy` needs (extra fields are allowed). */
export interface ScheduleInput extends ScheduleTiming {
  id: number;
  title: string;
  cardId: number;
  owner: boolean;
  recipientCount: number;
  cardCount?: number;
  /**
   * A card schedule sent without a page or an embedded view, as captured on a real instance:
   * `viewName` and `embedViewId` null, `pageId` 0, `type` "view".
   */
  viewless?: boolean;
}

export function makeSchedule(s: ScheduleInput): SandboxSchedule {
  const { frequency, daysToRun, hourOfDay, minOfHour, timezone, enabled, startDate, nextRunDate, ownerId } = s;
  const timing: ScheduleTiming = { frequency, daysToRun, hourOfDay, minOfHour, timezone, enabled, startDate, nextRunDate, ownerId };
  const settings: SandboxScheduleSettings = { ...timing, additionalRecipients: [], unsubscribedRecipients: [] };
  return {
    id: s.id,
    active: s.enabled,
    reportViewId: s.id * 10 + 1,
    pageId: s.viewless ? 0 : 100_000 + s.id,
    title: s.title,
    subject: s.title,
    description: null,
    viewName: s.viewless ? null : s.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    type: s.viewless ? 'view' : 'RECURRING',
    ownerId: s.ownerId,
    embedViewId: s.viewless ? null : s.id * 10 + 2,
    embedUrn: null,
    contextId: null,
    owner: s.owner,
    cardCount: s.cardCount ?? 1,
    recipientCount: s.recipientCount,
    cardId: s.cardId,
    schedule: settings,
  };
}

export function makeMisconfigured(schedule: SandboxSchedule): MisconfiguredReport {
  return {
    id: schedule.id,
    title: schedule.title,
    schedule: { frequency: schedule.schedule.frequency, enabled: schedule.schedule.enabled },
    active: schedule.schedule.enabled,
  };
}

export function makeAccessList(list: DatasetAccessEntry[]): DatasetAccessList {
  return {
    list,
    totalUserCount: list.filter((e) => e.type === 'USER').length,
    totalGroupCount: list.filter((e) => e.type === 'GROUP').length,
  };
}

/**
 * `state: null` = never certified, with metadata and updated null (the platform's docs); other
 * states carry the captured metadata and `updated` in epoch milliseconds.
 */
export function makeCertification(state: CertificationStatus['state'], updated?: number): CertificationStatus {
  if (state === null) return { tag: 'CERTIFIED', state: null, metadata: null, updated: null };
  return {
    metadata: {
      adminCertified: false,
      approvalRequestId: '6f1d2c3b-0000-4a5e-9b7c-000000000001',
      approvalTemplateTitle: 'Company certification',
      processType: 'COMPANY',
      userId: '101',
    },
    state,
    tag: 'CERTIFIED',
    updated: updated ?? Date.UTC(2025, 0, 15, 9, 30),
  };
}

export interface FileInput {
  id: string;
  path: string;
  size: number;
  created: string;
  createdBy: number;
  hash: string;
  hashAlgorithm: string;
  indexStatus: string | null;
}

/** fileType values seen on the platform: TEXT, FILE (also AUDIO, DIRECTORY). */
const CONTENT_TYPES: Record<string, [fileType: string, contentType: string]> = {
  csv: ['TEXT', 'text/csv'],
  txt: ['TEXT', 'text/plain'],
  parquet: ['FILE', 'application/vnd.apache.parquet'],
  json: ['TEXT', 'application/json'],
  xlsx: ['FILE', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
};

/** `downloadUrl` and `connectorKey` are null in every public sample; `createdBy` a number. */
export function makeFilesetFile(_filesetId: string, f: FileInput): FilesetFile {
  const name = f.path.slice(f.path.lastIndexOf('/') + 1);
  const [fileType, contentType] = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? [
    'FILE',
    'application/octet-stream',
  ];
  return {
    id: f.id,
    path: f.path,
    name,
    fileType,
    contentType,
    size: f.size,
    created: f.created,
    createdBy: f.createdBy,
    hash: f.hash,
    hashAlgorithm: f.hashAlgorithm,
    downloadUrl: null,
    connectorKey: null,
    indexStatus: f.indexStatus,
    indexReason: f.indexStatus === null ? null : 'UPLOAD',
  };
}

/** A data file object as duplicate answers it; derived from its id so no extra state is kept. */
export function makeDataFile(dataFileId: number, name: string, createdMillis: number): DataFile {
  const digits = String(dataFileId).padStart(8, '0');
  const revision: DataFileRevision = {
    dataFileRevisionId: dataFileId * 10 + 1,
    dataFileId,
    contentType: 'text/csv',
    uploadUserId: 7,
    sizeBytes: 1024 + (dataFileId % 997) * 64,
    uploadTimeMillis: 120 + (dataFileId % 50),
    md5Hash: `${digits}${'0'.repeat(24)}`,
    datetimeUploaded: createdMillis,
    scanState: 'SAFE',
    sha256HashValue: `${digits}${'f'.repeat(56)}`,
  };
  return {
    dataFileId,
    name,
    responsibleUserId: 7,
    currentRevision: revision,
    datetimeCreated: createdMillis,
    revisions: [revision],
    existing: false,
  };
}
