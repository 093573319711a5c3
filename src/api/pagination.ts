// limit/skip endpoints read as an async iterator of pages. Stops on a short page (the
// SHORT_PAGE_IS_LAST assumption); refuses a page identical to the previous one (a server that
// ignores `skip` would loop forever) and an id already seen on an earlier page (rows that
// reorder between pages: REPEATED_ID_ENDS_LISTING), so a listing is whole or an error.
import type { RequestSpec, Transport } from './http.js';
import type { PageShape } from './page-shape.js';
import type { Schema } from './schemas.js';
import { SeenIds } from './seen-ids.js';

export type { PageShape } from './page-shape.js';

/**
 * Full limit/skip pages read one after another before the next pages are read ahead: a list
 * this short costs exactly its pages; a longer one is worth a few requests past its end.
 */
export const SPECULATE_AFTER_PAGES = 3;

/**
 * limit/skip pages in order. With no total to plan from, a long list's next pages are read
 * speculatively: from the SPECULATE_AFTER_PAGES-th full page on, the window of pages requested
 * ahead doubles after each full page, up to `ahead` (the client's concurrency), and moves on
 * as soon as any full page arrives. A short page ends the list; at most `ahead` − 1 requests go
 * past its end, their answers (or errors) are ignored. However the listing ends, it waits for
 * the requests in flight, so no request outlives it.
 */
export async function* pages<T>(
  transport: Transport,
  request: RequestSpec,
  schema: Schema,
  pageSize: number,
  ahead = 1,
): AsyncGenerator<T[], void, undefined> {
  let previous: T[] | undefined;
  const guard = idGuard(transport, 'id');
  const specAt = (index: number): RequestSpec => ({ ...request, query: { ...request.query, limit: pageSize, skip: index * pageSize } });
  // Pages requested, by index; a page the reader took is let go (undefined).
  const requested: (Promise<T[]> | undefined)[] = [];
  let window = 1;
  let ended = false;
  // The page the reader waits for: the read-ahead runs at most one window past it.
  let reading = 0;
  const requestUpTo = (last: number) => {
    while (!ended && requested.length <= Math.min(last, MAX_PAGES - 1)) {
      const index = requested.length;
      // Not memoised: each limit/skip listing is read once a run (its kind's run memo), and a
      // memo would keep all its pages alive after they were judged.
      const page = transport.getJson<T[]>(specAt(index), schema, false);
      // A full page proves the list goes on past it: the window moves on from there at once,
      // not when the pages before it arrive (one slow page would hold the others back), yet
      // never more than one window past the page the reader waits for. Pages that arrive early
      // wait in memory, parsed, until judged; at two windows (up to 16 pages at concurrency 8)
      // a live run of 300,000 schedules on Node 24 peaked over 250 MB in 2 of 16 runs, at one
      // window at most 219 MB in 12, for ~3 % more wall time (BENCHMARKS.md). Only a full page
      // moves it, so no request starts more than window - 1 pages past the short one.
      // (test/api/pagination-rules.test.ts holds one page back and counts the pages asked for.)
      page.then((items) => {
        if (window > 1 && items.length === pageSize) requestUpTo(Math.min(index, reading) + window);
      }, () => {}); // an error is read when its turn comes
      requested.push(page);
    }
  };
  try {
    yield* readInOrder();
  } finally {
    // Whatever ended the listing (its end, an error, a reader that stopped), no request outlives it.
    ended = true;
    await settle(requested);
  }

  async function* readInOrder(): AsyncGenerator<T[], void, undefined> {
    for (let index = 0; ; index++) {
      const spec = specAt(index);
      const skip = index * pageSize;
      if (index >= MAX_PAGES) throw incomplete(transport, spec, `more than ${MAX_PAGES} pages`);
      reading = index;
      requestUpTo(index);
      const page = await requested[index]!;
      // The reader has it: the listing keeps no page it handed on (a long list stays one page deep).
      requested[index] = undefined;
      if (page.length === 0) return;
      // An identical page starts with the same item: pages are compared as text only then
      // (stringifying every page of a long list costs more than reading it).
      // Stryker disable next-line ConditionalExpression: sameStart only spares the text comparison
      if (previous !== undefined && sameStart(page, previous) && JSON.stringify(page) === JSON.stringify(previous)) {
        throw transport.fail(spec, {
          kind: 'pagination',
          detail: `[GET] ${JSON.stringify(transport.describePath(spec))}: the page at skip=${skip} is identical to the page at skip=${skip - pageSize}: the server ignores skip; refusing to read further`,
        });
      }
      guard(spec, page, `skip=${skip}`);
      previous = page;
      if (page.length < pageSize) {
        yield page;
        return;
      }
      if (index + 1 >= SPECULATE_AFTER_PAGES) window = Math.min(window * 2, Math.max(1, ahead));
      // Before the list proves long, the next page is asked for only when the reader wants it.
      if (window > 1) requestUpTo(index + window);
      yield page;
    }
  }
}

/** Whether two pages begin with the same id (or have no ids to tell them apart). */
function sameStart(page: readonly unknown[], previous: readonly unknown[]): boolean {
  const a = page[0] as { id?: unknown } | null;
  const b = previous[0] as { id?: unknown } | null;
  // Stryker disable next-line all: true only means the pages are compared as text
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || !('id' in a)) return true;
  // Stryker disable next-line ConditionalExpression: true only means the pages are compared as text
  return a.id === b.id;
}

async function settle(requests: readonly (Promise<unknown> | undefined)[]): Promise<void> {
  await Promise.allSettled(requests);
}

/** The hard cap of pages one listing may take: past it the listing is incomplete (a server that never ends). */
export const MAX_PAGES = 10_000;

/** The value at a dotted path of a page body; `''` is the body itself (a bare-array listing). */
const at = (body: unknown, dotted: string): unknown =>
  dotted === '' ? body : dotted.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), body);

function itemsOf(body: unknown, shape: PageShape): unknown[] | undefined {
  for (const key of shape.items) {
    const v = at(body, key);
    if (Array.isArray(v)) return v;
    if (v === null && shape.nullItems) return [];
  }
  return undefined;
}

/** One page request of a listing: the paging parameters in the query or the body. */
function pageSpec(request: RequestSpec, shape: PageShape, position: Record<string, string | number>): RequestSpec {
  const paging = { [shape.limitName]: shape.size, ...position };
  if (shape.in === 'query') return { ...request, query: { ...request.query, ...paging } };
  return { ...request, body: { ...(request.body as object | undefined), ...paging } };
}

/**
 * Ids seen so far, each with the page (`skip=100`, `offset=50`, `page 3`) it was first on: a
 * repeat ends the listing as incomplete, naming both pages.
 */
function idGuard(transport: Transport, idKey: string) {
  const seen = new SeenIds();
  // Stryker disable next-line ArrayDeclaration: an entry before the first only shifts every index alike
  const pages: string[] = [];
  return (spec: RequestSpec, items: readonly unknown[], page: string) => {
    const index = pages.push(page) - 1;
    for (const item of items) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: every listing's schema requires objects with their id
      const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[idKey] : undefined;
      // Stryker disable next-line ConditionalExpression: every listing's schema requires the id
      if (id === undefined) continue;
      const first = seen.firstOn(id, index);
      if (first !== undefined) {
        const where = first === index ? `on the page at ${page}` : `on the pages at ${pages[first]} and ${page}`;
        throw incomplete(
          transport,
          spec,
          `id ${JSON.stringify(id)} appears twice (${where}): rows repeat or reorder between pages, so others may have been skipped`,
        );
      }
    }
  };
}

function incomplete(transport: Transport, spec: RequestSpec, why: string) {
  return transport.fail(spec, {
    kind: 'pagination',
    detail: `[${spec.method}] ${JSON.stringify(transport.describePath(spec))}: the listing is incomplete: ${why}`,
  });
}

function drift(transport: Transport, spec: RequestSpec, field: string) {
  return transport.fail(spec, {
    kind: 'drift',
    field,
    detail: `API drift at ${field}: missing (${requestLabelOf(spec, transport)})`,
  });
}

const requestLabelOf = (spec: RequestSpec, transport: Transport) => `[${spec.method}] ${JSON.stringify(transport.describePath(spec))}`;

/** A listing whose page shape the operations table declares (offset-total and cursor paging). */
export interface ShapedListing {
  transport: Transport;
  request: RequestSpec;
  schema: Schema;
  shape: PageShape;
}

/**
 * One page's body and its items (at one of the shape's keys); a body without them is drift.
 * Memoised unless the shape says its listing is read once a run (`readOnce`).
 */
async function readPage(listing: ShapedListing, spec: RequestSpec): Promise<{ body: unknown; items: unknown[] }> {
  const body = await listing.transport.getJson<unknown>(spec, listing.schema, !listing.shape.readOnce);
  const items = itemsOf(body, listing.shape);
  if (!items) throw drift(listing.transport, spec, listing.shape.items.join(' or '));
  return { body, items };
}

/**
 * Offset listings with a total (datasets, the search API, file sets): the first page says the
 * total, then the pages after it are requested up to `ahead` (the client's concurrency) past the
 * page the reader waits for, and yielded in order. An empty page before the total, a total that
 * changes, a repeated id, a total over the listing's cap or more than MAX_PAGES pages:
 * incomplete, never a shorter list.
 */
export async function* offsetPages<T>(listing: ShapedListing, ahead = 1): AsyncGenerator<T[], void, undefined> {
  const { transport, request, shape } = listing;
  const guard = idGuard(transport, shape.id ?? 'id');
  // Stryker disable next-line StringLiteral: every offset shape declares offsetName
  const specAt = (offset: number) => pageSpec(request, shape, { [shape.offsetName ?? 'offset']: offset });
  const read = async (offset: number) => {
    const spec = specAt(offset);
    const { body, items } = await readPage(listing, spec);
    const total = (shape.total ?? []).map((k) => at(body, k)).find((v) => typeof v === 'number') as number | undefined;
    // Stryker disable next-line ArrayDeclaration: every shape whose total is required declares its keys
    if (total === undefined && !shape.totalOptional) throw drift(transport, spec, (shape.total ?? []).join(' or '));
    return { spec, items, total };
  };
  const first = await read(0);
  if (first.total === undefined) {
    yield* untilShortPage(first);
    return;
  }
  const total = first.total;
  if (shape.maxTotal !== undefined && total > shape.maxTotal) {
    throw incomplete(transport, first.spec, `${total} items, more than the ${shape.maxTotal} this listing can return`);
  }
  const offsets: number[] = [];
  for (let o = first.items.length; first.items.length > 0 && o < total; o += shape.size) offsets.push(o);
  if (offsets.length + 1 > MAX_PAGES) throw incomplete(transport, specAt(0), `${total} items need more than ${MAX_PAGES} pages`);
  // Requested up to one window past the page the reader waits for: every page requested at once
  // waited parsed until its turn (100,000 users: ~365 MB peak; at one window ~290 MB, and less
  // CPU, in as much time). An unread rejection is handled when its turn comes.
  const rest: (Promise<Awaited<ReturnType<typeof read>>> | undefined)[] = [];
  const requestUpTo = (last: number) => {
    while (rest.length < offsets.length && rest.length <= last) {
      const page = read(offsets[rest.length]);
      page.catch(() => {});
      rest.push(page);
    }
  };
  let offset = 0;
  try {
    for (let index = -1; index < offsets.length; index++) {
      // The first page is the reader's before another is asked for: a reader that stops there
      // (`steward doctor`'s probe of a listing) costs one request, not a window of them.
      if (index >= 0) requestUpTo(index + Math.max(1, ahead));
      const page = index < 0 ? first : await rest[index]!;
      // The reader has it: the listing keeps no page it handed on (unless the client's memo does).
      // Stryker disable next-line ConditionalExpression: rest[-1] is no page, only a property no one reads
      if (index >= 0) rest[index] = undefined;
      const { spec, items, total: reported } = page;
      if (reported !== total) throw incomplete(transport, spec, `the total changed from ${total} to ${reported} while paging`);
      if (items.length === 0 && offset < total) throw incomplete(transport, spec, `an empty page at offset=${offset} of ${total}`);
      guard(spec, items, `offset=${offset}`);
      if (items.length > 0) yield items as T[];
      offset += items.length;
    }
  } finally {
    // An error or a reader that stopped early still waits for the pages in flight: no request outlives the listing.
    await settle(rest);
  }
  if (offset < total) throw incomplete(transport, specAt(offset), `${offset} of ${total} items were listed`);

  /**
   * No total announced (allowed by `totalOptional`): pages one after another until a short page
   * (SHORT_PAGE_IS_LAST); a page that announces a total after the first did not is incomplete.
   */
  async function* untilShortPage(page: Awaited<ReturnType<typeof read>>): AsyncGenerator<T[], void, undefined> {
    for (let n = 1, offset = 0; ; n++) {
      if (page.total !== undefined) throw incomplete(transport, page.spec, `a total (${page.total}) appeared on a later page than the first`);
      guard(page.spec, page.items, `offset=${offset}`);
      if (page.items.length > 0) yield page.items as T[];
      if (page.items.length < shape.size) return;
      offset += page.items.length;
      // Refused before the page past the cap is requested, as the other shapes do.
      if (n >= MAX_PAGES) throw incomplete(transport, specAt(offset), `more than ${MAX_PAGES} pages`);
      page = await read(offset);
    }
  }
}

/**
 * A cursor listing ends at its first empty page, whatever cursor comes with it: a cursor is no
 * proof of more (a captured file page hands one out beside 2 files), and a server that hands a
 * new cursor with every empty page would otherwise be followed for MAX_PAGES requests.
 */
export const EMPTY_PAGE_ENDS_CURSOR_LISTING = true;

/**
 * Cursor listings (files of a file set): pages until no next cursor or an empty page
 * (EMPTY_PAGE_ENDS_CURSOR_LISTING); a repeated cursor or id is incomplete.
 */
export async function* cursorPages<T>(listing: ShapedListing): AsyncGenerator<T[], void, undefined> {
  const { transport, request, shape } = listing;
  const guard = idGuard(transport, shape.id ?? 'id');
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; ; n++) {
    // Stryker disable next-line StringLiteral: every cursor shape declares cursorName
    const spec = pageSpec(request, shape, cursor === undefined ? {} : { [shape.cursorName ?? 'next']: cursor });
    if (n >= MAX_PAGES) throw incomplete(transport, spec, `more than ${MAX_PAGES} pages`);
    const { body, items } = await readPage(listing, spec);
    guard(spec, items, `page ${n + 1}`);
    if (items.length === 0 && EMPTY_PAGE_ENDS_CURSOR_LISTING) return;
    yield items as T[];
    // Stryker disable next-line StringLiteral: every cursor shape declares next
    const next = at(body, shape.next ?? 'next');
    if (next === undefined || next === null || next === '') return;
    if (typeof next !== 'string' || cursors.has(next)) throw incomplete(transport, spec, `the cursor ${JSON.stringify(next)} repeats`);
    cursors.add(next);
    cursor = next;
  }
}
