import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionLines, Slicer } from './searchFile';
import { SearchIndex } from './searchIndex';
import { wordSession } from '../testing/wordSessions';

const QUERIES = ['parser', 'okapi zebra', 'stre', 'arrivng', 'Question 17', 'heron waits line', 'nothing-here'];

describe('the saved search index (short lines, loaded in slices)', () => {
  it('a loaded index answers every query as the saved one did: same entries, scores and snippets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-file-'));
    const index = new SearchIndex(dir, 60_000);
    index.indexState(wordSession('s1', 1500), 100, true);
    index.indexState(wordSession('s2', 40), 200, true);
    index.flush();
    // Entries gone from a session leave discarded documents behind (MiniSearch's dirt): saved too.
    index.indexState(wordSession('s2', 40, { skip: 7 }), 210, true);
    index.flush();
    const again = new SearchIndex(dir);
    await again.load();
    expect(again.loadError).toBeNull();
    expect(again.documentCount).toBe(index.documentCount);
    expect(again.indexedLogSize('s2')).toBe(210);
    for (const query of QUERIES) expect(again.search(query), query).toEqual(index.search(query));
    expect(again.search('Question 7').some((hit) => hit.entryId.startsWith('s2'))).toBe(index.search('Question 7').some((hit) => hit.entryId.startsWith('s2')));
    // Nothing changed, so nothing was indexed again.
    expect(again.indexedDocuments).toBe(0);
  });

  it('a long session is many short lines, each parsed after a chance for the event loop to run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-file-'));
    const index = new SearchIndex(dir, 60_000);
    index.indexState(wordSession('s1', 3000), 100, true);
    index.flush();
    const lines = readFileSync(join(index.dir, 's1.json'), 'utf8').split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const slicer = new Slicer(0); // a pause before every line
    const { entries, mini } = await loadSessionLines(lines.slice(1), { idField: 'id', fields: ['text'], storeFields: ['entryId'] }, slicer);
    expect(slicer.pauses).toBe(lines.length - 1);
    expect(entries.size).toBe(6000);
    expect(mini.documentCount).toBe(6000);
  });

  it("the timer's save, in slices, writes an index that loads; a change made meanwhile is saved after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-file-'));
    const index = new SearchIndex(dir, 0);
    index.indexState(wordSession('s1', 2000), 100, true);
    await index.idle();
    // The save starts on its timer; this change arrives while it may still be writing.
    await new Promise((resolve) => setTimeout(resolve, 1));
    index.indexState(wordSession('s2', 5), 50, true);
    await index.idle();
    const s2File = join(index.dir, 's2.json');
    for (let i = 0; i < 500 && !(existsSync(s2File) && readFileSync(index.file, 'utf8').includes('"s2"')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await index.idle();
    }
    const again = new SearchIndex(dir);
    await again.load();
    expect(again.indexedSessions().sort()).toEqual(['s1', 's2']);
    expect(again.indexedLogSize('s1')).toBe(100);
    expect(again.search('Question 1999')).toEqual(index.search('Question 1999'));
    expect(again.search('Question 4', 5000).map((hit) => hit.sessionId)).toContain('s2');
  });

  it('the manifest alone answers which sessions are indexed; a change made before a session loads replaces its saved index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-file-'));
    const index = new SearchIndex(dir, 60_000);
    index.indexState(wordSession('s1', 300), 100, true);
    index.indexState(wordSession('s2', 30), 200, true);
    index.flush();
    const again = new SearchIndex(dir, 60_000);
    await again.loadManifest();
    expect(again.loaded).toBe(true);
    expect(again.indexedSessions().sort()).toEqual(['s1', 's2']);
    expect(again.indexedLogSize('s1')).toBe(100);
    // s2 grew (a turn more) and is re-indexed from its state while the saved indexes load.
    again.indexState(wordSession('s2', 31), 250, true);
    await again.load();
    await again.idle();
    expect(again.indexedLogSize('s2')).toBe(250);
    expect(again.search('Question 30').some((hit) => hit.entryId.startsWith('s2'))).toBe(true);
    expect(again.search('Question 299')).toEqual(index.search('Question 299'));
    // Saving before a session's index is loaded keeps it in the manifest and on disk.
    const third = new SearchIndex(dir, 60_000);
    await third.loadManifest();
    third.removeSession('s2');
    await third.idle();
    third.flush();
    const fourth = new SearchIndex(dir);
    await fourth.load();
    expect(fourth.indexedSessions()).toEqual(['s1']);
    expect(fourth.search('Question 299')).toEqual(index.search('Question 299'));
  });

  it('a live change to a session whose saved index is loading waits for it, and indexes only what is new', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-file-'));
    const index = new SearchIndex(dir, 60_000);
    index.indexState(wordSession('s1', 2000), 100, true);
    index.flush();
    const again = new SearchIndex(dir, 60_000);
    await again.loadManifest();
    const loading = again.load();
    // The session's next turn arrives (a live update, not a full scan) while its index loads.
    again.indexState(wordSession('s1', 2001), 150, false);
    await loading;
    await again.idle();
    expect(again.indexedLogSize('s1')).toBe(150);
    // The new turn's prompt and reply, not the 4,002 documents of a full re-index.
    expect(again.indexedDocuments).toBeLessThanOrEqual(4);
    expect(again.search('Question 2000').some((hit) => hit.kind === 'user')).toBe(true);
    // The loaded part is still there (its scores shift a little: the session has more documents).
    expect(again.search('Question 1999')[0].entryId).toBe(index.search('Question 1999')[0].entryId);
  });
});
