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

/**
 * `_documentIds` and `_idToShortId`: short id → the document's id and back. In a `compactDocs`
 * index the two are the same number, so each is one byte a document ("this short id is its own
 * id"), not an array slot of 8 bytes with its spare room; a value of any other kind is kept in a
 * `Map` beside it.
 */
export class DenseIds<V> {
  private same = new Uint8Array(64);
  private other = new Map<number, V>();
  size = 0;

  get(shortId: number): V | undefined {
    return this.same[shortId] === 1 ? (shortId as V) : this.other.get(shortId);
  }

  has(shortId: number): boolean {
    return this.same[shortId] === 1 || this.other.has(shortId);
  }

  set(shortId: number, value: V): this {
    if (!this.has(shortId)) this.size++;
    this.other.delete(shortId);
    if (value === shortId && Number.isInteger(shortId) && shortId >= 0) {
      while (shortId >= this.same.length) {
        const grown = new Uint8Array(Math.ceil(this.same.length * 1.5));
        grown.set(this.same);
        this.same = grown;
      }
      this.same[shortId] = 1;
    } else {
      if (this.same[shortId] === 1) this.same[shortId] = 0;
      this.other.set(shortId, value);
    }
    return this;
  }

  delete(shortId: number): boolean {
    if (this.same[shortId] === 1) this.same[shortId] = 0;
    else if (!this.other.delete(shortId)) return false;
    this.size--;
    return true;
  }

  clear(): void {
    this.same = new Uint8Array(64);
    this.other.clear();
    this.size = 0;
  }

  forEach(callback: (value: V, shortId: number) => void): void {
    for (const [shortId, value] of this.entries()) callback(value, shortId);
  }

  *entries(): IterableIterator<[number, V]> {
    for (let shortId = 0; shortId < this.same.length; shortId++) if (this.same[shortId] === 1) yield [shortId, shortId as V];
    yield* [...this.other].sort((a, b) => a[0] - b[0]);
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
 * Each indexed entry's signature (`<length>:<hash base 36>`), chunk count and kind, by entry id,
 * in typed arrays by slot. Entry ids are `<session id>:<seq>` (`foldTranscript.ts`): such an id
 * is kept as its number, in an open-addressing table of numbers → slots, not as a string key
 * of a `Map` (3 × 50,000 entries: 5.4 MB of hash tables and 3.5 MB of id strings, more with real
 * session ids of 36 characters). An id of another form is kept as it is, in a `Map`, and so is a
 * signature that is not of that form.
 */
export class EntryTable {
  /** What every numeric id starts with (the first id's text up to its last ':'). */
  private prefix: string | null = null;
  /** Pairs `[seq + 1, slot]` (0: empty, TOMB: deleted), probed linearly. */
  private table = new Uint32Array(2 * 64);
  /** Pairs taken in `table`, deleted ones included. */
  private taken = 0;
  /** Other ids → slot, and back. */
  private oddIds = new Map<string, number>();
  private oddIdOf = new Map<number, string>();
  /** Signatures that do not fit the typed arrays, by slot. */
  private oddSigs = new Map<number, EntrySig>();
  private seqs = new Uint32Array(64);
  private lengths = new Uint32Array(64);
  private hashes = new Uint32Array(64);
  private chunks = new Uint16Array(64);
  private kinds = new Uint8Array(64);
  private firsts = new Uint32Array(64);
  /** 1 for a slot in use. */
  private live = new Uint8Array(64);
  private kindNames: string[] = [];
  private free: number[] = [];
  private used = 0;
  size = 0;

  /** The number an id is kept as, or -1 (it is kept as a string). */
  private seqOf(entryId: string, adding = false): number {
    if (this.prefix === null && adding) this.prefix = entryId.slice(0, entryId.lastIndexOf(':') + 1);
    const prefix = this.prefix;
    if (prefix === null) return -1;
    if (entryId.length <= prefix.length || entryId.length > prefix.length + 9 || !entryId.startsWith(prefix)) return -1;
    let seq = 0;
    for (let i = prefix.length; i < entryId.length; i++) {
      const digit = entryId.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9 || (digit === 0 && i === prefix.length && entryId.length > i + 1)) return -1;
      seq = seq * 10 + digit;
    }
    return seq;
  }

  /** The pair of `table` holding `seq`, or -1. */
  private find(seq: number): number {
    const mask = (this.table.length >> 1) - 1;
    for (let at = hashSeq(seq) & mask; ; at = (at + 1) & mask) {
      const key = this.table[2 * at];
      if (key === EMPTY) return -1;
      if (key === seq + 1) return at;
    }
  }

  private insert(seq: number, slot: number): void {
    // Up to 3/4 full (linear probing stays short), then twice as large as its live ids at least.
    if (4 * (this.taken + 1) > 3 * (this.table.length >> 1)) this.rehash();
    const mask = (this.table.length >> 1) - 1;
    let at = hashSeq(seq) & mask;
    while (this.table[2 * at] !== EMPTY && this.table[2 * at] !== TOMB) at = (at + 1) & mask;
    if (this.table[2 * at] === EMPTY) this.taken++;
    this.table[2 * at] = seq + 1;
    this.table[2 * at + 1] = slot;
  }

  /** A table of at least 3/2 the live ids (deleted pairs dropped). */
  private rehash(): void {
    const old = this.table;
    let pairs = 64;
    while (2 * pairs < 3 * (this.size + 1)) pairs *= 2;
    this.table = new Uint32Array(2 * pairs);
    this.taken = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== EMPTY && old[i] !== TOMB) this.insert(old[i] - 1, old[i + 1]);
  }

  /** The slot of an entry, or undefined. */
  slotOf(entryId: string): number | undefined {
    const seq = this.seqOf(entryId);
    if (seq < 0) return this.oddIds.get(entryId);
    const at = this.find(seq);
    return at < 0 ? undefined : this.table[2 * at + 1];
  }

  /** The id of the entry in a slot (undefined: none). */
  idAt(slot: number): string | undefined {
    if (!this.live[slot]) return undefined;
    return this.oddIdOf.get(slot) ?? `${this.prefix}${this.seqs[slot]}`;
  }

  /** The signature of the entry in a slot. */
  at(slot: number): EntrySig | undefined {
    if (!this.live[slot]) return undefined;
    return (
      this.oddSigs.get(slot) ?? {
        sig: `${this.lengths[slot]}:${this.hashes[slot].toString(36)}`,
        chunks: this.chunks[slot],
        kind: this.kindNames[this.kinds[slot]],
        first: this.firsts[slot],
      }
    );
  }

  get(entryId: string): EntrySig | undefined {
    const slot = this.slotOf(entryId);
    return slot === undefined ? undefined : this.at(slot);
  }

  set(entryId: string, { sig, chunks, kind, first }: EntrySig): void {
    this.delete(entryId);
    const slot = this.free.pop() ?? this.used++;
    if (slot >= this.live.length) this.grow();
    this.live[slot] = 1;
    this.size++;
    const seq = this.seqOf(entryId, true);
    if (seq < 0) {
      this.oddIds.set(entryId, slot);
      this.oddIdOf.set(slot, entryId);
    } else {
      this.seqs[slot] = seq;
      this.insert(seq, slot);
    }
    const match = /^(\d+):([0-9a-z]+)$/.exec(sig);
    const length = match ? Number(match[1]) : NaN;
    const hash = match ? parseInt(match[2], 36) : NaN;
    let code = this.kindNames.indexOf(kind);
    if (code === -1 && this.kindNames.length < 255) code = this.kindNames.push(kind) - 1;
    const exact = match && length < 2 ** 32 && hash < 2 ** 32 && `${length}:${hash.toString(36)}` === sig;
    if (!exact || chunks >= 2 ** 16 || code === -1 || !(first >= 0 && first < 2 ** 32)) {
      this.oddSigs.set(slot, { sig, chunks, kind, first });
      return;
    }
    this.lengths[slot] = length;
    this.hashes[slot] = hash;
    this.chunks[slot] = chunks;
    this.kinds[slot] = code;
    this.firsts[slot] = first;
  }

  delete(entryId: string): void {
    const seq = this.seqOf(entryId);
    let slot: number | undefined;
    if (seq < 0) {
      slot = this.oddIds.get(entryId);
      this.oddIds.delete(entryId);
      if (slot !== undefined) this.oddIdOf.delete(slot);
    } else {
      const at = this.find(seq);
      if (at >= 0) {
        slot = this.table[2 * at + 1];
        this.table[2 * at] = TOMB;
      }
    }
    if (slot === undefined) return;
    this.live[slot] = 0;
    this.oddSigs.delete(slot);
    this.free.push(slot);
    this.size--;
  }

  keys(): string[] {
    const keys: string[] = [];
    for (let slot = 0; slot < this.used; slot++) if (this.live[slot]) keys.push(this.idAt(slot)!);
    return keys;
  }

  *entries(): IterableIterator<[string, EntrySig]> {
    for (let slot = 0; slot < this.used; slot++) if (this.live[slot]) yield [this.idAt(slot)!, this.at(slot)!];
  }

  private grow(): void {
    const size = Math.ceil(this.live.length * 1.5);
    const grow = <A extends Uint32Array | Uint16Array | Uint8Array>(from: A, to: A): A => (to.set(from), to);
    this.seqs = grow(this.seqs, new Uint32Array(size));
    this.lengths = grow(this.lengths, new Uint32Array(size));
    this.hashes = grow(this.hashes, new Uint32Array(size));
    this.chunks = grow(this.chunks, new Uint16Array(size));
    this.kinds = grow(this.kinds, new Uint8Array(size));
    this.firsts = grow(this.firsts, new Uint32Array(size));
    this.live = grow(this.live, new Uint8Array(size));
  }
}

const EMPTY = 0;
const TOMB = 0xffffffff;

function hashSeq(seq: number): number {
  return Math.imul(seq ^ (seq >>> 16), 0x45d9f3b) >>> 0;
}

/**
 * Each document's entry, by short id: the entry's slot in its `EntryTable` (4 bytes a document),
 * not a reference to its id string.
 */
export class DocEntries {
  private slots = new Uint32Array(64).fill(NONE);

  constructor(private readonly table: EntryTable) {}

  /** The entry must be in the table already. */
  set(shortId: number, entryId: string): void {
    const slot = this.table.slotOf(entryId);
    if (slot === undefined) throw new Error(`DocEntries: entry ${entryId} is not in the table`);
    while (shortId >= this.slots.length) {
      const grown = new Uint32Array(Math.ceil(this.slots.length * 1.5)).fill(NONE);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[shortId] = slot;
  }

  get(shortId: number): string | undefined {
    const slot = this.slots[shortId];
    return slot === undefined || slot === NONE ? undefined : this.table.idAt(slot);
  }

  delete(shortId: number): void {
    if (shortId < this.slots.length) this.slots[shortId] = NONE;
  }
}

const NONE = 0xffffffff;
