import type MiniSearch from 'minisearch';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CompactPostings } from './compactPostings';
import { OneField } from './oneField';

/**
 * A session's postings kept in a file instead of the search worker's heap (issue 23, round 6).
 *
 * Once the index is compact, its postings are its largest part (3 × 50,000 entries: 12 MB of
 * typed arrays outside the heap and 9 MB of their objects inside it), and a query reads the
 * postings of a few terms. Here each term's saved postings are a region of a scratch file
 * private to the worker (binary `[shortId, frequency]` pairs, sorted), read with `readSync` when
 * a query, a save or a vacuum walks them. Pages the OS keeps in its file cache are not the
 * process's memory; a region of a few hundred KB reads in well under a millisecond.
 *
 * The file is a cache, not a record: it is made from the saved index when it is loaded (and
 * from postings built in memory when they are saved or vacuumed), and unlinked as soon as it is
 * opened, so nothing is left behind by a crash; the saved index (`searchFile.ts`) stays the only
 * thing on disk a start reads.
 */
export class PostingsFile {
  private fd: number;
  /** Bytes written (or waiting in `pending`): where the next region starts. */
  private end = 0;
  /** Bytes of regions still pointed at (the rest is garbage from postings written again). */
  live = 0;
  /** Regions not written yet: many small terms make one write. */
  private pending = Buffer.allocUnsafeSlow(256 * 1024);
  private pendingFrom = 0;
  private pendingBytes = 0;
  private closed = false;

  constructor(
    dir: string,
    /** Garbage always allowed (tests set 0 to see a rewrite). */
    readonly slack = 1024 * 1024,
  ) {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `.postings-${process.pid}-${randomUUID()}.tmp`);
    this.fd = openSync(path, 'w+');
    try {
      unlinkSync(path);
    } catch {
      // Still usable; only a crash would leave it (a name no one reads).
    }
  }

  /** Appends `pairs` (a copy is made) and returns the byte offset of their region. */
  append(pairs: Uint32Array): number {
    const bytes = Buffer.from(pairs.buffer, pairs.byteOffset, pairs.byteLength);
    if (this.pendingBytes + bytes.length > this.pending.length) this.flush();
    const offset = this.end;
    if (bytes.length > this.pending.length) writeAll(this.fd, bytes, offset);
    else {
      if (this.pendingBytes === 0) this.pendingFrom = offset;
      bytes.copy(this.pending, this.pendingBytes);
      this.pendingBytes += bytes.length;
    }
    this.end += bytes.length;
    this.live += bytes.length;
    return offset;
  }

  /** The pairs of a region, in a buffer shared by every read: valid until the next read. */
  read(offset: number, count: number): Uint32Array {
    const bytes = 8 * count;
    // Read again at once (MiniSearch's own search gets each document of a term): no second read.
    if (sharedHolds.file === this && sharedHolds.offset === offset && sharedHolds.bytes === bytes)
      return new Uint32Array(shared.buffer, shared.byteOffset, 2 * count);
    sharedHolds.file = null;
    if (this.pendingBytes && offset + bytes > this.pendingFrom) this.flush();
    if (shared.length < bytes) shared = Buffer.allocUnsafeSlow(Math.max(bytes, 2 * shared.length));
    let done = 0;
    while (done < bytes) {
      const read = readSync(this.fd, shared, done, bytes - done, offset + done);
      if (read === 0) throw new Error('the search postings file ended early');
      done += read;
    }
    Object.assign(sharedHolds, { file: this, offset, bytes });
    return new Uint32Array(shared.buffer, shared.byteOffset, 2 * count);
  }

  /** A region is no longer pointed at. */
  release(count: number): void {
    this.live -= 8 * count;
  }

  /** More garbage than postings: worth writing the live regions into a new file. */
  get wasteful(): boolean {
    return this.end > 2 * this.live + this.slack;
  }

  get bytes(): number {
    return this.end;
  }

  private flush(): void {
    if (!this.pendingBytes) return;
    writeAll(this.fd, this.pending.subarray(0, this.pendingBytes), this.pendingFrom);
    this.pendingBytes = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (sharedHolds.file === this) sharedHolds.file = null;
    closeSync(this.fd);
  }
}

/** One buffer for every read (grown to the longest postings read): reads are synchronous and used at once. */
let shared = Buffer.allocUnsafeSlow(64 * 1024);
/** Which region `shared` holds (regions never change once written). */
const sharedHolds: { file: PostingsFile | null; offset: number; bytes: number } = { file: null, offset: 0, bytes: 0 };

function writeAll(fd: number, bytes: Buffer, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/**
 * One term's postings: a region of a `PostingsFile` (the ones saved or loaded) and, in memory,
 * documents added since (their short ids are larger, so adding stays an append). Anything else
 * that changes a posting of the region (a vacuum deleting discarded documents, a document added
 * again) brings the region into memory first; `spill` writes what is in memory to the file.
 *
 * It has the part of `Map`'s interface MiniSearch 7.2 uses on postings, as `CompactPostings`.
 */
export class FilePostings {
  private file: PostingsFile | null = null;
  private offset = 0;
  /** Postings in the file region (no holes: only live postings are written). */
  private count = 0;
  /** The largest short id in the region: larger ones are in `mem`. */
  private maxId = -1;
  /** Postings in memory: ids above `maxId`, or all of them once the region was brought in. */
  private mem: CompactPostings | null = null;

  /** Postings given in `[shortId, frequency, …]` order of growing short ids, written to `file` at once. */
  static written(file: PostingsFile, pairs: Uint32Array): FilePostings {
    const postings = new FilePostings();
    postings.point(file, pairs);
    return postings;
  }

  /** Postings `[shortId, frequency, …]` that may be in any order (an older file's, a `Map`'s). */
  static fromPairs(file: PostingsFile, flat: readonly number[]): FilePostings {
    for (let i = 2; i < flat.length; i += 2) {
      if (!(flat[i] > flat[i - 2])) return FilePostings.fromCompact(file, CompactPostings.fromFlat(flat));
    }
    for (let i = 1; i < flat.length; i += 2) {
      if (!(flat[i] > 0)) return FilePostings.fromCompact(file, CompactPostings.fromFlat(flat));
    }
    return FilePostings.written(file, Uint32Array.from(flat));
  }

  static fromCompact(file: PostingsFile, compact: CompactPostings | ReadonlyMap<number, number>): FilePostings {
    const pairs = new Uint32Array(2 * compact.size);
    let at = 0;
    compact.forEach((freq, shortId) => {
      if (freq > 0) {
        pairs[at++] = shortId;
        pairs[at++] = freq;
      }
    });
    // A `Map` iterates in insertion order: sorted here if it was not.
    const sorted = compact instanceof CompactPostings ? pairs.subarray(0, at) : sortPairs(pairs.subarray(0, at));
    return FilePostings.written(file, sorted);
  }

  private point(file: PostingsFile, pairs: Uint32Array): void {
    // Written first: a write that fails (a full disk) leaves these postings as they were.
    const offset = file.append(pairs);
    if (this.file) this.file.release(this.count);
    this.file = file;
    this.offset = offset;
    this.count = pairs.length >> 1;
    this.maxId = this.count ? pairs[pairs.length - 2] : -1;
  }

  /** Every live posting (region then memory), as pairs in a new array. */
  private all(): Uint32Array {
    const pairs = new Uint32Array(2 * this.size);
    if (this.file && this.count) pairs.set(this.file.read(this.offset, this.count));
    let at = 2 * this.count;
    this.mem?.forEach((freq, shortId) => {
      pairs[at++] = shortId;
      pairs[at++] = freq;
    });
    return pairs;
  }

  /** Brings the region into memory (a change to one of its postings). */
  private materialize(): CompactPostings {
    if (this.file) {
      const pairs = this.all();
      const mem = new CompactPostings(pairs.length >> 1);
      for (let i = 0; i < pairs.length; i += 2) mem.set(pairs[i], pairs[i + 1]);
      this.file.release(this.count);
      this.file = null;
      this.count = 0;
      this.maxId = -1;
      this.mem = mem;
    }
    this.mem ??= new CompactPostings();
    return this.mem;
  }

  /** Writes what is in memory to `file` (the region and the additions as one new region). */
  spill(file: PostingsFile): void {
    if (!this.mem?.size && this.file === file) {
      this.mem = null;
      return;
    }
    this.point(file, this.all());
    this.mem = null;
  }

  get size(): number {
    return this.count + (this.mem?.size ?? 0);
  }

  /** Bytes of postings in memory (the guard counts them); `fileBytes` those in the file. */
  get bytes(): number {
    return this.mem?.bytes ?? 0;
  }

  get fileBytes(): number {
    return this.file ? 8 * this.count : 0;
  }

  get(shortId: number): number | undefined {
    if (shortId > this.maxId || !this.file) return this.mem?.get(shortId);
    const pairs = this.file.read(this.offset, this.count);
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (pairs[2 * mid] < shortId) low = mid + 1;
      else high = mid;
    }
    return low < this.count && pairs[2 * low] === shortId ? pairs[2 * low + 1] : undefined;
  }

  has(shortId: number): boolean {
    return this.get(shortId) !== undefined;
  }

  set(shortId: number, freq: number): this {
    if (this.file && shortId <= this.maxId) this.materialize();
    this.mem ??= new CompactPostings();
    this.mem.set(shortId, freq);
    return this;
  }

  delete(shortId: number): boolean {
    if (shortId > this.maxId || !this.file) return this.mem?.delete(shortId) ?? false;
    if (!this.has(shortId)) return false;
    return this.materialize().delete(shortId);
  }

  clear(): void {
    this.file?.release(this.count);
    this.file = null;
    this.count = 0;
    this.maxId = -1;
    this.mem = null;
  }

  forEach(callback: (freq: number, shortId: number, postings: this) => void): void {
    if (this.file && this.count) {
      const pairs = this.file.read(this.offset, this.count);
      for (let i = 0; i < pairs.length; i += 2) callback(pairs[i + 1], pairs[i], this);
    }
    this.mem?.forEach((freq, shortId) => callback(freq, shortId, this));
  }

  /** Iterates a copy of the region: MiniSearch's vacuum deletes while it iterates, and waits between terms. */
  *entries(): IterableIterator<[number, number]> {
    const region = this.file && this.count ? this.file.read(this.offset, this.count).slice() : null;
    if (region) for (let i = 0; i < region.length; i += 2) yield [region[i], region[i + 1]];
    if (this.mem) yield* this.mem.entries();
  }

  *keys(): IterableIterator<number> {
    for (const [shortId] of this.entries()) yield shortId;
  }

  *values(): IterableIterator<number> {
    for (const [, freq] of this.entries()) yield freq;
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Drops holes and spare room of the postings in memory. */
  trim(): void {
    this.mem?.trim();
  }

  /** The region's file (a session's postings all share one). */
  get home(): PostingsFile | null {
    return this.file;
  }
}

function oneField(fields: Map<number, Postings>): OneField<Postings> {
  const one = new OneField<Postings>();
  for (const [fieldId, postings] of fields) one.set(fieldId, postings);
  return one;
}

function sortPairs(pairs: Uint32Array): Uint32Array {
  const order = Array.from({ length: pairs.length >> 1 }, (_, i) => i).sort((a, b) => pairs[2 * a] - pairs[2 * b]);
  const sorted = new Uint32Array(pairs.length);
  order.forEach((from, to) => {
    sorted[2 * to] = pairs[2 * from];
    sorted[2 * to + 1] = pairs[2 * from + 1];
  });
  return sorted;
}

type Postings = Map<number, number> | CompactPostings | FilePostings;
type Fields = Map<number, Postings> | OneField<Postings>;
type TermIndex = Iterable<[string, Fields]> & { set(term: string, fields: Fields): unknown };

/**
 * Writes every term's postings held in memory to `file` (after a save or a vacuum: the index
 * does not change meanwhile), and returns the file to keep: a new one with only the live regions
 * when the old one holds more garbage than postings (the old one is then closed).
 */
export function spillIndex(mini: MiniSearch<never> | MiniSearch<object>, file: PostingsFile | null, dir: string): PostingsFile {
  const index: TermIndex = mini['_index'];
  const target = !file ? new PostingsFile(dir) : file.wasteful ? new PostingsFile(dir, file.slack) : file;
  for (const [term, fields] of index) {
    for (const [fieldId, postings] of fields) {
      if (postings instanceof FilePostings) postings.spill(target);
      else fields.set(fieldId, FilePostings.fromCompact(target, postings));
    }
    // A term new since the last spill has MiniSearch's `Map` of fields (replacing a term's value leaves the tree as it is).
    if (fields instanceof Map) index.set(term, oneField(fields));
  }
  if (file && target !== file) file.close();
  return target;
}
