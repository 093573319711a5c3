// The headers of one request or answer as ofetch handles them (its `Headers` option, api/http.ts):
// names compared without case, an answer's repeated header joined as fetch joins it (`a, b`). The
// global Headers would do, but its first read loads Node's undici, ~26 ms of CPU on Node 24 and
// ~15 on Node 20 at every live start, for a client whose wire is node:http (connection-pool.ts).
// Only what ofetch and the client call: get, set, has, append, and iteration.

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
