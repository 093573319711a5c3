// Report schedules: the schedule list joined by id with the misconfigured list. The
// misconfigured list is one paged read shared by all schedules (a run-memo part), so when it
// fails (403/409) only the policies reading `misconfigured`/`misconfiguration` error.
// The join is checked both ways: a misconfigured item whose id is in no schedule of the list
// proves the schedule list incomplete (a non-admin token, a server capping pages), and a verdict
// built on it would be a pass by omission, so it is an error, never a pass.
import { SCHEDULE_ALL_GRANT, SCHEDULE_FILTER_DEFAULT } from '../../api/assumptions.js';
import { isApiError } from '../../api/errors.js';
import type { MisconfiguredReport, ReportSchedule, ScheduleFilter } from '../../api/types.js';
import { firstPage, noMemo, readAllPages } from '../common.js';
import { ownerPart, ownerSchema, userOwner } from '../people.js';
import type { CollectContext, CollectedResource, DocumentPart, ResourceDocument, ResourceKind, RunMemo, Scope } from '../types.js';

/** The schedule's `ownerId` resolved against the users (null: the schedule names none). */
const owner = ownerPart('listReportSchedules', async (_api, r) => userOwner(r.doc.ownerId, `listReportSchedules: schedule ${r.id}`, 'ownerId'));

/** What the shared schedule reads need: the API, the run memo and (collecting) the scope's filter. */
type ScheduleReads = Pick<CollectContext, 'api' | 'once'> & { scope?: Pick<Scope, 'scheduleFilter'> };

/** The filter a run lists schedules with (instance.scheduleFilter, default ALL: the whole instance). */
const filterOf = (ctx: ScheduleReads): ScheduleFilter => ctx.scope?.scheduleFilter ?? SCHEDULE_FILTER_DEFAULT;

/** The run-memo keys of the misconfigured list by id, and of its cross-check with the schedule list. */
const MISCONFIGURED_KEY = 'reportSchedule:misconfigured';
const MISCONFIGURED_CHECKED_KEY = 'reportSchedule:misconfigured-checked';

/** Orphan ids named in the error before "and N more". */
const ORPHAN_IDS_SHOWN = 5;

/** The schedule list and the filter it was read with (the cross-check depends on it). */
interface ScheduleList {
  schedules: ReportSchedule[];
  filter: ScheduleFilter;
}

/** Every listed schedule's id and the filter the list was read with: what the misconfigured cross-check needs. */
interface ScheduleIds {
  ids: Set<number>;
  filter: ScheduleFilter;
}

/**
 * The run's one schedule listing: its pages as they arrive (the kind judges a page while the
 * next ones are read), every schedule's id (kept as the pages arrive: the misconfigured
 * cross-check) and, when kept, the whole list (cards join on it).
 */
interface ScheduleListing {
  whole: Promise<ScheduleList>;
  ids: Promise<ScheduleIds>;
  pages(): AsyncGenerator<ReportSchedule[], void, undefined>;
}

/**
 * The schedule listing, started once per run (cards need it too): the first reader's filter
 * holds. `keep` false (the kind's own collection, when no join of the run needs the whole list)
 * drops each page once the kind has judged it; `keepIds` false (no misconfigured part read)
 * keeps not even the ids.
 */
function scheduleListing(ctx: ScheduleReads, keep = true, keepIds = true): Promise<ScheduleListing> {
  const once = ctx.once ?? noMemo;
  return once('reportSchedule:list', async () => startListing(ctx.api, filterOf(ctx), keep, keepIds));
}

/** Whether a run may need the whole schedule list: cards collected (they join on it). The misconfigured join needs only the ids. */
const wholeNeeded = (reads: CollectContext['reads']) => !reads || reads.kinds.has('card');
/** Whether a run may need every schedule's id: a misconfigured part read (its cross-check). */
const idsNeeded = (reads: CollectContext['reads']) => !reads || reads.parts.has(misconfigured.name) || reads.parts.has(misconfiguration.name);

/**
 * Pages the listing reads ahead of the kind's reader when it drops them: a replayed snapshot
 * answers at once, and without a bound its whole list was parsed and held before the first
 * page was judged. Live, the client's read-ahead (api/pagination.ts) stays up to one window
 * past the page this loop waits for.
 */
const LISTING_PAGES_AHEAD = 1;

function startListing(api: ScheduleReads['api'], filter: ScheduleFilter, keep: boolean, keepIds: boolean): ScheduleListing {
  // Pages not yet read by pages(); with `keep`, every page (`whole` joins on them).
  const pages: (ReportSchedule[] | undefined)[] = [];
  const ids = new Set<number>();
  let listedAny = false;
  let dropped = false;
  let taken = 0;
  let wakeListing = () => {};
  let end: { error?: unknown } | undefined;
  let wake = () => {};
  let arrived = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const notify = () => {
    const woken = wake;
    arrived = new Promise<void>((resolve) => {
      wake = resolve;
    });
    woken();
  };
  const listed = (async () => {
    try {
      for await (const page of api.listReportSchedules({ filter })) {
        if (keepIds) for (const s of page) ids.add(s.id);
        listedAny ||= page.length > 0;
        pages.push(page);
        notify();
        while (!keep && pages.length - taken >= LISTING_PAGES_AHEAD) {
          await new Promise<void>((resolve) => {
            wakeListing = resolve;
          });
        }
      }
      end = {};
    } catch (err) {
      end = { error: refusedFilter(err, filter) ?? err };
      throw end.error;
    } finally {
      notify();
    }
  })();
  const whole = listed.then((): ScheduleList => {
    // Fails closed: a list whose pages were dropped is never handed on as the whole list.
    if (dropped) throw new Error('internal: the schedule list was judged page by page and not kept, yet a join asked for it whole');
    return { schedules: (pages as ReportSchedule[][]).flat(), filter };
  });
  const allIds = listed.then((): ScheduleIds => {
    // Fails closed, as `whole` does: ids not kept are never handed on as an empty list.
    if (!keepIds && listedAny) throw new Error('internal: the schedule ids were not kept, yet the misconfigured join asked for them');
    return { ids, filter };
  });
  // Each is read by whoever asks for it, or by nobody.
  whole.catch(() => {});
  allIds.catch(() => {});
  return {
    whole,
    ids: allIds,
    async *pages() {
      // Dropped pages cannot be read again: a second reader fails closed, never an empty list.
      if (!keep && dropped) throw new Error('internal: the schedule list was judged page by page once this run and not kept');
      for (let i = 0; ; ) {
        while (i < pages.length) {
          const page = pages[i]!;
          if (!keep) {
            pages[i] = undefined;
            dropped = true;
            taken++;
            wakeListing();
          }
          i++;
          yield page;
        }
        if (end) {
          if ('error' in end) throw end.error;
          return;
        }
        await arrived;
      }
    },
  };
}

function scheduleList(ctx: ScheduleReads): Promise<ScheduleList> {
  return scheduleListing(ctx).then((listing) => listing.whole);
}

export async function allSchedules(ctx: ScheduleReads): Promise<ReportSchedule[]> {
  return (await scheduleList(ctx)).schedules;
}

/** A refused filter=ALL (400/403) said in terms of the grant it needs and the way to fall back. */
function refusedFilter(err: unknown, filter: ScheduleFilter): Error | undefined {
  if (filter !== 'ALL' || !isApiError(err) || (err.status !== 400 && err.status !== 403)) return undefined;
  return new Error(
    `listing every report schedule (filter=ALL) was refused with ${err.status}: the token's user needs the ${SCHEDULE_ALL_GRANT} grant; or set instance.scheduleFilter: USER in steward.yaml to check only the token user's own schedules (${err.message})`,
    { cause: err },
  );
}

/** Why misconfigured items with no schedule behind them make the join unusable. */
export function orphanMessage(orphanIds: readonly number[]): string {
  const shown = orphanIds.slice(0, ORPHAN_IDS_SHOWN).join(', ');
  const more = orphanIds.length > ORPHAN_IDS_SHOWN ? ` and ${orphanIds.length - ORPHAN_IDS_SHOWN} more` : '';
  const subject = orphanIds.length === 1 ? `misconfigured report ${shown} is` : `misconfigured reports ${shown}${more} are`;
  return `${subject} not in the schedule list: the list is incomplete (listing with filter=ALL needs an admin token)`;
}

/** The misconfigured list by id (one read; the parts' values come from it as soon as it is read). */
function misconfiguredById(ctx: ScheduleReads): Promise<Map<number, MisconfiguredReport>> {
  const once = ctx.once ?? noMemo;
  return once(MISCONFIGURED_KEY, async () => new Map((await readAllPages(ctx.api.getMisconfiguredReports())).map((m) => [m.id, m])));
}

/**
 * The misconfigured list by id, once every item is found to have its schedule in the list (the
 * parts' `verify`: the list's ids are complete only at its end).
 */
function misconfiguredChecked(ctx: ScheduleReads): Promise<Map<number, MisconfiguredReport>> {
  const once = ctx.once ?? noMemo;
  return once(MISCONFIGURED_CHECKED_KEY, async () => {
    const [byId, list] = await Promise.all([misconfiguredById(ctx), scheduleListing(ctx).then((listing) => listing.ids)]);
    const orphans = [...byId.keys()].filter((id) => !list.ids.has(id));
    // With a narrower filter the list is the token user's own by choice: others' misconfigured
    // reports are expected to be missing from it.
    if (orphans.length > 0 && list.filter === 'ALL') throw new Error(orphanMessage(orphans));
    return byId;
  });
}

const verifyMisconfigured = async (api: ScheduleReads['api'], once?: RunMemo) => void (await misconfiguredChecked({ api, once }));

/** The misconfigured list by id when this run has already read it, else undefined. */
const misconfiguredKnown = (once?: RunMemo) => once?.settled?.<Map<number, MisconfiguredReport>>(MISCONFIGURED_KEY)?.value;

const misconfigured: DocumentPart = {
  name: 'misconfigured',
  operation: 'getMisconfiguredReports',
  async load(api, resource, once) {
    return (await misconfiguredById({ api, once })).has(Number(resource.doc.id));
  },
  loaded(resource, once) {
    const byId = misconfiguredKnown(once);
    return byId && { value: byId.has(Number(resource.doc.id)) };
  },
  verify: verifyMisconfigured,
};

const misconfiguration: DocumentPart = {
  name: 'misconfiguration',
  operation: 'getMisconfiguredReports',
  async load(api, resource, once) {
    return (await misconfiguredById({ api, once })).get(Number(resource.doc.id)) ?? null;
  },
  loaded(resource, once) {
    const byId = misconfiguredKnown(once);
    return byId && { value: byId.get(Number(resource.doc.id)) ?? null };
  },
  verify: verifyMisconfigured,
};

/**
 * The schedule's document: its fields with the platform's `owner` flag renamed `ownedByCaller`
 * (`owner` is the resolved owner part). Copied key by key in the answer's order: a rest pattern
 * then a spread gave every document a hidden class of its own (~500 bytes a schedule).
 */
function scheduleDoc(s: ReportSchedule): ResourceDocument {
  const doc = {} as ResourceDocument;
  for (const key in s) if (key !== 'owner') doc[key] = s[key as keyof ReportSchedule];
  if (s.owner !== undefined) doc.ownedByCaller = s.owner;
  return doc;
}

export const reportSchedule: ResourceKind = {
  name: 'reportSchedule',
  description:
    'Report schedules (all of them, filter ALL, unless instance.scheduleFilter narrows it), joined with the misconfigured-reports list.',
  live: true,
  inputs: {},
  operations: ['listReportSchedules'],
  documentSchema: {
    type: 'object',
    required: ['id', 'title', 'schedule'],
    properties: {
      id: { type: 'integer' },
      reportViewId: { type: ['integer', 'null'] },
      pageId: { type: ['integer', 'null'] },
      title: { type: ['string', 'null'] },
      viewName: { type: ['string', 'null'], description: 'null for schedules without a view' },
      type: { type: ['string', 'null'] },
      ownerId: { type: ['integer', 'null'] },
      embedViewId: { type: ['integer', 'null'] },
      ownedByCaller: { type: ['boolean', 'null'], description: "the platform's `owner` flag: whether the token's user owns the schedule" },
      owner: ownerSchema,
      cardCount: { type: ['integer', 'null'] },
      recipientCount: { type: ['integer', 'null'] },
      cardId: { type: ['integer', 'null'] },
      schedule: {
        type: 'object',
        properties: {
          frequency: { type: 'string', description: 'MONTHLY, WEEKLY, DAILY seen' },
          daysToRun: { type: ['string', 'null'] },
          hourOfDay: { type: ['integer', 'null'] },
          minOfHour: { type: ['integer', 'null'] },
          timezone: { type: ['string', 'null'], description: 'IANA time zone name' },
          enabled: { type: 'boolean' },
          startDate: { type: ['integer', 'string', 'null'], description: 'epoch milliseconds' },
          nextRunDate: { type: ['integer', 'string', 'null'], description: 'epoch milliseconds' },
        },
      },
      misconfigured: { type: 'boolean', description: 'true when the schedule is in the misconfigured-reports list' },
      misconfiguration: {
        description: 'the misconfigured-reports item of this schedule, or null',
        anyOf: [
          {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              title: { type: 'string' },
              schedule: { type: 'object' },
              active: { type: 'boolean' },
            },
          },
          { type: 'null' },
        ],
      },
    },
  },
  parts: { misconfigured, misconfiguration, owner },
  probes: [
    {
      id: 'scheduleFilter',
      verifiesGrant: true,
      when: ['listReportSchedules'],
      plan: ({ scope }) => {
        const filter = scope.scheduleFilter ?? SCHEDULE_FILTER_DEFAULT;
        return {
          check: `report schedules can be listed with filter=${filter}`,
          asked: `GET report schedules (filter=${filter}, limit 1)`,
          run: (api) => firstPage(api.listReportSchedules({ filter, pageSize: 1 })),
          fix: () =>
            filter === 'ALL'
              ? `give the token's user the ${SCHEDULE_ALL_GRANT} grant, or set instance.scheduleFilter: USER to check only their own schedules`
              : 'the token user cannot list their own schedules: check the token',
        };
      },
    },
    {
      id: 'misconfigured',
      when: ['getMisconfiguredReports'],
      plan: () => ({
        check: 'the misconfigured-reports list can be read',
        asked: 'GET the first page of misconfigured reports',
        run: (api) => firstPage(api.getMisconfiguredReports()),
        fix: (status) => (status === 409 ? 'the list is being recalculated (409): try again later' : "give the token's user access to the misconfigured-reports list"),
      }),
    },
  ],
  completeWith: 'content.admin',
  knownPartial(scope) {
    const filter = scope.scheduleFilter;
    if (filter === undefined || filter === 'ALL') return null;
    return `report schedules were listed with filter=${filter} (instance.scheduleFilter): only the token user's schedules were checked, not the whole instance`;
  },
  async *collect(ctx) {
    let count = 0;
    // Yielded page by page as the listing reads them: the engine can judge a page meanwhile.
    for await (const page of (await scheduleListing(ctx, wholeNeeded(ctx.reads), idsNeeded(ctx.reads))).pages()) {
      count += page.length;
      yield page.map((s): CollectedResource => ({ kind: 'reportSchedule', id: String(s.id), name: s.title ?? null, doc: scheduleDoc(s), source: null }));
    }
    // No schedule means no resource whose misconfigured part would run the cross-check, so it
    // runs here: an empty list next to misconfigured reports is an incomplete list, and a
    // misconfigured list that cannot be read cannot confirm the list is empty (fail closed).
    // This errors every reportSchedule policy, not only those reading the join: the engine does
    // not tell a kind which parts the selection reads.
    if (count === 0) {
      try {
        await misconfiguredChecked(ctx);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new Error(`the schedule list is empty and the misconfigured-reports list does not confirm it: ${why}`, {
          cause: err,
        });
      }
    }
  },
};
