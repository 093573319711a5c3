// How a listing pages, as the operations table declares it; on its own so the table does not
// import the pagination code (which imports the transport, which names the operations).
/** How an offset/total or cursor listing pages (an operation row's `page`). */
export interface PageShape {
  /** Where the items are in a page body: the first key present (`dataSources`, `fileSets` or `filesets`, …); `''`: the body is the array. */
  items: readonly string[];
  /** The item's id field (default `id`). */
  id?: string;
  /** offset/total: where the total is (dotted paths, the first present), and the page size. */
  total?: readonly string[];
  size: number;
  /** Where the limit and offset (or cursor) go: the query or the JSON body. */
  in: 'query' | 'body';
  limitName: string;
  offsetName?: string;
  /** cursor: where the next cursor is in a page body, and the name it is sent under. */
  next?: string;
  cursorName?: string;
  /** A listing that reports more than this many items cannot be read whole (a search cap). */
  maxTotal?: number;
  /** The items key may hold null (an empty listing, as the official schema allows): no items. */
  nullItems?: boolean;
  /**
   * offset/total: the total may be missing (the official schema has none): then pages are read
   * one after another until a page shorter than `size`.
   */
  totalOptional?: boolean;
  /**
   * Pages are not kept by the client's memo: every reader of the listing shares one run memo of
   * what it needs (the user directory, resources/people.ts), so a memo of the pages would only
   * keep each answer alive to the end of the run. A listing read by several parts is memoised
   * (its pages read once a run).
   */
  readOnce?: boolean;
}
