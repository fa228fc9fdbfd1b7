import type MiniSearch from 'minisearch';

/**
 * A node of MiniSearch's radix tree of terms (`SearchableMap`), as one array of `[key, value, …]`
 * instead of a `Map`: a node has one or two children as a rule, and a `Map` with its smallest
 * hash table is about 260 bytes in V8, this about 90 (3 × 50,000 entries: 37,700 nodes).
 *
 * It has the part of `Map`'s interface `SearchableMap` (MiniSearch 7.2) uses on its nodes (`get`,
 * `set`, `has`, `delete`, `size`, `keys`, iteration), in insertion order as a `Map`; lookups walk
 * the array, which is short (the root's children are the terms' first characters). The version
 * is pinned in package.json; `filePostings.test.ts` compares MiniSearch's answers on these nodes
 * with its own through adds, removes and vacuums.
 */
export class TreeNode<V> {
  private pairs: unknown[];

  constructor(from: ReadonlyMap<string, V>) {
    // Allocated at its size: an array grown by `push` keeps room for 16 more (150 bytes for a pair).
    this.pairs = new Array<unknown>(2 * from.size);
    let at = 0;
    for (const [key, value] of from) {
      this.pairs[at++] = key;
      this.pairs[at++] = value;
    }
  }

  private at(key: string): number {
    const pairs = this.pairs;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === key) return i;
    return -1;
  }

  get size(): number {
    return this.pairs.length >> 1;
  }

  get(key: string): V | undefined {
    const at = this.at(key);
    return at < 0 ? undefined : (this.pairs[at + 1] as V);
  }

  has(key: string): boolean {
    return this.at(key) >= 0;
  }

  set(key: string, value: V): this {
    const at = this.at(key);
    if (at < 0) this.pairs.push(key, value);
    else this.pairs[at + 1] = value;
    return this;
  }

  delete(key: string): boolean {
    const at = this.at(key);
    if (at < 0) return false;
    this.pairs.splice(at, 2);
    return true;
  }

  clear(): void {
    this.pairs = [];
  }

  forEach(callback: (value: V, key: string) => void): void {
    for (const [key, value] of this.entries()) callback(value, key);
  }

  // Arrays' own iterators over copies: a caller may change the node while iterating (as with a
  // Map), and a query's fuzzy walk asks every node it visits for its keys (a generator costs more).
  entries(): IterableIterator<[string, V]> {
    const pairs = this.pairs;
    const out = new Array<[string, V]>(pairs.length >> 1);
    for (let i = 0; i < pairs.length; i += 2) out[i >> 1] = [pairs[i] as string, pairs[i + 1] as V];
    return out[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    const pairs = this.pairs;
    const out = new Array<string>(pairs.length >> 1);
    for (let i = 0; i < pairs.length; i += 2) out[i >> 1] = pairs[i] as string;
    return out[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    const pairs = this.pairs;
    const out = new Array<V>(pairs.length >> 1);
    for (let i = 1; i < pairs.length; i += 2) out[i >> 1] = pairs[i] as V;
    return out[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}

type Node = Map<string, unknown> | TreeNode<unknown>;

/**
 * Replaces the `Map` nodes of a MiniSearch's term tree by `TreeNode`s (after a load, a save or a
 * vacuum: nodes added since are Maps again). A leaf's value (a term's fields) is not a node: only
 * values under a non-empty key are walked.
 */
export function compactTree(mini: MiniSearch<never> | MiniSearch<object>): void {
  const tree: Node = mini['_index']['_tree'];
  const stack: Node[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    for (const [key, child] of node) {
      // '' is the leaf's key (MiniSearch's LEAF): its value is the term's data.
      if (key === '') continue;
      const next = child instanceof Map ? new TreeNode<unknown>(child as Map<string, unknown>) : (child as TreeNode<unknown>);
      if (next !== child) node.set(key, next);
      stack.push(next);
    }
  }
}
