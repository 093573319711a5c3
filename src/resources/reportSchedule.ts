// Report schedules: the schedule list joined by id with the misconfigured list. The
// misconfigured list is one paged read shared by all schedules (a run-memo part), so when it
// fails (403/409) only the policies reading `misconfigured`/`misconfiguration` error.
import type { InstanceApi, MisconfiguredReport, ReportSchedule } from '../client/types.js';
import { noMemo, readAllPages } from './common.js';
import type { CollectContext, DocumentPart, ResourceKind, RunMemo } from './types.js';

/** The full schedule list, read once per run (cards need it too). */
export function allSchedules(ctx: CollectContext): Promise<ReportSchedule[]> {
  const once = ctx.once ?? noMemo;
  return once('reportSchedule:list', () => readAllPages(ctx.api.listReportSchedules()));
}

function misconfiguredById(api: InstanceApi, once: RunMemo = noMemo): Promise<Map<number, MisconfiguredReport>> {
  return once('reportSchedule:misconfigured', async () => {
    const items = await readAllPages(api.getMisconfiguredReports());
    return new Map(items.map((m) => [m.id, m]));
  });
}

const misconfigured: DocumentPart = {
  name: 'misconfigured',
  async load(api, resource, once) {
    return (await misconfiguredById(api, once)).has(Number(resource.doc.id));
  },
};

const misconfiguration: DocumentPart = {
  name: 'misconfiguration',
  async load(api, resource, once) {
    return (await misconfiguredById(api, once)).get(Number(resource.doc.id)) ?? null;
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
    for (const s of await allSchedules(ctx)) {
      yield { kind: 'reportSchedule', id: String(s.id), name: s.title ?? null, doc: { ...s }, source: null };
    }
  },
  fixes: {},
};
