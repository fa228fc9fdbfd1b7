import MiniSearch from 'minisearch';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { AppCore } from '../core/appCore';
import { makeCore, reopenCore } from '../testing/coreHarness';
import { SearchIndex } from './searchIndex';
import { queryTerms, topQuery } from './topQuery';

const cores: AppCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
});

function state(sessionId: string, words: string[]) {
  const bodies: SessionEventBody[] = [{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }];
  words.forEach((text, i) => {
    bodies.push({ kind: 'turn.started', turnId: `t${i}`, prompt: [{ type: 'text', text }] });
    bodies.push({ kind: 'turn.ended', turnId: `t${i}`, stopReason: 'end_turn' });
  });
  return reduceSession(
    undefined,
    bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: 1000 + i }) as SessionEvent),
  );
}

describe('search off the hot path', () => {
  it('ranks as MiniSearch does: the same best hits, in the same order', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const vocabulary = ['parser', 'parsers', 'parsing', 'stream', 'streamed', 'okapi', 'okapis', 'flamingo', 'flamenco', 'lorem', 'ipsum', 'dolor'];
    const docs = Array.from({ length: 400 }, (_, i) => ({
      id: `d${i}`,
      text: Array.from({ length: 3 + Math.floor(random() * 12) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
    }));
    const fuzzy = (term: string) => (term.length > 5 ? 0.15 : false);
    const mini = new MiniSearch<{ id: string; text: string }>({
      fields: ['text'],
      searchOptions: { prefix: true, fuzzy, combineWith: 'AND' },
    });
    mini.addAll(docs);
    mini.discard('d3'); // discarded documents stay in the postings until a vacuum: skipped
    mini.discard('d7');
    await mini.vacuum();
    mini.discard('d11');
    for (const query of ['parser', 'pars stream', 'flamingo', 'okapi lorem', 'streamed dolor ipsum', 'nothing']) {
      // MiniSearch drops a discarded document's postings during its first search over them, still
      // counting it for the documents scored before: compare with its second, settled answer.
      mini.search(query);
      const expected = mini.search(query).slice(0, 20);
      const internal = (mini as unknown as { _documentIds: Map<number, string> })._documentIds;
      const got = topQuery(mini, queryTerms(query), 20, fuzzy).map((hit) => ({ id: internal.get(hit.shortId), score: hit.score }));
      // The same scores in the same order (documents of equal score may come in either order).
      expect(got).toHaveLength(expected.length);
      got.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i].score, 9));
      const scoreOf = new Map(mini.search(query).map((hit) => [hit.id as string, hit.score]));
      for (const hit of got) expect(scoreOf.get(hit.id!)).toBeCloseTo(hit.score, 9);
    }
  });

  it('saves only the sessions that changed, and loads each from its own file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-'));
    const index = new SearchIndex(dir, 60_000);
    index.indexState(state('s1', ['the okapi']), 10, true);
    index.indexState(state('s2', ['the heron']), 10, true);
    index.flush();
    const file = (id: string) => join(index.dir, `${id}.json`);
    const inode = statSync(file('s1')).ino;
    index.indexState(state('s2', ['the heron', 'and the egret']), 20, false);
    index.flush();
    expect(statSync(file('s1')).ino).toBe(inode); // untouched: not rewritten
    const again = new SearchIndex(dir);
    await again.load();
    expect(again.indexedLogSize('s1')).toBe(10);
    expect(again.indexedLogSize('s2')).toBe(20);
    expect((await again.query('egret')).map((hit) => hit.sessionId)).toEqual(['s2']);
    expect(again.indexedDocuments).toBe(0);
  });

  it('a query over several sessions lets the event loop run between them', async () => {
    const index = new SearchIndex(mkdtempSync(join(tmpdir(), 'acp-search-')), 60_000);
    for (const id of ['s1', 's2', 's3']) index.indexState(state(id, [`the okapi of ${id}`]), 10, true);
    await index.idle();
    const order: string[] = [];
    const query = index.query('okapi').then((hits) => order.push(`query: ${hits.length} hits`));
    setImmediate(() => order.push('other work'));
    await query;
    expect(order).toEqual(['other work', 'query: 3 hits']);
  });

  it('a restart with nothing changed re-indexes no document', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'about the axolotl');
    const b = await h.newSession();
    await h.prompt(b, 'about the pangolin');
    await h.core.history.reconcile();
    await h.core.history.search.idle();
    expect(h.core.history.search.indexedDocuments).toBeGreaterThan(0);
    await h.core.dispose();

    const core = await reopenCore(h);
    cores.push(core);
    const { hits } = await core.handlers['search.query']({ text: 'pangolin' });
    expect(hits.map((hit) => hit.sessionId)).toContain(b);
    await core.history.search.idle();
    expect(core.history.search.indexedDocuments).toBe(0);
  });

  it('a restart with nothing changed sends the search worker no entry text, for the tabs it brings back too', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'about the quokka');
    await h.core.history.reconcile();
    await h.core.history.search.idle();
    await h.core.dispose();

    const core = await reopenCore(h);
    cores.push(core);
    await core.handlers['session.open']({ sessionId: a });
    const { hits } = await core.handlers['search.query']({ text: 'quokka' });
    expect(new Set(hits.map((hit) => hit.sessionId))).toEqual(new Set([a]));
    await core.history.search.idle();
    // A tab brought back whose log did not change costs the worker nothing: no entry is sent to be hashed again.
    expect(core.history.search.textsSent).toBe(0);
  });
});
