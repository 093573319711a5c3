// What the client gives ofetch in place of fetch's own classes (api/http.ts): the headers of a
// request or an answer (its `Headers` option), names compared without case and an answer's
// repeated header joined as fetch joins it (`a, b`), and an answer as ofetch reads it. The
// global Headers and Response would do, but a first read of either loads Node's undici, ~26 ms
// of CPU on Node 24 and ~15 on Node 20 at every live start, for a client whose wire is node:http
// (connection-pool.ts). Only what ofetch and the client call: get, set, has, append, iteration.

/** A header's name and value. */
type Pair = readonly [string, string];

export class WireHeaders implements Iterable<[string, string]> {
  readonly #values = new Map<string, string>();

  /** From a record (the client's request headers), pairs (an answer's, as they came) or headers. */
  constructor(init?: Iterable<Pair> | Record<string, string>) {
    if (!init) return;
    const pairs: Iterable<Pair> = Symbol.iterator in init ? (init as Iterable<Pair>) : Object.entries(init);
    for (const [name, value] of pairs) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.#values.get(key);
    this.#values.set(key, had === undefined ? value : `${had}, ${value}`);
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), value);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/**
 * The record node:http takes, of the headers ofetch hands the fetch: always WireHeaders, made
 * from the client's record with the class it was given.
 */
export function headersOf(headers: RequestInit['headers']): Record<string, string> {
  if (!(headers instanceof WireHeaders)) throw new TypeError('ofetch handed headers not made with WireHeaders');
  return Object.fromEntries(headers);
}

/**
 * What ofetch reads of an answer: its status and headers. The body is not here: the wire read it
 * once (`call.text`), so ofetch parses none (a null body).
 */
export function answerFor(status: number, statusText: string, headers: readonly (readonly [string, string])[]): Response {
  // As fetch's Response refuses it: node:http reads any three digits, and 600 would pass as no error.
  if (status < 200 || status > 599) throw new RangeError(`the answer's status ${status} is outside 200-599`);
  return { status, statusText, headers: new WireHeaders(headers), body: null } as unknown as Response;
}
