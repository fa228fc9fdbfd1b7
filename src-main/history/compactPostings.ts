import type MiniSearch from 'minisearch';

/**
 * One term's postings (short id → term frequency) in two typed arrays instead of a `Map`.
 *
 * MiniSearch keeps, for every term, a `Map<shortId, frequency>`: about 52 bytes a posting in V8
 * (measured: 26 MB of a 50,000-entry session's 43 MB index is these maps, 500,000 postings).
 * Here a posting is 8 bytes (its id and frequency, sorted by id, in one typed array). It has the part of `Map`'s
 * interface MiniSearch 7.2 uses on a postings map (`get`, `set`, `has`, `delete`, `size`,
 * `keys`, iteration: `addTerm`, `removeTerm`, `termResults`, `performVacuuming`, `toJSON`) and
 * what `topQuery` and `searchFile` read (`forEach`), so MiniSearch indexes, discards, vacuums and
 * searches through it unchanged; the version is pinned in package.json and the search tests run
 * against it (`compactPostings.test.ts` compares every operation with a `Map`).
 *
 * New documents get growing short ids, so adding is an append; a deleted posting leaves a hole
 * (frequency 0, skipped) so that deleting while iterating, as MiniSearch does, is safe.
 */
export class CompactPostings {
  /** `[shortId, frequency, shortId, frequency, …]`, sorted by short id. */
  private data: Uint32Array;
  /** Postings stored, holes included. */
  private used = 0;
  /** Live postings (holes excluded), as `Map.size`. */
  size = 0;

  constructor(capacity = 2) {
    this.data = new Uint32Array(2 * Math.max(1, capacity));
  }

  /** From flat `[shortId, frequency, …]` pairs (the saved file's form), in any order. */
  static fromFlat(flat: readonly number[]): CompactPostings {
    const postings = new CompactPostings(flat.length >> 1);
    for (let i = 0; i + 1 < flat.length; i += 2) postings.set(flat[i], flat[i + 1]);
    return postings;
  }

  /** The same postings as a `Map` MiniSearch built. */
  static fromMap(map: ReadonlyMap<number, number>): CompactPostings {
    const postings = new CompactPostings(map.size);
    map.forEach((freq, shortId) => postings.set(shortId, freq));
    return postings;
  }

  /** The slot of `shortId`, or of the first larger id. */
  private find(shortId: number): number {
    let low = 0;
    let high = this.used;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.data[2 * mid] < shortId) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private grow(): void {
    const data = new Uint32Array(Math.max(4, 2 * Math.ceil(this.data.length * 0.75)));
    data.set(this.data.subarray(0, 2 * this.used));
    this.data = data;
  }

  get(shortId: number): number | undefined {
    const at = this.find(shortId);
    const freq = this.data[2 * at + 1];
    return at < this.used && this.data[2 * at] === shortId && freq > 0 ? freq : undefined;
  }

  has(shortId: number): boolean {
    return this.get(shortId) !== undefined;
  }

  set(shortId: number, freq: number): this {
    // New documents get growing short ids: adding one is an append.
    const at = this.used > 0 && shortId > this.data[2 * this.used - 2] ? this.used : this.find(shortId);
    if (at < this.used && this.data[2 * at] === shortId) {
      const before = this.data[2 * at + 1];
      if (before === 0 && freq > 0) this.size++;
      else if (before > 0 && freq === 0) this.size--;
      this.data[2 * at + 1] = freq;
      return this;
    }
    if (2 * this.used === this.data.length) this.grow();
    if (at < this.used) this.data.copyWithin(2 * at + 2, 2 * at, 2 * this.used);
    this.data[2 * at] = shortId;
    this.data[2 * at + 1] = freq;
    this.used++;
    if (freq > 0) this.size++;
    return this;
  }

  /** Leaves a hole (frequency 0): deleting while iterating, as MiniSearch does, stays safe. */
  delete(shortId: number): boolean {
    const at = this.find(shortId);
    if (at >= this.used || this.data[2 * at] !== shortId || this.data[2 * at + 1] === 0) return false;
    this.data[2 * at + 1] = 0;
    this.size--;
    return true;
  }

  clear(): void {
    this.used = 0;
    this.size = 0;
  }

  forEach(callback: (freq: number, shortId: number, postings: this) => void): void {
    const data = this.data;
    for (let i = 0; i < 2 * this.used; i += 2) if (data[i + 1] > 0) callback(data[i + 1], data[i], this);
  }

  *entries(): IterableIterator<[number, number]> {
    for (let i = 0; i < 2 * this.used; i += 2) if (this.data[i + 1] > 0) yield [this.data[i], this.data[i + 1]];
  }

  *keys(): IterableIterator<number> {
    for (let i = 0; i < 2 * this.used; i += 2) if (this.data[i + 1] > 0) yield this.data[i];
  }

  *values(): IterableIterator<number> {
    for (let i = 0; i < 2 * this.used; i += 2) if (this.data[i + 1] > 0) yield this.data[i + 1];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Drops the holes and the spare capacity (not while anything iterates these postings). */
  trim(): void {
    let kept = 0;
    for (let i = 0; i < this.used; i++) {
      if (this.data[2 * i + 1] === 0) continue;
      this.data[2 * kept] = this.data[2 * i];
      this.data[2 * kept + 1] = this.data[2 * i + 1];
      kept++;
    }
    this.used = kept;
    if (this.data.length > 2 * kept) this.data = this.data.slice(0, 2 * Math.max(1, kept));
  }

  /** Bytes of postings held (the guard counts them). */
  get bytes(): number {
    return this.data.byteLength;
  }
}

type Postings = Map<number, number> | { trim(): void };
type TermIndex = Iterable<[string, Map<number, Postings>]>;

/**
 * Replaces every postings `Map` of a MiniSearch index by `CompactPostings` and trims the compact
 * ones (after a large batch of additions, or a vacuum). Nothing may iterate the index meanwhile.
 */
export function compactIndex(mini: MiniSearch<never> | MiniSearch<object>): void {
  const index: TermIndex = mini['_index'];
  for (const [, fields] of index) {
    for (const [fieldId, postings] of fields) {
      // Postings already out of a Map (compact, or in a file: `FilePostings`) only lose their spare room.
      if (postings instanceof Map) fields.set(fieldId, CompactPostings.fromMap(postings));
      else postings.trim();
    }
  }
}
