import MiniSearch from 'minisearch';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import { disposer, makeCore } from '../testing/coreHarness';
import { SearchProxy } from './searchProxy';
import { packTexts, unpackTexts } from './searchTexts';

const harnesses = disposer();
const proxies: SearchProxy[] = [];
afterEach(async () => {
  await harnesses.disposeAll();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.dispose()));
  vi.restoreAllMocks();
});

/** A session of `turns` prompts (each a user entry and a stop entry). */
function longState(sessionId: string, turns: number) {
  const bodies: SessionEventBody[] = [{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }];
  for (let i = 0; i < turns; i++) {
    bodies.push({
      kind: 'turn.started',
      turnId: `t${i}`,
      prompt: [{ type: 'text', text: `entry ${i} about the okapi${i % 7 === 0 ? ' and the heron' : ''}` }],
    });
    bodies.push({ kind: 'turn.ended', turnId: `t${i}`, stopReason: 'end_turn' });
  }
  return reduceSession(
    undefined,
    bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: 1000 + i }) as SessionEvent),
  );
}

// The guard counts work rather than time: indexing 50,000 documents through the proxy adds no
// document to any MiniSearch on the host's thread; the worker holds all of them.
it('indexing 50,000 documents runs no index code on the host thread', async () => {
  const state = longState('s1', 50_000);
  const addAll = vi.spyOn(MiniSearch.prototype, 'addAll');
  const add = vi.spyOn(MiniSearch.prototype, 'add');
  const proxy = new SearchProxy(mkdtempSync(join(tmpdir(), 'acp-search-')));
  proxies.push(proxy);
  await proxy.loadManifest();
  await proxy.load();
  proxy.indexState(state, 100, true);
  await proxy.idle();

  expect(proxy.indexedDocuments).toBe(50_000);
  expect(addAll).not.toHaveBeenCalled();
  expect(add).not.toHaveBeenCalled();
  const hits = await proxy.query('heron', 10);
  expect(hits).toHaveLength(10);
  expect(hits.every((hit) => hit.sessionId === 's1' && hit.snippet.includes('heron'))).toBe(true);
}, 120_000);

it('a search worker that dies is started again: the person is told, and search finds what was indexed before', async () => {
  const h = harnesses.track(makeCore());
  const sessionId = await h.newSession();
  await h.prompt(sessionId, 'about the axolotl');
  await h.core.history.reconcile();
  await h.core.history.search.idle();
  expect((await h.core.history.query('axolotl')).map((hit) => hit.sessionId)).toContain(sessionId);

  // Nothing was saved yet (the save waits 5 s): the new worker has only the logs to go by.
  const worker = (h.core.history.search as unknown as { worker: Worker }).worker;
  await worker.terminate();
  const hits = await h.core.history.query('axolotl');

  expect(hits.map((hit) => hit.sessionId)).toContain(sessionId);
  expect(h.core.state().notices.map((notice) => notice.message)).toContainEqual(expect.stringContaining('The search worker stopped'));
  const replaced = (h.core.history.search as unknown as { worker: Worker }).worker;
  expect(replaced).not.toBe(worker);
});

it('a search worker that keeps dying is not started forever: search then says it is off', async () => {
  const problems: string[] = [];
  const proxy = new SearchProxy(mkdtempSync(join(tmpdir(), 'acp-search-')), (message) => problems.push(message));
  proxies.push(proxy);
  await proxy.loadManifest();
  proxy.indexState(longState('s1', 3), 10, true);
  for (let crash = 1; crash <= 3; crash++) {
    await (proxy as unknown as { worker: Worker }).worker.terminate();
    // Each time it comes back: the query is answered (from what was saved: nothing, here).
    expect(await proxy.query('okapi')).toEqual([]);
  }
  await (proxy as unknown as { worker: Worker }).worker.terminate();

  await expect(proxy.query('okapi')).rejects.toThrow('search is off until the app restarts');
  expect(problems).toHaveLength(4);
  expect(problems.at(-1)).toContain('stopped 4 times');
});

it('texts cross to the worker in one buffer and come back the same, whatever their characters', () => {
  const texts = ['plain', '', 'accents: é à ü, CJK: 検索, emoji: 🦦🦩', 'a lone surrogate \ud800 stays one unit', 'end'];
  const change = {
    sessionId: 's',
    logSize: 1,
    scanned: 5,
    full: true,
    ids: ['a', 'b', 'c', 'd', 'e'],
    kinds: Array<string>(5).fill('user'),
    texts,
    present: null,
  };
  const back = unpackTexts(packTexts(change));
  expect(back.texts.slice(0, 3)).toEqual(texts.slice(0, 3));
  expect(back.texts[3]).toBe('a lone surrogate \ufffd stays one unit');
  expect(back.texts[4]).toBe('end');
  expect(back.ids).toEqual(change.ids);
});

it('quitting twice (a host stopped, then its harness) waits for the one stop instead of asking a stopped worker', async () => {
  const proxy = new SearchProxy(mkdtempSync(join(tmpdir(), 'acp-search-')));
  await proxy.loadManifest();
  await Promise.all([proxy.dispose(), proxy.dispose()]);
  await proxy.dispose();
  await expect(proxy.flush()).rejects.toThrow(/quitting/);
});
