import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryText } from '../../src-shared/history/entryText';
import { DocTexts } from './docTexts';
import { SearchIndex } from './searchIndex';
import { wordSession } from '../testing/wordSessions';

/**
 * Host memory (issue 23, round 4): a guard that counts what the search index holds, not time.
 * Before, every posting was a Map entry (~52 bytes), every document a stored-fields object, an
 * id string in two Maps and a `[length]` array, and every text a string.
 */
describe('what the search index holds', () => {
  it('a loaded index keeps 8 bytes a posting in typed arrays, no posting Map, and its texts compressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-memory-'));
    const built = new SearchIndex(dir, 60_000);
    const state = wordSession('s1', 3000, { perTurn: 12, stride: 7 });
    built.indexState(state, 100, true);
    built.flush();
    const rawChars = state.entries.reduce((sum, entry) => sum + entryText(entry).length, 0);
    for (const index of [built, new SearchIndex(dir)]) {
      await index.load();
      const held = index.memory();
      expect(held.documents).toBe(6000);
      expect(held.postings).toBeGreaterThan(6000 * 8);
      expect(held.mapPostings).toBe(0);
      expect(held.postingBytes).toBeLessThanOrEqual(8 * held.postings);
      expect(held.textBytes).toBeGreaterThan(0);
      expect(held.textBytes).toBeLessThan(rawChars / 2);
    }
  });

  it('texts come back by short id from compressed blocks, across blocks, after a change and with a NUL', () => {
    const texts = new DocTexts();
    for (let id = 0; id < 300; id++) if (id !== 77) texts.set(id, `text number ${id} ${'word '.repeat(id % 9)}`);
    texts.seal();
    expect(texts.get(0)).toBe('text number 0 ');
    expect(texts.get(299)).toBe(`text number 299 ${'word '.repeat(299 % 9)}`);
    expect(texts.get(77)).toBeUndefined();
    expect(texts.get(1000)).toBeUndefined();
    texts.set(5, 'changed');
    texts.set(300, 'a\u0000b');
    texts.seal();
    expect(texts.get(5)).toBe('changed');
    expect(texts.get(6)).toBe(`text number 6 ${'word '.repeat(6)}`);
    expect(texts.get(300)).toBe('a b');
    expect(texts.compressedBytes).toBeGreaterThan(0);
  });
});
