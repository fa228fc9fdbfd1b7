/**
 * A term's postings by field, for an index of one field: MiniSearch keeps a `Map<fieldId,
 * postings>` per term, about 260 bytes in V8 (the map and its smallest hash table) for what is
 * one pair here. 37,728 terms in three 50,000-entry sessions: ~9 MB of the worker's heap.
 *
 * It has the part of `Map`'s interface MiniSearch 7.2 uses on a term's data (`get`, `set`,
 * `delete`, `size`, iteration: `addTerm`, `removeTerm`, `termResults`, vacuuming, `toJSON`) and
 * what `topQuery`, `searchFile` and `filePostings` read; a second field is kept in a `Map`.
 */
export class OneField<P> {
  private fieldId = -1;
  private postings: P | undefined = undefined;
  private more: Map<number, P> | null = null;

  get size(): number {
    return (this.postings === undefined ? 0 : 1) + (this.more?.size ?? 0);
  }

  get(fieldId: number): P | undefined {
    return fieldId === this.fieldId ? this.postings : this.more?.get(fieldId);
  }

  has(fieldId: number): boolean {
    return this.get(fieldId) !== undefined;
  }

  set(fieldId: number, postings: P): this {
    if (fieldId === this.fieldId || (this.postings === undefined && !this.more?.has(fieldId))) {
      this.fieldId = fieldId;
      this.postings = postings;
    } else (this.more ??= new Map()).set(fieldId, postings);
    return this;
  }

  delete(fieldId: number): boolean {
    if (fieldId === this.fieldId && this.postings !== undefined) {
      this.fieldId = -1;
      this.postings = undefined;
      return true;
    }
    return this.more?.delete(fieldId) ?? false;
  }

  clear(): void {
    this.fieldId = -1;
    this.postings = undefined;
    this.more = null;
  }

  forEach(callback: (postings: P, fieldId: number) => void): void {
    for (const [fieldId, postings] of this.entries()) callback(postings, fieldId);
  }

  *entries(): IterableIterator<[number, P]> {
    // Read before yielding: MiniSearch's vacuum deletes the pair it was given while iterating.
    const [fieldId, postings] = [this.fieldId, this.postings];
    if (postings !== undefined) yield [fieldId, postings];
    if (this.more) yield* [...this.more];
  }

  *keys(): IterableIterator<number> {
    for (const [fieldId] of this.entries()) yield fieldId;
  }

  *values(): IterableIterator<P> {
    for (const [, postings] of this.entries()) yield postings;
  }

  [Symbol.iterator](): IterableIterator<[number, P]> {
    return this.entries();
  }
}
