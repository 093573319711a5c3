// The schedule list's query, on its own so the operations table and the assumptions can name it
// without importing the client's types (which name the operations: a cycle).
export type ScheduleFilter = 'USER' | 'RECIPIENT' | 'OWNER' | 'ALL';
export type ScheduleOrderBy = 'startDate' | 'nextRunDate' | 'title';

export interface ScheduleQuery {
  filter?: ScheduleFilter; // default: the client's scheduleFilter, else SCHEDULE_FILTER_DEFAULT ('ALL')
  title?: string;
  orderBy?: ScheduleOrderBy; // always sent; default SCHEDULE_ORDER_BY_DEFAULT
  isAscending?: boolean;
  pageSize?: number;
}
