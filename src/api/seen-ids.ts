// The ids a listing has handed on, each with the page it was first on (pagination.ts refuses a
// repeat). Whole-number ids, the platform's own (schedules, pages, users), are kept in typed
// arrays outside the JS heap: a Map of 300,000 schedule ids held ~15 MB of heap, copied as it
// grew, and Node 24's young generation counts every copy that outlives a collection and doubles
// itself once they add up to its size (32 → 64 MB: BENCHMARKS.md §11). Other ids (strings,
// fractions, negative numbers) are kept in a Map, as every id was.

/** A slot no id holds: the typed arrays keep only ids ≥ 0. */
const EMPTY = -1;
const FIRST_SLOTS = 1024;

export class SeenIds {
  #ids = new Float64Array(FIRST_SLOTS).fill(EMPTY);
  #pages = new Int32Array(FIRST_SLOTS);
  #whole = 0;
  readonly #others = new Map<unknown, number>();

  /** The page `id` was first on, or undefined when it is new (then it is noted as on `page`). */
  firstOn(id: unknown, page: number): number | undefined {
    // Stryker disable next-line BooleanLiteral,EqualityOperator: which store holds a number is memory only: both answer alike for every id JSON can carry
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
      const first = this.#others.get(id);
      if (first === undefined) this.#others.set(id, page);
      return first;
    }
    const slot = this.#slotOf(id);
    if (this.#ids[slot] === id) return this.#pages[slot];
    this.#ids[slot] = id;
    this.#pages[slot] = page;
    // At most half full: an open-addressed table slows sharply past that.
    // Stryker disable next-line EqualityOperator: when the table grows is speed only
    if (++this.#whole * 2 > this.#ids.length) this.#grow();
    return undefined;
  }

  /** The slot holding `id`, or the empty one where it belongs (linear probing). */
  #slotOf(id: number): number {
    const mask = this.#ids.length - 1;
    // Fibonacci hashing of the low and high 32 bits mixed, its top bits taken: sequential ids
    // and ids that are all multiples of a power of two spread alike.
    // Stryker disable next-line ArithmeticOperator: any hash, and a probe in either direction, answers alike (it spreads ids for speed)
    let slot = Math.imul((id | 0) ^ ((id / 0x1_0000_0000) | 0), 0x9e3779b1) >>> Math.clz32(mask);
    // Stryker disable next-line ArithmeticOperator: as above
    while (this.#ids[slot] !== id && this.#ids[slot] !== EMPTY) slot = (slot + 1) & mask;
    return slot;
  }

  #grow(): void {
    const ids = this.#ids;
    const pages = this.#pages;
    this.#ids = new Float64Array(ids.length * 2).fill(EMPTY);
    this.#pages = new Int32Array(ids.length * 2);
    // Stryker disable next-line EqualityOperator: a slot past the end or an empty one moved is an empty slot more, no id
    for (let i = 0; i < ids.length; i++) {
      // Stryker disable next-line ConditionalExpression: as above
      if (ids[i] === EMPTY) continue;
      const slot = this.#slotOf(ids[i]);
      this.#ids[slot] = ids[i];
      this.#pages[slot] = pages[i];
    }
  }
}
