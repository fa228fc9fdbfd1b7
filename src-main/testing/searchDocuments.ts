/** Documents over a small vocabulary, for tests that compare a compact search index with plain MiniSearch. */
export type Doc = { id: number; text: string };

/** The fuzziness the app's queries use (topQuery's callers): long terms only. */
export const fuzzy = (term: string) => (term.length > 5 ? 0.15 : false);

export const SEARCH_OPTIONS = { fields: ['text'], storeFields: ['text'], searchOptions: { prefix: true, fuzzy, combineWith: 'AND' as const } };

/** `count` documents from `firstId`, the same for the same `seed`. */
export function searchDocuments(count: number, seed: number, firstId: number): Doc[] {
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const vocabulary = ['parser', 'parsers', 'parsing', 'stream', 'streamed', 'okapi', 'okapis', 'flamingo', 'flamenco', 'lorem', 'ipsum', 'dolor'];
  return Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    text: Array.from({ length: 3 + Math.floor(random() * 12) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
  }));
}
