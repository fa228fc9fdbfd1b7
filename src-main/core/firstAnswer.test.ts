import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppState } from '../../src-shared/ipc/appState';
import { disposer, makeCore } from '../testing/coreHarness';
import { writeLongLog } from '../testing/longLog';

/**
 * Cold start (issue 23): what runs before the page's first answer. The page needs the agent list
 * (`app.state`); restoring the open tabs' sessions (a fold or snapshot read per tab, seconds for
 * long sessions) and the search worker (a thread, then its saved index's load) come after it, not
 * before. This counts what was done when the answer came rather than timing it.
 */
const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

/** A data folder whose last run left two long sessions open in tabs. */
function folderWithOpenTabs(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-first-'));
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  writeLongLog(join(dataDir, 'sessions', 's_one.jsonl'), 2_000, 's_one', ' about the okapi');
  writeLongLog(join(dataDir, 'sessions', 's_two.jsonl'), 2_000, 's_two', ' about the heron');
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one', 's_two'], active: 's_two' }));
  return dataDir;
}

describe('the first answer of a host with long sessions open (issue 23, cold start)', () => {
  it('lists the agents before any open session is restored and without starting the search worker; the tabs follow', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs() }));
    const pushed: AppState[] = [];
    h.core.on((name, payload) => {
      if (name === 'app.state') pushed.push(payload as AppState);
    });

    const first = await h.core.handlers['app.state']({});
    expect(first.agents.map((agent) => agent.name)).toContain('Fixture');
    expect(h.core.sessions.sessions.size).toBe(0);
    // The page is told the tabs are on their way (it shows that, not an empty window).
    expect(first.restoring).toBe(2);
    expect(h.core.history.search.started).toBe(false);

    // The restore goes on after the answer, and the page is told when the tabs are back.
    await h.core.ready;
    await h.waitFor(() => pushed.some((state) => state.restoring === undefined), 'the restored tabs to be pushed');
    expect(pushed.at(-1)!.tabs).toEqual({ open: ['s_one', 's_two'], active: 's_two' });
    expect(pushed.at(-1)!.restoring).toBeUndefined();
    expect(pushed.at(-1)!.tabsNotBack).toBeUndefined();
    // The active tab came back first, with the other still on its way (in its place).
    expect(pushed.find((state) => state.restoring === 1)).toMatchObject({
      tabs: { open: ['s_one', 's_two'], active: 's_two' },
      tabsNotBack: [{ sessionId: 's_one' }],
    });
    expect(h.core.sessions.sessions.size).toBe(2);
    expect(h.core.history.search.started).toBe(false);
  });

  it('a session opened while the tabs are being restored keeps its tab, after the restored ones', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs() }));
    await h.core.handlers['app.state']({});
    const { sessionId } = await h.core.handlers['session.new']({ agentId: 'fixture', cwd: h.workspace });
    await h.core.ready;

    expect(h.core.state().tabs).toEqual({ open: ['s_one', 's_two', sessionId], active: sessionId });
  });

  it('a tab the person closes while the other tabs are restored stays closed', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs() }));
    let closing: Promise<unknown> | null = null;
    h.core.on((name, payload) => {
      // The active tab is back, the other is still being read: the person closes the one shown.
      if (name === 'app.state' && !closing && (payload as AppState).tabsNotBack?.map((tab) => tab.sessionId).join() === 's_one')
        closing = h.core.handlers['session.close']({ sessionId: 's_two' });
    });
    await h.core.handlers['app.state']({});
    await h.core.ready;
    expect(closing).not.toBeNull();
    await closing;
    expect(h.core.state().tabs).toEqual({ open: ['s_one'], active: 's_one' });
  });

  it('a host with a window restores the tabs once the first answer is sent, or after a while when no window asks', async () => {
    const asked = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs(), core: { restoreAfterFirstAnswerMs: 600_000 } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked.core.sessions.sessions.size).toBe(0);
    await asked.core.handlers['app.state']({});
    await asked.core.ready;
    expect(asked.core.state().tabs).toEqual({ open: ['s_one', 's_two'], active: 's_two' });

    const unasked = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs(), core: { restoreAfterFirstAnswerMs: 50 } }));
    await unasked.core.ready;
    expect(unasked.core.state().tabs).toEqual({ open: ['s_one', 's_two'], active: 's_two' });
  });

  it('a message the page sends to a tab not read back yet (the host restarted under it) is taken, not refused', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs(), core: { restoreAfterFirstAnswerMs: 600_000 } }));
    await h.core.handlers['app.state']({});
    expect(h.core.sessions.sessions.size).toBe(0);
    await h.core.handlers['session.prompt']({ sessionId: 's_one', prompt: [{ type: 'text', text: 'typed while offline' }] });
    const entries = h.core.sessions.current('s_one').entries;
    expect(JSON.stringify(entries.slice(-3))).toContain('typed while offline');
  });

  it('the search worker starts on the first search, which finds what the restored sessions said', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithOpenTabs() }));
    await h.core.ready;
    expect(h.core.history.search.started).toBe(false);

    const { hits } = await h.core.handlers['search.query']({ text: 'heron' });
    expect(h.core.history.search.started).toBe(true);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.sessionId === 's_two' && hit.snippet.includes('heron'))).toBe(true);
  });
});
