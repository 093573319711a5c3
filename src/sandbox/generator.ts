// Seeded filler data: a realistic instance whose generated entities comply with every
// built-in policy (valid time zones, recipients, owners, GROUP owners on certified datasets,
// no user ADMIN on queues, private data files, SHA-256 files, named workflows). The planted
// violations of demo/PLANTED.md are added on top by demo.ts.
import type { DatasetAccessEntry, QueuePermission, QueuePermissionEntry } from '../api/types.js';
import { addPlanted } from './demo.js';
import { FILLER_TIMEZONES, makeAccessList, makeCertification, makeFilesetFile, makeSchedule, makeWorkflow } from './entities.js';
import { addPlantedPeople } from './demo-people.js';
import { addPlantedSharing } from './demo-sharing.js';
import { addPeople, emptyPeople, FILLER_OWNER_IDS } from './people.js';
import { addSharing, emptySharing } from './sharing.js';
import { createRandom, type Random } from './random.js';
import type { SandboxSize, SandboxState } from './types.js';

export const SANDBOX_DEFAULT_SEED = 42;

const startOfDay = (ms: number) => Math.floor(ms / 86_400_000) * 86_400_000;

/** Filler counts of the default instance (planted entities come on top). */
export const SANDBOX_DEFAULT_SIZE: Readonly<SandboxSize> = Object.freeze({
  schedules: 40,
  datasets: 20,
  cards: 10,
  queues: 3,
  dataFiles: 5,
  filesets: 2,
  filesPerFileset: 4,
  workflows: 4,
  users: 0,
  groups: 4,
  accessTokens: 3,
  pages: 3,
  accounts: 3,
});

/** First ids of generated entities: far from the planted ids (7001, 9001, 42…). */
export const FILLER_ID_BASE = { schedule: 10_001, card: 50_001, dataFile: 1_001 } as const;

const USERS = [
  ['101', 'Priya Shah'],
  ['102', 'Tom Becker'],
  ['103', 'Lucia Romano'],
  ['104', 'Kwame Mensah'],
  ['105', 'Sofia Lindqvist'],
  ['106', 'Hiro Tanaka'],
  ['107', 'Maya Cohen'],
  ['108', 'Omar Farouk'],
] as const;
const GROUPS = [
  ['g-201', 'Data Stewards'],
  ['g-202', 'BI Developers'],
  ['g-203', 'Regional Managers'],
  ['g-204', 'Analytics Guild'],
] as const;
const SUBJECTS = ['Sales', 'Pipeline', 'Inventory', 'Marketing', 'Support', 'Finance', 'Logistics', 'Retention'];
const CADENCES = ['Daily', 'Weekly', 'Monthly', 'Quarterly'];
const TAGS = ['finance', 'sales', 'pii', 'raw', 'curated', 'marketing', 'ops'];
const NON_ADMIN: QueuePermission[] = ['READ', 'WRITE', 'SHARE', 'READ_CONTENT', 'CREATE_CONTENT', 'EXPORT', 'EXECUTE'];

const EPOCH_2025 = Date.UTC(2025, 0, 1);
const DAY_MS = 86_400_000;

/** Independent stream per entity kind: changing one size leaves the other kinds unchanged. */
function stream(seed: number, kind: number): Random {
  return createRandom((seed ^ Math.imul(kind + 1, 0x9e3779b1)) >>> 0);
}

/** A time between two days after 2025-01-01, in epoch milliseconds (the platform's dates). */
function dayMillis(rnd: Random, fromDay: number, toDay: number): number {
  return EPOCH_2025 + rnd.int(fromDay, toDay) * DAY_MS + rnd.int(0, 23) * 3_600_000;
}

function isoDay(rnd: Random, fromDay: number, toDay: number): string {
  return new Date(dayMillis(rnd, fromDay, toDay)).toISOString();
}

/** One schedule in this many is a view-less card schedule (viewName/embedViewId null, as captured). */
const VIEWLESS_EVERY = 4;

export function emptyState(): SandboxState {
  return {
    schedules: [],
    misconfigured: [],
    datasetAccess: new Map(),
    datasetTags: new Map(),
    certifications: new Map(),
    cards: new Set(),
    queuePermissions: new Map(),
    dataFilePermissions: new Map(),
    dataFiles: new Set(),
    filesets: new Map(),
    calculatedFields: {
      total: 0,
      onDatasets: 0,
      onCards: 0,
      inVisualizations: 0,
      locked: 0,
      invalid: 0,
      invalidLink: 0,
      archived: 0,
    },
    workflows: [],
    indexRequests: [],
    people: emptyPeople(),
    sharing: emptySharing(),
  };
}

/**
 * The instance at `seed` and `size`; people's and certifications' dates are relative to `now`
 * (default: the start of the current UTC day, so two sandboxes of one seed started the same day agree).
 */
export function generateState(seed: number, size: SandboxSize, now = startOfDay(Date.now())): SandboxState {
  const state = emptyState();
  const activeCards = addCards(state, stream(seed, 1), size.cards);
  addSchedules(state, stream(seed, 2), size.schedules, activeCards);
  // People first: the certified datasets are shared with the listed groups.
  addPeople(state.people, stream(seed, 9), now, size);
  addDatasets(state, stream(seed, 3), size.datasets);
  addQueues(state, stream(seed, 4), size.queues);
  addDataFiles(state, stream(seed, 5), size.dataFiles);
  addFilesets(state, stream(seed, 6), size.filesets, size.filesPerFileset);
  addWorkflows(state, stream(seed, 7), size.workflows);
  addCalculatedFields(state, stream(seed, 8));
  const certified = [...state.certifications].filter(([key, c]) => key.startsWith('DATA_SOURCE:') && c.state === 'ACTIVE').map(([key]) => key.slice('DATA_SOURCE:'.length));
  addSharing(state.sharing, stream(seed, 10), size, FILLER_OWNER_IDS, certified);
  addPlanted(state);
  addPlantedPeople(state, now);
  addPlantedSharing(state, now);
  return state;
}

/** Even-numbered cards are certified ACTIVE, the others never certified; returns the ACTIVE ids. */
function addCards(state: SandboxState, rnd: Random, count: number): number[] {
  const active: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = FILLER_ID_BASE.card + i;
    state.cards.add(String(id));
    const certified = i % 2 === 0;
    state.certifications.set(`CARD:${id}`, makeCertification(certified ? 'ACTIVE' : null, dayMillis(rnd, 0, 300)));
    if (certified) active.push(id);
  }
  return active;
}

/** Schedules send only ACTIVE cards, so a card-certification policy finds nothing in filler. */
function addSchedules(state: SandboxState, rnd: Random, count: number, activeCards: number[]): void {
  for (let i = 0; i < count; i++) {
    const cadence = rnd.pick(CADENCES);
    const frequency = cadence === 'Daily' ? 'DAILY' : cadence === 'Weekly' ? 'WEEKLY' : 'MONTHLY';
    const ownerId = Number(rnd.pick(USERS)[0]);
    state.schedules.push(
      makeSchedule({
        id: FILLER_ID_BASE.schedule + i,
        title: `${cadence} ${rnd.pick(SUBJECTS)} Report ${i + 1}`,
        cardId: activeCards.length > 0 ? rnd.pick(activeCards) : 7002,
        ownerId,
        owner: ownerId === 101,
        recipientCount: rnd.int(1, 25),
        cardCount: rnd.int(1, 6),
        frequency,
        daysToRun: frequency === 'DAILY' ? '*' : frequency === 'WEEKLY' ? rnd.pick(['MON', 'WED', 'FRI']) : String(rnd.int(1, 28)),
        hourOfDay: rnd.int(0, 23),
        minOfHour: rnd.pick([0, 15, 30, 45]),
        timezone: rnd.pick(FILLER_TIMEZONES),
        enabled: rnd.chance(0.85),
        startDate: dayMillis(rnd, -400, 100),
        nextRunDate: dayMillis(rnd, 500, 560),
        viewless: i % VIEWLESS_EVERY === VIEWLESS_EVERY - 1,
      }),
    );
  }
}

/** Every dataset has a USER OWNER; ACTIVE ones also a GROUP OWNER (a group of the group list, when it has one). */
function addDatasets(state: SandboxState, rnd: Random, count: number): void {
  const groups = state.people.groups.map((g) => [String(g.groupId), g.name] as const);
  for (let i = 0; i < count; i++) {
    const id = `ds-${String(i + 1).padStart(4, '0')}`;
    const certified = rnd.chance(0.4);
    const [ownerId, ownerName] = rnd.pick(USERS);
    const list: DatasetAccessEntry[] = [{ type: 'USER', id: ownerId, name: ownerName, accessLevel: 'OWNER' }];
    if (certified && groups.length > 0) {
      const [groupId, groupName] = rnd.pick(groups);
      list.push({ type: 'GROUP', id: groupId, name: groupName, accessLevel: 'OWNER' });
    }
    for (let n = rnd.int(0, 3); n > 0; n--) {
      const [uid, uname] = rnd.pick(USERS);
      if (list.some((e) => e.id === uid)) continue;
      list.push({ type: 'USER', id: uid, name: uname, accessLevel: rnd.pick(['CO_OWNER', 'CAN_EDIT', 'CAN_SHARE', 'CAN_VIEW']) });
    }
    state.datasetAccess.set(id, makeAccessList(list));
    state.datasetTags.set(id, [...new Set([rnd.pick(TAGS), rnd.pick(TAGS)])].slice(0, rnd.int(0, 2)));
    state.certifications.set(`DATA_SOURCE:${id}`, makeCertification(certified ? 'ACTIVE' : null, dayMillis(rnd, 0, 300)));
  }
}

/** ADMIN only through a group; every user entry grants something. Ids are UUIDs, as the platform's. */
function addQueues(state: SandboxState, rnd: Random, count: number): void {
  for (let i = 0; i < count; i++) {
    const [groupId, groupName] = rnd.pick(GROUPS);
    const entries: QueuePermissionEntry[] = [{ id: groupId, name: groupName, type: 'GROUP', permissions: ['ADMIN', 'READ'] }];
    for (let n = rnd.int(1, 3); n > 0; n--) {
      const [uid, uname] = rnd.pick(USERS);
      if (entries.some((e) => e.id === uid)) continue;
      const permissions = [...new Set([rnd.pick(NON_ADMIN), rnd.pick(NON_ADMIN)])];
      entries.push({ id: uid, name: uname, type: 'USER', permissions });
    }
    state.queuePermissions.set(rnd.uuid(), entries);
  }
}

/** Private files with READ grants only; entries carry entityType, as the platform's reads do. */
function addDataFiles(state: SandboxState, rnd: Random, count: number): void {
  for (let i = 0; i < count; i++) {
    const id = String(FILLER_ID_BASE.dataFile + i);
    state.dataFiles.add(id);
    const [uid] = rnd.pick(USERS);
    state.dataFilePermissions.set(id, {
      publicAccess: false,
      entries: [{ entityType: 'USER', entityId: uid, grant: 'READ', pass: 'NONE' }],
    });
  }
}

function addFilesets(state: SandboxState, rnd: Random, count: number, filesPer: number): void {
  for (let i = 0; i < count; i++) {
    const filesetId = rnd.uuid();
    const files = new Map<string, ReturnType<typeof makeFilesetFile>>();
    for (let f = 0; f < filesPer; f++) {
      const ext = rnd.pick(['csv', 'parquet', 'json', 'xlsx']);
      const path = `/${rnd.pick(['raw', 'curated', 'exports'])}/part-${String(f).padStart(3, '0')}.${ext}`;
      if (files.has(path)) continue;
      files.set(
        path,
        makeFilesetFile(filesetId, {
          id: rnd.uuid(),
          path,
          size: rnd.int(1_000, 50_000_000),
          created: isoDay(rnd, -200, 150),
          createdBy: Number(rnd.pick(USERS)[0]),
          hash: rnd.hex(64),
          hashAlgorithm: 'SHA_256_HEX',
          indexStatus: rnd.chance(0.2) ? 'QUEUED' : null,
        }),
      );
    }
    state.filesets.set(filesetId, files);
  }
}

function addWorkflows(state: SandboxState, rnd: Random, count: number): void {
  for (let i = 0; i < count; i++) {
    const subject = rnd.pick(SUBJECTS);
    state.workflows.push(
      makeWorkflow({
        id: rnd.uuid(),
        name: `${subject} ${rnd.pick(['approval', 'refresh', 'alerting', 'handoff'])} ${i + 1}`,
        description: `Generated ${subject.toLowerCase()} workflow`,
        owner: rnd.pick(USERS)[0],
        createdOn: isoDay(rnd, -300, 120),
      }),
    );
  }
}

/** Counts that add up; invalid and invalidLink are set by the planted data. */
function addCalculatedFields(state: SandboxState, rnd: Random): void {
  const onDatasets = rnd.int(40, 400);
  const onCards = rnd.int(20, 300);
  const total = onDatasets + onCards;
  Object.assign(state.calculatedFields, {
    total,
    onDatasets,
    onCards,
    inVisualizations: rnd.int(10, onCards),
    locked: rnd.int(0, 20),
    archived: rnd.int(0, 30),
  });
}
