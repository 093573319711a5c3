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
  ScheduleSettings,
  Workflow,
} from '../client/types.js';

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

/** Fields of a workflow list item (the spec does not show that body; see index.ts). */
export interface SandboxWorkflow extends Workflow {
  id: string;
  name: string;
  description: string;
  status: string;
  createdAt: string;
}

/** All documented fields plus the two sort keys `orderBy` needs (extra fields are allowed). */
export interface ScheduleInput {
  id: number;
  title: string;
  cardId: number;
  ownerId: number;
  owner: boolean;
  recipientCount: number;
  cardCount?: number;
  frequency: string;
  daysToRun: string;
  hourOfDay: number;
  minOfHour: number;
  timezone: string;
  enabled: boolean;
  startDate: string;
  nextRunDate: string;
}

export function makeSchedule(s: ScheduleInput): ReportSchedule {
  const settings: ScheduleSettings = {
    frequency: s.frequency,
    daysToRun: s.daysToRun,
    hourOfDay: s.hourOfDay,
    minOfHour: s.minOfHour,
    timezone: s.timezone,
    enabled: s.enabled,
  };
  return {
    id: s.id,
    reportViewId: s.id * 10 + 1,
    pageId: 100_000 + s.id,
    title: s.title,
    viewName: s.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    type: 'RECURRING',
    ownerId: s.ownerId,
    embedViewId: s.id * 10 + 2,
    owner: s.owner,
    cardCount: s.cardCount ?? 1,
    recipientCount: s.recipientCount,
    cardId: s.cardId,
    schedule: settings,
    startDate: s.startDate,
    nextRunDate: s.nextRunDate,
  };
}

export function makeMisconfigured(schedule: ReportSchedule): MisconfiguredReport {
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

/** `state: null` = never certified (DESIGN §5); other states carry metadata and a date. */
export function makeCertification(state: string | null, updated?: string): CertificationStatus {
  if (state === null) return { tag: 'CERTIFIED', state: null, metadata: null, updated: null };
  return {
    tag: 'CERTIFIED',
    state,
    metadata: { approverType: 'GROUP', approverId: 'g-governance' },
    updated: updated ?? '2025-01-15T09:30:00.000Z',
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

const CONTENT_TYPES: Record<string, [fileType: string, contentType: string]> = {
  csv: ['CSV', 'text/csv'],
  parquet: ['PARQUET', 'application/vnd.apache.parquet'],
  json: ['JSON', 'application/json'],
  xlsx: ['EXCEL', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
};

export function makeFilesetFile(filesetId: string, f: FileInput): FilesetFile {
  const name = f.path.slice(f.path.lastIndexOf('/') + 1);
  const [fileType, contentType] = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? [
    'OTHER',
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
    downloadUrl: `/api/files/v1/filesets/${filesetId}/files/${f.id}/download`,
    connectorKey: 'file-upload',
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
