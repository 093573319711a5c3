// Endpoints 1 and 2: report schedules and misconfigured reports, both limit/skip.
import {
  SCHEDULE_ASCENDING_DEFAULT,
  SCHEDULE_FILTER_DEFAULT,
  SCHEDULE_ORDER_BY_DEFAULT,
  SCHEDULE_QUERY_PARAMS as Q,
} from './assumptions.js';
import type { Transport } from './http.js';
import { pages } from './pagination.js';
import type { MisconfiguredReport, ReportSchedule, ScheduleFilter, ScheduleQuery } from './types.js';

export function listReportSchedules(
  transport: Transport,
  defaults: { pageSize: number; filter?: ScheduleFilter },
  query: ScheduleQuery = {},
): AsyncIterable<ReportSchedule[]> {
  return pages<ReportSchedule>(
    transport,
    {
      operation: 'listReportSchedules',
      method: 'GET',
      path: '/api/content/v1/reportschedules',
      query: {
        [Q.filter]: query.filter ?? defaults.filter ?? SCHEDULE_FILTER_DEFAULT,
        [Q.title]: query.title,
        [Q.orderBy]: query.orderBy ?? SCHEDULE_ORDER_BY_DEFAULT,
        [Q.isAscending]: query.isAscending ?? SCHEDULE_ASCENDING_DEFAULT,
      },
    },
    query.pageSize ?? defaults.pageSize,
  );
}

export function getMisconfiguredReports(transport: Transport, pageSize: number): AsyncIterable<MisconfiguredReport[]> {
  return pages<MisconfiguredReport>(
    transport,
    { operation: 'getMisconfiguredReports', method: 'GET', path: '/api/content/v1/reportschedules/misconfigured' },
    pageSize,
  );
}
