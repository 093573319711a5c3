// limit/skip endpoints read as an async iterator of pages. Stops on a short page (the
// SHORT_PAGE_IS_LAST assumption); refuses a page identical to the previous one (a server that
// ignores `skip` would loop forever) and an id already seen on an earlier page (rows that
// reorder between pages: REPEATED_ID_ENDS_LISTING), so a listing is whole or an error.
import type { RequestSpec, Transport } from './http.js';
import type { Schema } from './schemas.js';

/** Items' ids: every listing steward reads carries an `id`. */
const idOf = (item: unknown): unknown => (item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined);

export async function* pages<T>(
  transport: Transport,
  request: RequestSpec,
  schema: Schema,
  pageSize: number,
): AsyncGenerator<T[], void, undefined> {
  let previous: string | undefined;
  const seen = new Map<unknown, number>();
  for (let skip = 0; ; skip += pageSize) {
    const spec: RequestSpec = { ...request, query: { ...request.query, limit: pageSize, skip } };
    const page = await transport.getJson<T[]>(spec, schema);
    if (page.length === 0) return;
    const fingerprint = JSON.stringify(page);
    if (fingerprint === previous) {
      throw transport.fail(spec, {
        kind: 'pagination',
        detail: `[GET] ${JSON.stringify(transport.describePath(spec))}: the page at skip=${skip} is identical to the page at skip=${skip - pageSize}: the server ignores skip; refusing to read further`,
      });
    }
    previous = fingerprint;
    for (const item of page) {
      const id = idOf(item);
      if (id === undefined) continue;
      const firstSkip = seen.get(id);
      if (firstSkip !== undefined) {
        throw transport.fail(spec, {
          kind: 'pagination',
          detail: `[GET] ${JSON.stringify(transport.describePath(spec))}: the listing is incomplete: id ${JSON.stringify(id)} appears twice (${firstSkip === skip ? `on the page at skip=${skip}` : `on the pages at skip=${firstSkip} and skip=${skip}`}): rows repeat or reorder between pages, so others may have been skipped`,
        });
      }
      seen.set(id, skip);
    }
    yield page;
    if (page.length < pageSize) return;
  }
}
