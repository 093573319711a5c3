// limit/skip endpoints read as an async iterator of pages. Stops on a short page (the
// SHORT_PAGE_IS_LAST assumption); refuses a page identical to the previous one (a server that
// ignores `skip` would loop forever).
import type { RequestSpec, Transport } from './http.js';
import type { ValidatedOperation } from './schemas.js';

export interface PagedRequest extends RequestSpec {
  operation: ValidatedOperation;
  method: 'GET';
}

export async function* pages<T>(
  transport: Transport,
  request: PagedRequest,
  pageSize: number,
): AsyncGenerator<T[], void, undefined> {
  let previous: string | undefined;
  for (let skip = 0; ; skip += pageSize) {
    const spec: PagedRequest = { ...request, query: { ...request.query, limit: pageSize, skip } };
    const page = await transport.getJson<T[]>(spec);
    if (page.length === 0) return;
    const fingerprint = JSON.stringify(page);
    if (fingerprint === previous) {
      throw transport.fail(spec, {
        kind: 'pagination',
        detail: `[GET] ${JSON.stringify(transport.describePath(spec))}: the page at skip=${skip} is identical to the page at skip=${skip - pageSize}: the server ignores skip; refusing to read further`,
      });
    }
    previous = fingerprint;
    yield page;
    if (page.length < pageSize) return;
  }
}
