import type MiniSearch from 'minisearch';

/**
 * MiniSearch's per-document maps keyed by short id, held by short id in arrays instead of `Map`s.
 *
 * Short ids are small growing integers, so a `Map` entry (~30–50 bytes, plus a `[length]` array of
 * ~48 bytes per document for the field lengths) is replaced by an array slot: a 50,000-entry
 * session's field lengths took 8.3 MB and its id maps 4.6 MB (measured, 37,500 documents). Each
 * class has the part of `Map`'s interface MiniSearch 7.2 uses on these fields (`get`, `set`,
 * `has`, `delete`, `size`, iteration) and `topQuery`/`searchFile` read; the version is pinned in
 * package.json and `compactDocs.test.ts` runs MiniSearch on them against plain maps.
 */

const ABSENT = 0xffffffff;

/**
 * `_fieldLength`: short id → one length per field. Lengths of a one-field index live in a
 * `Uint32Array` (4 bytes a document); an index of more fields keeps arrays.
 *
 * MiniSearch's `addFieldLength` sets a new empty array and fills it right after
 * (`set(id, lengths = []); lengths[field] = n`), so a set array is kept aside and read into the
 * typed array at the next read of any kind.
 */
export class CompactFieldLengths {
  private lengths = new Uint32Array(64).fill(ABSENT);
  private pending = new Map<number, number[]>();
  private wide = new Map<number, number[]>();
  private count = 0;

  private settle(): void {
    if (this.pending.size === 0) return;
    for (const [shortId, fields] of this.pending) {
      if (fields.length > 1 || !(fields[0] >= 0 && fields[0] < ABSENT)) {
        this.wide.set(shortId, fields);
        continue;
      }
      while (shortId >= this.lengths.length) {
        const grown = new Uint32Array(Math.ceil(this.lengths.length * 1.5)).fill(ABSENT);
        grown.set(this.lengths);
        this.lengths = grown;
      }
      this.lengths[shortId] = fields[0];
    }
    this.pending.clear();
  }

  get size(): number {
    this.settle();
    return this.count;
  }

  get(shortId: number): number[] | undefined {
    this.settle();
    const wide = this.wide.get(shortId);
    if (wide) return wide;
    const length = this.lengths[shortId];
    return length === undefined || length === ABSENT ? undefined : [length];
  }

  has(shortId: number): boolean {
    this.settle();
    return this.wide.has(shortId) || (this.lengths[shortId] !== undefined && this.lengths[shortId] !== ABSENT);
  }

  set(shortId: number, fields: number[]): this {
    if (!this.has(shortId)) this.count++;
    this.remove(shortId);
    this.pending.set(shortId, fields);
    return this;
  }

  delete(shortId: number): boolean {
    if (!this.has(shortId)) return false;
    this.remove(shortId);
    this.count--;
    return true;
  }

  private remove(shortId: number): void {
    this.wide.delete(shortId);
    if (shortId < this.lengths.length) this.lengths[shortId] = ABSENT;
  }

  clear(): void {
    this.lengths = new Uint32Array(64).fill(ABSENT);
    this.pending.clear();
    this.wide.clear();
    this.count = 0;
  }

  forEach(callback: (fields: number[], shortId: number) => void): void {
    for (const [shortId, fields] of this.entries()) callback(fields, shortId);
  }

  *entries(): IterableIterator<[number, number[]]> {
    this.settle();
    const wide = [...this.wide.keys()].sort((a, b) => a - b);
    let w = 0;
    for (let shortId = 0; shortId < this.lengths.length; shortId++) {
      while (w < wide.length && wide[w] < shortId) {
        const fields = this.wide.get(wide[w]);
        if (fields) yield [wide[w], fields];
        w++;
      }
      const length = this.lengths[shortId];
      if (length !== ABSENT) yield [shortId, [length]];
    }
    for (; w < wide.length; w++) {
      const fields = this.wide.get(wide[w]);
      if (fields) yield [wide[w], fields];
    }
  }

  *keys(): IterableIterator<number> {
    for (const [shortId] of this.entries()) yield shortId;
  }

  [Symbol.iterator](): IterableIterator<[number, number[]]> {
    return this.entries();
  }

  /** The first field's length of every short id below `size` (0: none): what `topQuery` scores with. */
  firstLengths(size: number): Float64Array {
    this.settle();
    const out = new Float64Array(size);
    for (let shortId = 0; shortId < Math.min(size, this.lengths.length); shortId++) {
      const length = this.lengths[shortId];
      if (length !== ABSENT) out[shortId] = length;
    }
    for (const [shortId, fields] of this.wide) if (shortId < size) out[shortId] = fields[0] ?? 0;
    return out;
  }
}

/** `_documentIds`: short id → the document's id, in an array by short id. */
export class DenseIds<V> {
  private slots: (V | undefined)[] = [];
  size = 0;

  get(shortId: number): V | undefined {
    return this.slots[shortId];
  }

  has(shortId: number): boolean {
    return this.slots[shortId] !== undefined;
  }

  set(shortId: number, value: V): this {
    if (this.slots[shortId] === undefined) this.size++;
    // Filled in order (short ids grow): the array stays dense, 8 bytes a slot.
    while (this.slots.length < shortId) this.slots.push(undefined);
    this.slots[shortId] = value;
    return this;
  }

  delete(shortId: number): boolean {
    if (this.slots[shortId] === undefined) return false;
    this.slots[shortId] = undefined;
    this.size--;
    return true;
  }

  clear(): void {
    this.slots = [];
    this.size = 0;
  }

  forEach(callback: (value: V, shortId: number) => void): void {
    for (const [shortId, value] of this.entries()) callback(value, shortId);
  }

  *entries(): IterableIterator<[number, V]> {
    for (let shortId = 0; shortId < this.slots.length; shortId++) {
      const value = this.slots[shortId];
      if (value !== undefined) yield [shortId, value];
    }
  }

  *keys(): IterableIterator<number> {
    for (const [shortId] of this.entries()) yield shortId;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[number, V]> {
    return this.entries();
  }
}

/**
 * Gives a new (empty) MiniSearch the compact per-document maps. Its documents' ids must be the
 * short ids MiniSearch gives them (`mini['_nextId']` when added: `nextDocId`), so that id → short
 * id is an array too and no id string is kept per document.
 */
export function compactDocs<T>(mini: MiniSearch<T>): MiniSearch<T> {
  if (mini.documentCount !== 0) throw new Error('compactDocs: only an empty index');
  mini['_fieldLength'] = new CompactFieldLengths() as unknown as Map<number, number[]>;
  mini['_documentIds'] = new DenseIds<unknown>() as unknown as Map<number, unknown>;
  mini['_idToShortId'] = new DenseIds<number>() as unknown as Map<unknown, number>;
  return mini;
}

/** The id to give the next document added to a `compactDocs` index: its short id. */
export function nextDocId<T>(mini: MiniSearch<T>): number {
  return mini['_nextId'];
}

/** What an indexed transcript entry became: the signature of its text, its number of chunk documents, its kind. */
export interface EntrySig {
  sig: string;
  chunks: number;
  kind: string;
  /** The short id (and id) of its first chunk document: its chunks are `first … first + chunks - 1`. */
  first: number;
}

/**
 * Each indexed entry's signature (`<length>:<hash base 36>`), chunk count and kind, by entry id:
 * an id → slot map and typed arrays, instead of an object and a signature string per entry
 * (a 50,000-entry session's were ~5 MB). A signature that is not of that form is kept as it is.
 */
export class EntryTable {
  private slots = new Map<string, number>();
  private lengths = new Uint32Array(64);
  private hashes = new Uint32Array(64);
  private chunks = new Uint16Array(64);
  private kinds = new Uint8Array(64);
  private firsts = new Uint32Array(64);
  private kindNames: string[] = [];
  private odd = new Map<string, EntrySig>();
  private free: number[] = [];
  private used = 0;

  get size(): number {
    return this.slots.size + this.odd.size;
  }

  get(entryId: string): EntrySig | undefined {
    const slot = this.slots.get(entryId);
    if (slot === undefined) return this.odd.get(entryId);
    return {
      sig: `${this.lengths[slot]}:${this.hashes[slot].toString(36)}`,
      chunks: this.chunks[slot],
      kind: this.kindNames[this.kinds[slot]],
      first: this.firsts[slot],
    };
  }

  set(entryId: string, { sig, chunks, kind, first }: EntrySig): void {
    this.delete(entryId);
    const match = /^(\d+):([0-9a-z]+)$/.exec(sig);
    const length = match ? Number(match[1]) : NaN;
    const hash = match ? parseInt(match[2], 36) : NaN;
    let code = this.kindNames.indexOf(kind);
    if (code === -1 && this.kindNames.length < 255) code = this.kindNames.push(kind) - 1;
    const exact = match && length < 2 ** 32 && hash < 2 ** 32 && `${length}:${hash.toString(36)}` === sig;
    if (!exact || chunks >= 2 ** 16 || code === -1 || !(first >= 0 && first < 2 ** 32)) {
      this.odd.set(entryId, { sig, chunks, kind, first });
      return;
    }
    const slot = this.free.pop() ?? this.used++;
    if (slot >= this.lengths.length) this.grow();
    this.lengths[slot] = length;
    this.hashes[slot] = hash;
    this.chunks[slot] = chunks;
    this.kinds[slot] = code;
    this.firsts[slot] = first;
    this.slots.set(entryId, slot);
  }

  delete(entryId: string): void {
    const slot = this.slots.get(entryId);
    if (slot !== undefined) {
      this.slots.delete(entryId);
      this.free.push(slot);
    }
    this.odd.delete(entryId);
  }

  keys(): string[] {
    return [...this.slots.keys(), ...this.odd.keys()];
  }

  *entries(): IterableIterator<[string, EntrySig]> {
    for (const entryId of this.keys()) yield [entryId, this.get(entryId)!];
  }

  private grow(): void {
    const size = Math.ceil(this.lengths.length * 1.5);
    const grow = <A extends Uint32Array | Uint16Array | Uint8Array>(from: A, to: A): A => (to.set(from), to);
    this.lengths = grow(this.lengths, new Uint32Array(size));
    this.hashes = grow(this.hashes, new Uint32Array(size));
    this.chunks = grow(this.chunks, new Uint16Array(size));
    this.kinds = grow(this.kinds, new Uint8Array(size));
    this.firsts = grow(this.firsts, new Uint32Array(size));
  }
}
