// Report schedules: the schedule list joined by id with the misconfigured list. The
// misconfigured list is one paged read shared by all schedules (a run-memo part), so when it
// fails (403/409) only the policies reading `misconfigured`/`misconfiguration` error.
// The join is checked both ways: a misconfigured item whose id is in no schedule of the list
// proves the schedule list incomplete (a non-admin token, a server capping pages), and a verdict
// built on it would be a pass by omission, so it is an error, never a pass.
import type { MisconfiguredReport, ReportSchedule } from '../client/types.js';
import { noMemo, readAllPages } from './common.js';
import type { CollectContext, DocumentPart, ResourceKind } from './types.js';

/** What the shared schedule reads need: the API and the run memo. */
type ScheduleReads = Pick<CollectContext, 'api' | 'once'>;

/** Orphan ids named in the error before "and N more". */
const ORPHAN_IDS_SHOWN = 5;

/** The full schedule list, read once per run (cards need it too). */
export function allSchedules(ctx: ScheduleReads): Promise<ReportSchedule[]> {
  const once = ctx.once ?? noMemo;
  return once('reportSchedule:list', () => readAllPages(ctx.api.listReportSchedules()));
}

/** Why misconfigured items with no schedule behind them make the join unusable. */
export function orphanMessage(orphanIds: readonly number[]): string {
  const shown = orphanIds.slice(0, ORPHAN_IDS_SHOWN).join(', ');
  const more = orphanIds.length > ORPHAN_IDS_SHOWN ? ` and ${orphanIds.length - ORPHAN_IDS_SHOWN} more` : '';
  const subject = orphanIds.length === 1 ? `misconfigured report ${shown} is` : `misconfigured reports ${shown}${more} are`;
  return `${subject} not in the schedule list: the list is incomplete (listing with filter=ALL needs an admin token)`;
}

/** The misconfigured list by id, after checking every item has its schedule in the list. */
function misconfiguredById(ctx: ScheduleReads): Promise<Map<number, MisconfiguredReport>> {
  const once = ctx.once ?? noMemo;
  return once('reportSchedule:misconfigured', async () => {
    const [items, schedules] = await Promise.all([readAllPages(ctx.api.getMisconfiguredReports()), allSchedules(ctx)]);
    const listed = new Set(schedules.map((s) => s.id));
    const orphans = items.filter((m) => !listed.has(m.id)).map((m) => m.id);
    if (orphans.length > 0) throw new Error(orphanMessage(orphans));
    return new Map(items.map((m) => [m.id, m]));
  });
}

const misconfigured: DocumentPart = {
  name: 'misconfigured',
  async load(api, resource, once) {
    return (await misconfiguredById({ api, once })).has(Number(resource.doc.id));
  },
};

const misconfiguration: DocumentPart = {
  name: 'misconfiguration',
  async load(api, resource, once) {
    return (await misconfiguredById({ api, once })).get(Number(resource.doc.id)) ?? null;
  },
};

export const reportSchedule: ResourceKind = {
  name: 'reportSchedule',
  description: 'Report schedules (all of them, filter ALL), joined with the misconfigured-reports list.',
  live: true,
  documentSchema: {
    type: 'object',
    required: ['id', 'title', 'schedule'],
    properties: {
      id: { type: 'integer' },
      reportViewId: { type: 'integer' },
      pageId: { type: 'integer' },
      title: { type: 'string' },
      viewName: { type: 'string' },
      type: { type: 'string' },
      ownerId: { type: 'integer' },
      embedViewId: { type: 'integer' },
      owner: { type: 'boolean' },
      cardCount: { type: 'integer' },
      recipientCount: { type: 'integer' },
      cardId: { type: 'integer' },
      schedule: {
        type: 'object',
        properties: {
          frequency: { type: 'string' },
          daysToRun: { type: 'string' },
          hourOfDay: { type: 'integer' },
          minOfHour: { type: 'integer' },
          timezone: { type: 'string', description: 'IANA time zone name' },
          enabled: { type: 'boolean' },
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
  parts: { misconfigured, misconfiguration },
  async *collect(ctx) {
    const schedules = await allSchedules(ctx);
    // No schedule means no resource whose misconfigured part would run the cross-check, so it
    // runs here: an empty list next to misconfigured reports is an incomplete list, and a
    // misconfigured list that cannot be read cannot confirm the list is empty (fail closed).
    // This errors every reportSchedule policy, not only those reading the join: the engine does
    // not tell a kind which parts the selection reads.
    if (schedules.length === 0) {
      try {
        await misconfiguredById(ctx);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new Error(`the schedule list is empty and the misconfigured-reports list does not confirm it: ${why}`, {
          cause: err,
        });
      }
    }
    for (const s of schedules) {
      yield { kind: 'reportSchedule', id: String(s.id), name: s.title ?? null, doc: { ...s }, source: null };
    }
  },
  fixes: {},
};
