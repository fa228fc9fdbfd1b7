import MiniSearch from 'minisearch';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactDocs, DenseIds, DocEntries, EntryTable } from './compactDocs';
import { compactIndex } from './compactPostings';
import { FilePostings, PostingsFile, spillIndex } from './filePostings';
import { OneField } from './oneField';
import { compactTree, TreeNode } from './treeNodes';
import { SearchIndex } from './searchIndex';
import { queryTerms, topQuery } from './topQuery';
import { wordSession } from '../testing/wordSessions';
import { type Doc, fuzzy, SEARCH_OPTIONS, searchDocuments } from '../testing/searchDocuments';

const QUERIES = ['parser', 'pars stream', 'flamingo', 'okapi lorem', 'streamed dolor ipsum', 'flamenko', 'zebra', 'nothing'];

const scratch = () => mkdtempSync(join(tmpdir(), 'acp-postings-'));

/** Every posting of an index, term by term, as MiniSearch's own JSON has them. */
const postingsOf = (mini: MiniSearch<Doc>) => JSON.parse(JSON.stringify(mini)).index as unknown;

describe('postings in a file (FilePostings)', () => {
  it("MiniSearch's search and topQuery answer the same with postings in a file, through spills, adds, discards, removes, vacuums and a file rewritten", async () => {
    const dir = scratch();
    const plain = new MiniSearch<Doc>(SEARCH_OPTIONS);
    const filed = compactDocs(new MiniSearch<Doc>(SEARCH_OPTIONS));
    const first = searchDocuments(400, 11, 0);
    for (const mini of [plain, filed]) mini.addAll(first);
    compactIndex(filed);
    let file = spillIndex(filed, new PostingsFile(dir, 0), dir);
    compactTree(filed);
    expect(file.bytes).toBeGreaterThan(0);
    // Each term keeps one small object for its fields, not a Map.
    const terms: Iterable<[string, unknown]> = filed['_index'];
    for (const [term, fields] of terms) expect(fields, term).toBeInstanceOf(OneField);
    for (const mini of [plain, filed]) {
      mini.discard(3);
      mini.discard(7);
      mini.remove(first[20]); // takes its terms out of postings that are in the file
    }
    await Promise.all([plain.vacuum(), filed.vacuum()]);
    compactIndex(filed);
    file = spillIndex(filed, file, dir);
    compactTree(filed);
    // The term tree's nodes below the root are small arrays, not Maps.
    const root: Map<string, unknown> = filed['_index']['_tree'];
    for (const [key, node] of root) if (key !== '') expect(node, key).toBeInstanceOf(TreeNode);
    // Added after the spill: known terms append in memory, new terms are Maps again.
    const more = [...searchDocuments(150, 5, 400), { id: 550, text: 'flamingo zebra parser' }];
    for (const mini of [plain, filed]) {
      mini.addAll(more);
      mini.discard(411);
    }
    const compare = () => {
      expect(filed.documentCount).toBe(plain.documentCount);
      for (const query of QUERIES) {
        plain.search(query);
        filed.search(query);
        const expected = plain.search(query).map((hit) => [hit.id, hit.score.toFixed(9), hit.text]);
        expect(
          filed.search(query).map((hit) => [hit.id, hit.score.toFixed(9), hit.text]),
          query,
        ).toEqual(expected);
        const ids = (mini: MiniSearch<Doc>): { get(shortId: number): unknown } => mini['_documentIds'];
        const top = (mini: MiniSearch<Doc>) => topQuery(mini, queryTerms(query), 20, fuzzy).map((hit) => [ids(mini).get(hit.shortId), hit.score.toFixed(9)]);
        expect(top(filed), query).toEqual(top(plain));
      }
      expect(postingsOf(filed)).toEqual(postingsOf(plain));
    };
    compare();
    // Spilled again and again (each spill writes the changed terms anew): the file is rewritten once mostly garbage.
    let rewritten = false;
    for (let round = 0; round < 40 && !rewritten; round++) {
      for (const mini of [plain, filed]) mini.add({ id: 551 + round, text: 'parser lorem ipsum dolor stream okapi' });
      const before = file;
      file = spillIndex(filed, file, dir);
      rewritten = file !== before;
    }
    expect(rewritten).toBe(true);
    compare();
    await Promise.all([plain.vacuum(), filed.vacuum()]);
    compare();
    // Terms removed (their nodes merged) and added again (nodes split) on the compact tree.
    for (const mini of [plain, filed]) {
      mini.remove(more[150]);
      mini.add({ id: 600, text: 'flamingos zebras parsed flamingo' });
    }
    compare();
  });

  it('behaves as a Map: set in any order, update, delete while iterating, clear; additions stay out of the file until spilled', () => {
    const file = new PostingsFile(scratch());
    const map = new Map<number, number>([
      [2, 1],
      [5, 3],
      [9, 1],
    ]);
    const filed = FilePostings.fromPairs(file, [5, 3, 2, 1, 9, 1]);
    const both = (f: (m: Map<number, number> | FilePostings) => void) => [map, filed].forEach(f);
    expect(filed.bytes).toBe(0);
    expect(filed.fileBytes).toBe(24);
    for (const id of [14, 30]) both((m) => m.set(id, (m.get(id) ?? 0) + 1));
    // Larger ids are appended in memory: the file's region is untouched.
    expect(filed.fileBytes).toBe(24);
    expect(filed.bytes).toBeGreaterThan(0);
    both((m) => m.set(1, 4)); // a smaller id brings the region into memory
    expect(filed.fileBytes).toBe(0);
    both((m) => {
      for (const [id] of m) if (id % 2 === 1) m.delete(id);
    });
    const sorted = (m: Iterable<[number, number]>) => [...m].sort((a, b) => a[0] - b[0]);
    expect(sorted(filed)).toEqual(sorted(map));
    filed.spill(file);
    expect(filed.bytes).toBe(0);
    expect(sorted(filed)).toEqual(sorted(map));
    expect(filed.size).toBe(map.size);
    expect(filed.get(14)).toBe(1);
    expect(filed.has(9)).toBe(false);
    expect(filed.delete(9)).toBe(false);
    const each: number[] = [];
    filed.forEach((freq, id) => each.push(id, freq));
    expect(each).toEqual(sorted(map).flat());
    both((m) => m.clear());
    expect(filed.size).toBe(0);
    expect([...filed]).toEqual([]);
    file.close();
  });

  it("a term's fields (OneField) behave as a Map, a second field and a delete while iterating included", () => {
    const map = new Map<number, string>();
    const one = new OneField<string>();
    const both = (f: (m: Map<number, string> | OneField<string>) => void) => [map, one].forEach(f);
    both((m) => m.set(0, 'a').set(2, 'b').set(0, 'c'));
    expect([...one]).toEqual([...map]);
    expect(one.size).toBe(2);
    both((m) => {
      for (const [fieldId] of m) if (fieldId === 0) m.delete(fieldId);
    });
    expect([...one]).toEqual([...map]);
    expect(one.get(2)).toBe('b');
    expect(one.has(0)).toBe(false);
    both((m) => m.set(1, 'd'));
    expect(new Map(one)).toEqual(map);
    expect(one.delete(7)).toBe(false);
  });

  it('a write that fails (a full disk, a closed file) leaves the postings as they were', () => {
    const good = new PostingsFile(scratch());
    const pairs = Array.from({ length: 80_000 }, (_, i) => (i % 2 ? 1 + (i % 5) : i));
    const postings = FilePostings.fromPairs(good, pairs);
    for (let id = 80_000; id < 120_000; id++) postings.set(id, 2);
    const before = [...postings];
    const broken = new PostingsFile(scratch());
    broken.close();
    expect(() => postings.spill(broken)).toThrow();
    expect([...postings]).toEqual(before);
    expect(postings.size).toBe(80_000);
    good.close();
  });

  it('leaves no file behind: its scratch file is gone from the folder as soon as it is opened', () => {
    const dir = scratch();
    const file = new PostingsFile(dir);
    file.append(Uint32Array.from([1, 2, 3, 4]));
    expect(file.read(0, 2)).toEqual(Uint32Array.from([1, 2, 3, 4]));
    expect(readdirSync(dir)).toEqual([]);
    file.close();
  });
});

/**
 * Host memory (issue 23, round 6): a guard that counts what the search worker keeps in memory of
 * a saved index, not time. Before, every posting was in memory (8 bytes each, in typed arrays);
 * now a loaded or saved index keeps none there, and a few entries added to a long session bring
 * only their own postings into memory, not the postings lists of the words they share with it.
 */
describe('what a saved search index keeps in memory', () => {
  async function indexOf(turns: number) {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-held-'));
    const built = new SearchIndex(dir, 60_000);
    const state = wordSession('s1', turns, { perTurn: 12, stride: 7 });
    built.indexState(state, 100, true);
    built.flush();
    const loaded = new SearchIndex(dir, 60_000);
    await loaded.load();
    return { built, loaded, state };
  }

  it('no posting in memory once loaded or saved, however long the history; an addition brings in only its own postings', async () => {
    const added: number[] = [];
    for (const turns of [500, 4000]) {
      const { built, loaded, state } = await indexOf(turns);
      for (const index of [built, loaded]) {
        const held = index.memory();
        expect(held.documents).toBe(2 * turns);
        expect(held.mapPostings).toBe(0);
        expect(held.postingBytes).toBe(0);
        expect(held.postingFileBytes).toBe(8 * held.postings);
      }
      // Ten more entries in the same words (the session goes on after the restart).
      const longer = wordSession('s1', turns + 5, { perTurn: 12, stride: 7 });
      expect(longer.entries.slice(0, state.entries.length).map((entry) => entry.id)).toEqual(state.entries.map((entry) => entry.id));
      loaded.indexState(longer, 200, false);
      await loaded.idle();
      const held = loaded.memory();
      expect(held.documents).toBe(2 * turns + 10);
      added.push(held.postingBytes);
      const newest = longer.entries.filter((entry) => entry.kind === 'agent').at(-1)!;
      expect(loaded.search(`answer ${turns + 4}`).map((hit) => hit.entryId)).toEqual([newest.id]);
    }
    // The same ten entries cost the same in a session 8 times as long (each term's list stays in the file).
    expect(added[0]).toBeGreaterThan(0);
    expect(added[1]).toBeLessThanOrEqual(added[0] * 1.5);
  });
});

describe("the entries' table (EntryTable, DocEntries)", () => {
  it('keeps `<session>:<seq>` ids as numbers and any other id as it is, through deletes, reused slots and growth', () => {
    const table = new EntryTable();
    const docs = new DocEntries(table);
    const sig = (i: number) => ({ sig: `${i}:${(i * 7919).toString(36)}`, chunks: 1, kind: i % 2 ? 'agent' : 'user', first: i });
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) ids.push(`sess-1:${3 * i + 1}`);
    // Not of the session's form: another prefix, a leading zero, too many digits, a tool call id.
    ids.push('other:5', 'sess-1:007', 'sess-1:12345678901', 'call_abc', 'sess-1:');
    ids.forEach((id, i) => {
      table.set(id, sig(i));
      docs.set(i, id);
    });
    for (let i = 0; i < ids.length; i += 3) table.delete(ids[i]);
    for (let i = 0; i < ids.length; i += 3) docs.delete(i);
    const kept = ids.filter((_, i) => i % 3 !== 0);
    expect(table.size).toBe(kept.length);
    expect(new Set(table.keys())).toEqual(new Set(kept));
    ids.forEach((id, i) => {
      expect(table.get(id), id).toEqual(i % 3 === 0 ? undefined : sig(i));
      expect(docs.get(i), id).toBe(i % 3 === 0 ? undefined : id);
    });
    // Set again: the freed slots are reused, each id still finds its own row.
    for (let i = 0; i < ids.length; i += 3) table.set(ids[i], sig(i + 1));
    expect(table.size).toBe(ids.length);
    ids.forEach((id, i) => expect(table.get(id), id).toEqual(sig(i % 3 === 0 ? i + 1 : i)));
    expect(Object.fromEntries(table.entries())).toEqual(Object.fromEntries(ids.map((id) => [id, table.get(id)])));
    expect(table.get('sess-1:2')).toBeUndefined();
    expect(table.get('sess-1:7')).toEqual(sig(2));
  });

  it('DenseIds holds a short id that is its own id in a byte, any other value beside it, as a Map would', () => {
    const map = new Map<number, unknown>();
    const dense = new DenseIds<unknown>();
    const both = (f: (m: Map<number, unknown> | DenseIds<unknown>) => void) => [map, dense].forEach(f);
    for (let id = 0; id < 300; id++) both((m) => m.set(id, id));
    both((m) => m.set(5, 'five').set(400, 400).set(7, 7));
    both((m) => {
      m.delete(9);
      m.delete(6);
    });
    both((m) => m.set(6, 6));
    const sorted = (m: Iterable<[number, unknown]>) => [...m].sort((a, b) => a[0] - b[0]);
    expect(sorted(dense)).toEqual(sorted(map));
    expect(dense.size).toBe(map.size);
    expect(dense.get(5)).toBe('five');
    expect(dense.has(9)).toBe(false);
    expect(dense.delete(9)).toBe(false);
  });
});
