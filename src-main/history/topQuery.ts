import MiniSearch from 'minisearch';

/**
 * MiniSearch's `search()` builds a result object (terms, match, stored fields) for every
 * matching document and sorts them all: 150 ms for a common word over one 50,000-entry session.
 * A person sees 50 hits, so this scores the same way (BM25, prefix and fuzzy weights as
 * MiniSearch 7.2's `executeQuerySpec`) into plain numbers and keeps only the best `limit`.
 *
 * It reads MiniSearch's index through the fields its own `loadJSON` fills; the version is pinned
 * in package.json, and `searchIndex.test.ts` compares the hits with `search()`'s.
 */
interface Internals {
  _index: {
    get(term: string): Map<number, Map<number, number>> | undefined;
    atPrefix(term: string): Iterable<[string, Map<number, Map<number, number>>]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [Map<number, Map<number, number>>, number]>;
  };
  _documentIds: Map<number, unknown>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
}

export interface TopHit {
  shortId: number;
  score: number;
}

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The query's terms as MiniSearch indexes them (lower case, split the same way). */
export function queryTerms(query: string): string[] {
  return tokenize(query)
    .map((term) => term.toLowerCase())
    .filter(Boolean);
}

/** Every indexed term a query term stands for (itself, prefix and fuzzy matches) with its weight. */
function expansions(index: Internals['_index'], term: string, fuzzy: (term: string) => number | false): [Map<number, Map<number, number>>, number][] {
  const out: [Map<number, Map<number, number>>, number][] = [];
  const exact = index.get(term);
  if (exact) out.push([exact, 1]);
  const prefixed = new Set<string>();
  for (const [other, data] of index.atPrefix(term)) {
    const distance = other.length - term.length;
    if (!distance) continue;
    prefixed.add(other);
    out.push([data, (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * distance)]);
  }
  const ratio = fuzzy(term);
  const maxDistance = ratio === false ? 0 : Math.min(6, Math.round(term.length * ratio));
  if (maxDistance) {
    for (const [other, [data, distance]] of index.fuzzyGet(term, maxDistance)) {
      if (!distance || prefixed.has(other)) continue;
      out.push([data, (FUZZY_WEIGHT * other.length) / (other.length + distance)]);
    }
  }
  return out;
}

/**
 * The best `limit` documents containing every term (AND), best first. `accept` filters by
 * document (e.g. one hit per transcript entry is decided by the caller from the short id).
 */
export function topQuery(mini: MiniSearch<never> | MiniSearch<object>, terms: string[], limit: number, fuzzy: (term: string) => number | false): TopHit[] {
  const internals = mini as unknown as Internals;
  if (!terms.length || internals._documentCount === 0) return [];
  const total = internals._documentCount;
  const avg = internals._avgFieldLength[0] ?? 1;
  const dirty = mini.dirtCount > 0;
  let scores: Map<number, number> | null = null;
  for (const term of terms) {
    const next = new Map<number, number>();
    for (const [fields, weight] of expansions(internals._index, term, fuzzy)) {
      const docs = fields.get(0);
      if (!docs) continue;
      const matching = dirty ? liveCount(docs, internals._fieldLength) : docs.size;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (const [shortId, freq] of docs) {
        // Discarded documents stay in the postings until a vacuum: skip them as search() does.
        if (scores && !scores.has(shortId)) continue;
        const length = internals._fieldLength.get(shortId)?.[0];
        if (length === undefined) continue;
        const score = weight * idf * (BM25.d + (freq * (BM25.k + 1)) / (freq + BM25.k * (1 - BM25.b + (BM25.b * length) / avg)));
        next.set(shortId, (next.get(shortId) ?? 0) + score);
      }
    }
    if (scores) for (const [shortId, score] of next) next.set(shortId, score + scores.get(shortId)!);
    scores = next;
    if (scores.size === 0) return [];
  }
  // MiniSearch multiplies by how many distinct query terms matched: under AND, all of them.
  const quality = new Set(terms).size;
  const top = best(scores!, limit);
  for (const hit of top) hit.score *= quality;
  return top;
}

/** Postings keep discarded documents until a vacuum: a term's rarity counts only live ones. */
function liveCount(docs: Map<number, number>, lengths: Map<number, number[]>): number {
  let count = 0;
  for (const shortId of docs.keys()) if (lengths.has(shortId)) count++;
  return count;
}

/** The `limit` highest scores, best first, without sorting every match. */
function best(scores: Map<number, number>, limit: number): TopHit[] {
  const heap: TopHit[] = []; // a min-heap on score: the root is the weakest kept
  for (const [shortId, score] of scores) {
    if (heap.length < limit) {
      heap.push({ shortId, score });
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent].score <= heap[i].score) break;
        [heap[parent], heap[i]] = [heap[i], heap[parent]];
        i = parent;
      }
    } else if (score > heap[0].score) {
      heap[0] = { shortId, score };
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && heap[left].score < heap[smallest].score) smallest = left;
        if (right < heap.length && heap[right].score < heap[smallest].score) smallest = right;
        if (smallest === i) break;
        [heap[smallest], heap[i]] = [heap[i], heap[smallest]];
        i = smallest;
      }
    }
  }
  return heap.sort((a, b) => b.score - a.score);
}
