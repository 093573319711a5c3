// The planted entities of demo/PLANTED.md (fixed ids at every seed and size) and how the CLI
// finds the demo/ folder. Filler never violates a built-in policy, so each planted violation
// is the only one of its policy.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CertificationStatus, DataFilePermissions, DatasetAccessEntry, QueuePermissionEntry } from '../api/types.js';
import {
  makeAccessList,
  makeCertification,
  makeFilesetFile,
  makeMisconfigured,
  makeSchedule,
  makeWorkflow,
  type SandboxSchedule,
  type ScheduleInput,
} from './entities.js';
import type { SandboxState } from './types.js';
import { PACKAGE_NAME } from '../core/package-name.js';

export const PLANTED_FILESET_ID = '3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77';

/** The groups the planted datasets are shared with (in the group list: demo-people.ts lists their members). */
export const PLANTED_SHARE_GROUPS = { salesAnalysts: 304, financeAdmins: 305, marketingAnalysts: 306 } as const;
/** Paths of the planted file set (`/raw/legacy.csv` is the MD5 one). */
export const PLANTED_FILESET_PATHS = ['/reports/q1.csv', '/raw/a.parquet', '/raw/legacy.csv'] as const;
export const PLANTED_DATASET_IDS = [
  'ds-sales-certified',
  'ds-hr-certified',
  'ds-finance-certified',
  'ds-legacy-expired',
  'ds-scratch',
] as const;
export const PLANTED_SCHEDULE_IDS = [9001, 9002, 9003, 9004, 9005, 9006] as const;
/** 7001 is EXPIRED (sent by 9006); 7002 is ACTIVE and sent by the other planted schedules. */
export const PLANTED_CARD_IDS = ['7001', '7002'] as const;

/** Stored queue permissions; equal to demo/permissions/queues/*.yaml. */
export const PLANTED_QUEUES: Record<string, QueuePermissionEntry[]> = {
  'q-finance-intake': [
    { id: '7', name: 'Ana Ruiz', type: 'USER', permissions: ['READ', 'ADMIN'] },
    { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: ['ADMIN'] },
    { id: '9', name: 'Ben Okafor', type: 'USER', permissions: ['READ', 'WRITE'] },
  ],
  'q-support-escalations': [
    { id: 'g-21', name: 'Support Leads', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
    { id: '12', name: 'Chen Wei', type: 'USER', permissions: ['ADMIN', 'READ', 'WRITE'] },
    { id: '15', name: 'On-call Break Glass', type: 'USER', permissions: ['ADMIN'] },
  ],
  'q-marketing': [
    { id: 'g-40', name: 'Marketing Ops', type: 'GROUP', permissions: ['ADMIN', 'SHARE'] },
    { id: 'g-41', name: 'Marketing Analysts', type: 'GROUP', permissions: ['READ', 'READ_CONTENT'] },
    { id: '22', name: 'Dana Kim', type: 'USER', permissions: ['READ', 'CREATE_CONTENT', 'UPDATE_CONTENT'] },
  ],
  'q-hr-requests': [
    { id: 'g-30', name: 'HR Admins', type: 'GROUP', permissions: ['ADMIN'] },
    { id: '31', name: 'Eva Novak', type: 'USER', permissions: [] },
    { id: '33', name: 'Farid Haddad', type: 'USER', permissions: ['READ', 'EXECUTE'] },
  ],
};

/** Stored data-file permissions; equal to demo/permissions/data-files/*.yaml. */
export const PLANTED_DATA_FILES: Record<string, DataFilePermissions> = {
  '42': { publicAccess: true, entries: [{ entityId: '7', grant: 'READ', pass: 'NONE' }] },
  '43': {
    publicAccess: false,
    entries: [
      { entityId: '7', grant: 'READ_WRITE_DELETE_SHARE_ADMIN', pass: 'NONE' },
      { entityId: '9', grant: 'READ', pass: 'NONE' },
    ],
  },
  '44': {
    publicAccess: false,
    entries: [
      { entityId: '9', grant: 'READ', pass: 'NONE' },
      { entityId: 'g-88', grant: 'READ', pass: 'NONE' },
    ],
  },
};

/** Live state that differs from demo/permissions: a user granted ADMIN on q-marketing, data file 44 made public. */
export const PLANTED_DRIFT = {
  queue: { id: '77', name: 'Jo Park', type: 'USER', permissions: ['ADMIN'] } as QueuePermissionEntry,
  dataFilePublic: true,
};

const DAY = Date.UTC(2025, 2, 1, 8);
const NEXT = Date.UTC(2026, 6, 1, 8);

function plantedSchedule(id: number, title: string, over: Partial<ScheduleInput> = {}): SandboxSchedule {
  return makeSchedule({
    id,
    title,
    cardId: 7002,
    ownerId: 101,
    owner: true,
    recipientCount: 4,
    frequency: 'MONTHLY',
    daysToRun: '1',
    hourOfDay: 8,
    minOfHour: 0,
    timezone: 'Europe/Berlin',
    enabled: true,
    startDate: DAY,
    nextRunDate: NEXT,
    ...over,
  });
}

/** Adds every planted entity of demo/PLANTED.md to a generated state. */
export function addPlanted(state: SandboxState): void {
  const schedules = [
    plantedSchedule(9001, 'Board KPI Pack', { viewless: true }),
    plantedSchedule(9002, 'Regional Revenue Digest', { frequency: 'WEEKLY', daysToRun: 'MON' }),
    plantedSchedule(9003, 'Churn Watchlist', { enabled: false }),
    plantedSchedule(9004, 'Ops Overnight Summary', { timezone: 'Mars/Olympus', frequency: 'DAILY', daysToRun: '*' }),
    plantedSchedule(9005, 'Inventory Exceptions', { recipientCount: 0, viewless: true }),
    plantedSchedule(9006, 'Executive Margin Review', { cardId: 7001 }),
  ];
  state.schedules.push(...schedules);
  state.misconfigured.push(...schedules.slice(0, 3).map(makeMisconfigured));

  state.cards.add('7001').add('7002');
  state.certifications.set('CARD:7001', makeCertification('EXPIRED', Date.UTC(2024, 5, 30)));
  state.certifications.set('CARD:7002', makeCertification('ACTIVE'));

  const user = (id: string, name: string, accessLevel: DatasetAccessEntry['accessLevel']) => ({ type: 'USER' as const, id, name, accessLevel });
  const group = (id: string, name: string, accessLevel: DatasetAccessEntry['accessLevel']) => ({ type: 'GROUP' as const, id, name, accessLevel });
  const datasets: Array<[string, CertificationStatus['state'], ReturnType<typeof makeAccessList>, string[]]> = [
    ['ds-sales-certified', 'ACTIVE', makeAccessList([user('7', 'Ana Ruiz', 'OWNER'), group(String(PLANTED_SHARE_GROUPS.salesAnalysts), 'Sales Analysts', 'CAN_VIEW')]), ['sales', 'certified']],
    ['ds-hr-certified', 'ACTIVE', makeAccessList([user('31', 'Eva Novak', 'OWNER')]), ['hr']],
    ['ds-finance-certified', 'ACTIVE', makeAccessList([group(String(PLANTED_SHARE_GROUPS.financeAdmins), 'Finance Admins', 'OWNER'), user('7', 'Ana Ruiz', 'CO_OWNER'), user('9', 'Ben Okafor', 'CAN_VIEW')]), ['finance', 'certified']],
    ['ds-legacy-expired', 'EXPIRED', makeAccessList([user('15', 'On-call Break Glass', 'OWNER')]), ['legacy']],
    ['ds-scratch', null, makeAccessList([user('12', 'Chen Wei', 'CAN_EDIT'), group(String(PLANTED_SHARE_GROUPS.marketingAnalysts), 'Marketing Analysts', 'CAN_VIEW')]), []],
  ];
  for (const [id, certState, access, tags] of datasets) {
    state.datasetAccess.set(id, access);
    state.datasetTags.set(id, tags);
    state.certifications.set(`DATA_SOURCE:${id}`, makeCertification(certState, Date.UTC(2024, 10, 2, 10)));
  }

  for (const [id, entries] of Object.entries(PLANTED_QUEUES)) {
    state.queuePermissions.set(id, structuredClone(entries));
  }
  for (const [id, body] of Object.entries(PLANTED_DATA_FILES)) {
    state.dataFiles.add(id);
    state.dataFilePermissions.set(id, structuredClone(body));
  }
  // Drift: changed in the product, outside the repository (the manifests do not have it).
  state.queuePermissions.get('q-marketing')!.push(structuredClone(PLANTED_DRIFT.queue));
  state.dataFilePermissions.get('44')!.publicAccess = PLANTED_DRIFT.dataFilePublic;

  const files = new Map(
    [
      { id: 'a1b2c3d4-0001-4e00-8000-000000000001', path: '/reports/q1.csv', hashAlgorithm: 'SHA_256_HEX' },
      { id: 'a1b2c3d4-0002-4e00-8000-000000000002', path: '/raw/a.parquet', hashAlgorithm: 'SHA_256_HEX' },
      { id: 'a1b2c3d4-0003-4e00-8000-000000000003', path: '/raw/legacy.csv', hashAlgorithm: 'MD5' },
    ].map((f, i) => [
      f.path,
      makeFilesetFile(PLANTED_FILESET_ID, {
        ...f,
        size: 20_480 * (i + 1),
        created: '2025-02-10T12:00:00.000Z',
        createdBy: 7,
        hash: f.hashAlgorithm === 'MD5' ? '9e107d9d372bb6826bd81d3542a419d6' : `${'ab'.repeat(31)}0${i}`,
        indexStatus: i === 0 ? 'QUEUED' : null,
      }),
    ]),
  );
  state.filesets.set(PLANTED_FILESET_ID, files);

  state.workflows.push(
    makeWorkflow({
      id: 'wf-unnamed',
      name: '',
      description: 'Created by an import script without a name',
      owner: '7',
      createdOn: '2025-04-01T07:00:00Z',
    }),
    makeWorkflow({
      id: 'wf-nightly-refresh',
      name: 'Nightly dataset refresh',
      description: 'Indexes the finance datasets after the nightly load',
      owner: '7',
      createdOn: '2024-12-01T07:00:00Z',
    }),
  );

  // Planted counts: 3 invalid fields and 1 invalid link (policies calculated-fields-*).
  state.calculatedFields.invalid = 3;
  state.calculatedFields.invalidLink = 1;
}

/**
 * Root of the steward package: walks up from `from` (default: this module's folder, which is
 * src/sandbox under vitest and dist/ in the bundle) to the package.json named steward.
 */
export function findPackageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // an unreadable package.json is not ours; keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`steward package root not found above ${from}`);
    dir = parent;
  }
}

/** The demo folder (config, manifests, waivers) used by `steward check --sandbox`. */
export function demoDir(): string {
  return join(findPackageRoot(), 'demo');
}

/** demo/steward.yaml */
export function demoConfigPath(): string {
  return join(demoDir(), 'steward.yaml');
}
