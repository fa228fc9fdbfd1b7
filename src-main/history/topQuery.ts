import MiniSearch from 'minisearch';
import { CompactFieldLengths } from './compactDocs';

/**
 * MiniSearch's `search()` builds a result object (terms, match, stored fields) for every
 * matching document and sorts them all: 150 ms for a common word over one 50,000-entry session.
 * A person sees 50 hits, so this scores the same way (BM25, prefix and fuzzy weights as
 * MiniSearch 7.2's `executeQuerySpec`) into plain numbers and keeps only the best `limit`.
 *
 * It reads MiniSearch's index through the fields its own `loadJSON` fills; the version is pinned
 * in package.json, and `searchIndex.test.ts` compares the hits with `search()`'s.
 */
type AnyMiniSearch = MiniSearch<never> | MiniSearch<object>;

/** The part of MiniSearch's term index read here (its fields are protected: read by element access, which TypeScript allows). */
interface TermIndex {
  get(term: string): Map<number, Map<number, number>> | undefined;
  atPrefix(term: string): Iterable<[string, Map<number, Map<number, number>>]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [Map<number, Map<number, number>>, number]>;
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
function expansions(index: TermIndex, term: string, fuzzy: (term: string) => number | false): [Map<number, Map<number, number>>, number][] {
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

/** Field lengths by short id (0: discarded), rebuilt when documents were added or discarded. */
const lengthCache = new WeakMap<object, { key: string; lengths: Float64Array }>();

function lengthsOf(mini: AnyMiniSearch): Float64Array {
  const key = `${mini['_nextId']}:${mini['_documentCount']}`;
  const cached = lengthCache.get(mini);
  if (cached?.key === key) return cached.lengths;
  const fieldLength: unknown = mini['_fieldLength'];
  const lengths = fieldLength instanceof CompactFieldLengths ? fieldLength.firstLengths(mini['_nextId'] + 1) : new Float64Array(mini['_nextId'] + 1);
  if (!(fieldLength instanceof CompactFieldLengths)) mini['_fieldLength'].forEach((fields, shortId) => (lengths[shortId] = fields[0] ?? 0));
  lengthCache.set(mini, { key, lengths });
  return lengths;
}

/**
 * The best `limit` documents containing every term (AND), best first. Scores live in typed
 * arrays indexed by MiniSearch's short ids: no object or map per matching document, so a word
 * found in every entry of a 50,000-entry session costs one pass over its postings.
 */
export function topQuery(mini: AnyMiniSearch, terms: string[], limit: number, fuzzy: (term: string) => number | false): TopHit[] {
  const total = mini['_documentCount'];
  if (!terms.length || total === 0) return [];
  const avg = mini['_avgFieldLength'][0] ?? 1;
  const index: TermIndex = mini['_index'];
  const dirty = mini.dirtCount > 0;
  const lengths = lengthsOf(mini);
  const scores = new Float64Array(lengths.length);
  // How many query terms each document matched so far: under AND, term i only counts documents that matched all before it.
  const matched = new Uint16Array(lengths.length);
  let touched: number[] = [];
  for (let i = 0; i < terms.length; i++) {
    const next: number[] = [];
    for (const [fields, weight] of expansions(index, terms[i], fuzzy)) {
      const docs = fields.get(0);
      if (!docs) continue;
      const matching = dirty ? liveCount(docs, lengths) : docs.size;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      docs.forEach((freq, shortId) => {
        const length = lengths[shortId];
        // Discarded documents stay in the postings until a vacuum: skip them as search() does.
        if (!length || shortId >= lengths.length) return;
        const seen = matched[shortId];
        if (seen !== i && seen !== i + 1) return;
        if (seen === i) {
          matched[shortId] = i + 1;
          next.push(shortId);
        }
        scores[shortId] += weight * idf * (BM25.d + (freq * (BM25.k + 1)) / (freq + BM25.k * (1 - BM25.b + (BM25.b * length) / avg)));
      });
    }
    touched = next;
    if (touched.length === 0) return [];
  }
  // MiniSearch multiplies by how many distinct query terms matched: under AND, all of them.
  const quality = new Set(terms).size;
  const top = best(touched, scores, limit);
  for (const hit of top) hit.score *= quality;
  return top;
}

/**
 * Postings keep discarded documents until a vacuum: a term's rarity counts only live ones (a
 * document in any postings has at least one term, so a length of 0 means discarded).
 */
function liveCount(docs: Map<number, number>, lengths: Float64Array): number {
  let count = 0;
  docs.forEach((_, shortId) => {
    if (lengths[shortId] > 0) count++;
  });
  return count;
}

/**
 * Weaker: a lower score, or the same score on an older document. Ties are broken by age so the
 * order does not depend on how the index was built (a loaded index walks its terms in another
 * order than the one that indexed them).
 */
function weaker(a: TopHit, b: TopHit): boolean {
  return a.score < b.score || (a.score === b.score && a.shortId < b.shortId);
}

/** The `limit` highest scores, best first, without sorting every match. */
function best(ids: number[], scores: Float64Array, limit: number): TopHit[] {
  const heap: TopHit[] = []; // a min-heap: the root is the weakest kept
  for (const shortId of ids) {
    const score = scores[shortId];
    if (heap.length < limit) {
      heap.push({ shortId, score });
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!weaker(heap[i], heap[parent])) break;
        [heap[parent], heap[i]] = [heap[i], heap[parent]];
        i = parent;
      }
    } else if (weaker(heap[0], { shortId, score })) {
      heap[0] = { shortId, score };
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && weaker(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && weaker(heap[right], heap[smallest])) smallest = right;
        if (smallest === i) break;
        [heap[smallest], heap[i]] = [heap[i], heap[smallest]];
        i = smallest;
      }
    }
  }
  return heap.sort((a, b) => b.score - a.score || b.shortId - a.shortId);
}
