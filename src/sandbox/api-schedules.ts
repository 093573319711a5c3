// 1. list report schedules, 2. misconfigured reports.
import type { ScheduleFilter, ScheduleOrderBy } from '../api/types.js';
import type { Handlers, RequestContext } from './context.js';
import type { SandboxSchedule } from './entities.js';
import { errorReply, HttpError, intParam, ok, type Reply } from './http.js';
import { listingView } from './listing-view.js';

/** Without `filter` the platform answers as for USER (its documented default). */
export const SANDBOX_SCHEDULE_FILTER_DEFAULT: ScheduleFilter = 'USER';
/** Schedules whose id is a multiple of this have the token's user among their recipients. */
export const SANDBOX_RECIPIENT_EVERY = 3;
export const MISCONFIGURED_LIMIT_DEFAULT = 100;

const FILTERS: readonly ScheduleFilter[] = ['USER', 'RECIPIENT', 'OWNER', 'ALL'];
const ORDER_BY: readonly ScheduleOrderBy[] = ['startDate', 'nextRunDate', 'title'];

function matchesFilter(s: SandboxSchedule, filter: ScheduleFilter): boolean {
  const recipient = s.id % SANDBOX_RECIPIENT_EVERY === 0;
  if (filter === 'OWNER') return s.owner;
  if (filter === 'RECIPIENT') return recipient;
  if (filter === 'USER') return s.owner || recipient;
  return true;
}

/** Titles sort as text; startDate and nextRunDate are epoch milliseconds inside `schedule`. */
function sortKey(s: SandboxSchedule, orderBy: ScheduleOrderBy): string | number {
  return orderBy === 'title' ? s.title : s.schedule[orderBy];
}

/** Sorted by orderBy, ties by id, so skip pages neither repeat nor drop rows. */
export function listReportSchedules(ctx: RequestContext): Reply {
  const { query } = ctx;
  const filter = (query.get('filter') ?? SANDBOX_SCHEDULE_FILTER_DEFAULT) as ScheduleFilter;
  if (!FILTERS.includes(filter)) throw new HttpError(400, `Invalid filter "${filter}": one of ${FILTERS.join(', ')}`);
  // ALL is gated on the content admin grant.
  if (filter === 'ALL' && !ctx.switches.adminGrant) throw new HttpError(403, 'filter ALL needs the content admin grant');
  const orderBy = query.get('orderBy') as ScheduleOrderBy | null;
  if (orderBy !== null && !ORDER_BY.includes(orderBy)) {
    throw new HttpError(400, `Invalid orderBy "${orderBy}": one of ${ORDER_BY.join(', ')}`);
  }
  const ascendingText = query.get('isAscending') ?? 'true';
  if (ascendingText !== 'true' && ascendingText !== 'false') {
    throw new HttpError(400, `Invalid isAscending "${ascendingText}": true or false`);
  }
  const limit = intParam(query, 'limit');
  const asked = ctx.switches.ignoreSkip ? 0 : (intParam(query, 'skip') ?? 0);
  const skip = ctx.switches.overlapPages && asked > 0 ? asked - 1 : asked;
  const title = query.get('title')?.toLowerCase();

  const key = JSON.stringify(['schedules', filter, title ?? null, orderBy, ascendingText]);
  const rows = listingView(ctx.state, key, skip, () => {
    const selected = ctx.state.schedules.filter((s) => matchesFilter(s, filter) && (title === undefined || s.title.toLowerCase().includes(title)));
    if (orderBy === null) return selected;
    const sign = ascendingText === 'true' ? 1 : -1;
    return selected.sort((a, b) => {
      const ka = sortKey(a, orderBy);
      const kb = sortKey(b, orderBy);
      const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
      return sign * (byKey !== 0 ? byKey : a.id - b.id);
    });
  });
  return ok(rows.slice(skip, limit === undefined ? undefined : skip + limit));
}

export function getMisconfiguredReports(ctx: RequestContext): Reply {
  const status = ctx.switches.misconfiguredStatus;
  if (status === 403) return errorReply(403, 'Forbidden: the token lacks permission to read misconfigured reports', true);
  if (status === 409) return errorReply(409, 'Conflict: misconfigured reports are being recalculated', true);
  const limit = intParam(ctx.query, 'limit') ?? MISCONFIGURED_LIMIT_DEFAULT;
  const skip = ctx.switches.ignoreSkip ? 0 : (intParam(ctx.query, 'skip') ?? 0);
  return ok(ctx.state.misconfigured.slice(skip, skip + limit));
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { listReportSchedules, getMisconfiguredReports } satisfies Handlers;
