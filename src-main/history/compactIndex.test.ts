import MiniSearch from 'minisearch';
import { describe, expect, it, vi } from 'vitest';
import { CompactFieldLengths, compactDocs, DenseIds, EntryTable } from './compactDocs';
import { CompactPostings, compactIndex } from './compactPostings';
import { queryTerms, topQuery } from './topQuery';
import { type Doc, fuzzy, SEARCH_OPTIONS, searchDocuments } from '../testing/searchDocuments';

// Ids are the short ids MiniSearch gives (`compactDocs` maps id → short id in an array): 0, 1, 2… in order of adding.
const QUERIES = ['parser', 'pars stream', 'flamingo', 'okapi lorem', 'streamed dolor ipsum', 'flamenko', 'nothing'];

/** The same operations on a plain MiniSearch and on one with the compact structures. */
async function twins(): Promise<[MiniSearch<Doc>, MiniSearch<Doc>]> {
  const plain = new MiniSearch<Doc>(SEARCH_OPTIONS);
  const compact = compactDocs(new MiniSearch<Doc>(SEARCH_OPTIONS));
  const first = searchDocuments(400, 11, 0);
  for (const mini of [plain, compact]) mini.addAll(first);
  compactIndex(compact);
  for (const mini of [plain, compact]) {
    mini.discard(3);
    mini.discard(7);
    mini.remove(first[20]); // remove() takes its terms out of the postings one by one
  }
  await Promise.all([plain.vacuum(), compact.vacuum()]);
  compactIndex(compact);
  // Added after compaction: new terms become Maps again, known ones append to the compact postings.
  const more = [...searchDocuments(150, 5, 400), { id: 550, text: 'flamingo zebra parser' }];
  for (const mini of [plain, compact]) {
    mini.addAll(more);
    mini.discard(411);
  }
  return [plain, compact];
}

describe('the compact index structures (postings, field lengths, ids in typed arrays)', () => {
  it("MiniSearch's own search and topQuery answer the same on compact structures as on its Maps, through adds, discards, removes and vacuums", async () => {
    const [plain, compact] = await twins();
    expect(compact.documentCount).toBe(plain.documentCount);
    for (const query of QUERIES) {
      // A discarded document's postings are dropped during the first search over them: compare settled answers.
      plain.search(query);
      compact.search(query);
      const expected = plain.search(query);
      const got = compact.search(query);
      expect(
        got.map((hit) => [hit.id, hit.score.toFixed(9), hit.text]),
        query,
      ).toEqual(expected.map((hit) => [hit.id, hit.score.toFixed(9), hit.text]));
      const ids = (mini: MiniSearch<Doc>): { get(shortId: number): unknown } => mini['_documentIds'];
      const top = (mini: MiniSearch<Doc>) => topQuery(mini, queryTerms(query), 20, fuzzy).map((hit) => [ids(mini).get(hit.shortId), hit.score.toFixed(9)]);
      expect(top(compact), query).toEqual(top(plain));
    }
    // Its own serialization reads the compact structures like Maps.
    expect(MiniSearch.loadJSON<Doc>(JSON.stringify(compact), SEARCH_OPTIONS).search('okapi lorem')).toEqual(plain.search('okapi lorem'));
  });

  it('a query over an index with discarded documents reads no field length one by one (it read one, as a fresh array, per posting)', async () => {
    const [, compact] = await twins();
    expect(compact.dirtCount).toBeGreaterThan(0);
    const get = vi.spyOn(CompactFieldLengths.prototype, 'get');
    const has = vi.spyOn(CompactFieldLengths.prototype, 'has');
    try {
      for (const query of QUERIES) topQuery(compact, queryTerms(query), 20, fuzzy);
      expect(get).not.toHaveBeenCalled();
      expect(has).not.toHaveBeenCalled();
    } finally {
      get.mockRestore();
      has.mockRestore();
    }
  });

  it('a compact index holds 8 bytes a posting and no Map per term or per document', async () => {
    const [, compact] = await twins();
    compactIndex(compact);
    const index: Iterable<[string, Map<number, unknown>]> = compact['_index'];
    let postings = 0;
    let bytes = 0;
    for (const [, fields] of index) {
      for (const list of fields.values()) {
        expect(list).toBeInstanceOf(CompactPostings);
        postings += (list as CompactPostings).size;
        bytes += (list as CompactPostings).bytes;
      }
    }
    expect(postings).toBeGreaterThan(2000);
    expect(bytes).toBe(8 * postings);
    expect(compact['_fieldLength']).toBeInstanceOf(CompactFieldLengths);
    expect(compact['_documentIds']).toBeInstanceOf(DenseIds);
  });

  it('CompactPostings behaves as a Map: set in any order, update, delete while iterating, trim', () => {
    const map = new Map<number, number>();
    const compact = new CompactPostings();
    const both = (f: (m: Map<number, number> | CompactPostings) => void) => [map, compact].forEach(f);
    for (const id of [5, 9, 2, 14, 9, 1, 30]) both((m) => m.set(id, (m.get(id) ?? 0) + 1));
    both((m) => {
      for (const [id] of m) if (id % 2 === 1) m.delete(id);
    });
    const sorted = (m: Iterable<[number, number]>) => [...m].sort((a, b) => a[0] - b[0]);
    expect(sorted(compact)).toEqual(sorted(map));
    expect(compact.size).toBe(map.size);
    expect(compact.get(9)).toBeUndefined();
    expect(compact.has(14)).toBe(true);
    compact.trim();
    expect(compact.bytes).toBe(8 * map.size);
    expect(sorted(compact)).toEqual(sorted(map));
  });

  it("EntryTable gives back each entry's signature, chunk count and kind; an odd signature is kept as it is", () => {
    const table = new EntryTable();
    for (let i = 0; i < 200; i++)
      table.set(`e${i}`, { sig: `${i * 7}:${((i * 2654435761) >>> 0).toString(36)}`, chunks: 1 + (i % 3), kind: i % 2 ? 'agent' : 'user', first: 3 * i });
    table.set('odd', { sig: 'not:a-signature', chunks: 2, kind: 'tool', first: 9000 });
    table.delete('e5');
    table.set('e6', { sig: '12:zz', chunks: 4, kind: 'tool', first: 7 });
    expect(table.size).toBe(200);
    expect(table.get('e5')).toBeUndefined();
    expect(table.get('e7')).toEqual({ sig: `49:${((7 * 2654435761) >>> 0).toString(36)}`, chunks: 2, kind: 'agent', first: 21 });
    expect(table.get('e6')).toEqual({ sig: '12:zz', chunks: 4, kind: 'tool', first: 7 });
    expect(table.get('odd')).toEqual({ sig: 'not:a-signature', chunks: 2, kind: 'tool', first: 9000 });
    expect(new Set(table.keys())).toEqual(new Set([...Array.from({ length: 200 }, (_, i) => `e${i}`).filter((id) => id !== 'e5'), 'odd']));
  });
});
