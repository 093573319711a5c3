// One value per resource of a kind, in fixed blocks. A plain array grown by push is copied at
// each growth, and every copy of a 300,000-resource list outlives a young-generation collection:
// Node 24 counts those copies as survivors and doubles its young generation once they add up to
// its size (32 → 64 MB of RSS, BENCHMARKS.md §11). Every block after the first is allocated once,
// at its full size, large enough to live outside the young generation's copying.

/** Values per block: 32,768 slots (256 KiB) is past V8's 128 KiB large-object threshold. */
export const COLUMN_BLOCK = 32_768;

export class Column<T> {
  readonly #blocks: T[][] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: T): void {
    this.set(this.#length, value);
  }

  /** Sets the value at `index` (the column grows to hold it; values may arrive out of order). */
  set(index: number, value: T): void {
    const b = Math.floor(index / COLUMN_BLOCK);
    // The first block grows as values come: a kind of ten resources allocates no 256 KiB block
    // (blocks at full size from the first cost 5 % of a `check --from` of the demo, paired).
    // Stryker disable next-line ArrayDeclaration,ConditionalExpression,EqualityOperator: a block's size up front is memory only
    while (this.#blocks.length <= b) this.#blocks.push(this.#blocks.length === 0 ? [] : new Array<T>(COLUMN_BLOCK));
    const block = this.#blocks[b];
    const at = index % COLUMN_BLOCK;
    // Filled up to `at` rather than written past its end: a gap would make V8 keep it as a dictionary.
    // Stryker disable next-line EqualityOperator,BlockStatement,ConditionalExpression: as above (an unset slot reads undefined either way)
    while (block.length < at) block.push(undefined as T);
    block[at] = value;
    if (index >= this.#length) this.#length = index + 1;
  }

  get(index: number): T {
    return this.#blocks[Math.floor(index / COLUMN_BLOCK)][index % COLUMN_BLOCK];
  }

  /** The first `length` values as one array, allocated once at its size. */
  toArray(length = this.#length): T[] {
    // Stryker disable next-line ArrayDeclaration: as a block
    const out = new Array<T>(length);
    for (let i = 0; i < length; i++) out[i] = this.get(i);
    return out;
  }
}
