import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppState } from '../../src-shared/ipc/appState';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { EventLog } from '../store/eventLog';
import { catalogEntry, SessionCatalog } from '../store/sessionCatalog';
import { reduceSession } from '../../src-shared/session/reducer';
import { disposer, makeCore } from '../testing/coreHarness';

/**
 * Tabs coming back after a restart (issue 23, round 6): the page's first answer comes before the
 * open tabs' sessions are read back. Every saved tab must be in the tab list from that answer on,
 * in its saved place and named, so a tab does not move under the pointer while the others come
 * back; a tab not read back yet can be shown (its window waits for it); one that cannot be read
 * back stays in its place and says why.
 */
const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

function writeSession(dataDir: string, sessionId: string, title: string | null, said: string): SessionEvent[] {
  const bodies: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture', cwd: dataDir, ...(title ? { title } : {}) },
    { kind: 'session.connected', acpSessionId: `acp_${sessionId}`, how: 'new' },
    { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: said }] },
    { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
  ];
  const events = bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: Date.UTC(2026, 0, 1) + i }) as SessionEvent);
  const log = new EventLog(join(dataDir, 'sessions', `${sessionId}.jsonl`));
  log.append(events);
  log.close();
  return events;
}

/**
 * Three open tabs, the middle one shown: `s_alpha` is in the history catalog under a later title
 * than its log's first line, `s_beta` has a title only in its first line, `s_gamma` neither.
 */
function folderWithThreeTabs(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-tabs-'));
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const alpha = writeSession(dataDir, 's_alpha', 'first title', 'about the okapi');
  writeSession(dataDir, 's_beta', 'The heron', 'about the heron');
  writeSession(dataDir, 's_gamma', null, 'about the ibis');
  const catalog = new SessionCatalog(dataDir, 0);
  catalog.put(catalogEntry({ ...reduceSession(undefined, alpha), title: 'The okapi' }, 1));
  catalog.flush();
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_beta' }));
  return dataDir;
}

describe('open tabs while the host reads them back (issue 23, round 6)', () => {
  it('lists every saved tab, in its place and named, from the first answer until all are back', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithThreeTabs() }));
    const pushed: AppState[] = [];
    h.core.on((name, payload) => {
      if (name === 'app.state') pushed.push(payload as AppState);
    });

    const first = await h.core.handlers['app.state']({});
    expect(h.core.sessions.sessions.size).toBe(0);
    expect(first.tabs).toEqual({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_beta' });
    expect(first.restoring).toBe(3);
    expect(first.tabsNotBack).toEqual([
      { sessionId: 's_alpha', title: 'The okapi', agentName: 'Fixture' },
      { sessionId: 's_beta', title: 'The heron', agentName: 'Fixture' },
      { sessionId: 's_gamma', title: null, agentName: 'Fixture' },
    ]);

    await h.core.ready;
    await h.waitFor(() => pushed.some((state) => state.restoring === undefined), 'every tab back');
    // No state the page was told of had a tab missing or out of its place.
    for (const state of pushed) expect(state.tabs).toEqual({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_beta' });
    // The shown tab first, then the others in tab order, each leaving the placeholders as it comes
    // back. The pushes of one tick are one push, so a step may not be seen: each push is one of
    // the steps, and they only shrink.
    const steps = [['s_alpha', 's_beta', 's_gamma'], ['s_alpha', 's_gamma'], ['s_gamma']];
    const seen = pushed.filter((state) => state.restoring !== undefined).map((state) => state.tabsNotBack?.map((tab) => tab.sessionId) ?? []);
    for (const list of seen) expect(steps).toContainEqual(list);
    expect(seen.map((list) => list.length)).toEqual(seen.map((list) => list.length).sort((a, b) => b - a));
    expect(pushed.at(-1)!.tabsNotBack).toBeUndefined();
    expect(
      h.core
        .state()
        .sessions.map((summary) => summary.sessionId)
        .sort(),
    ).toEqual(['s_alpha', 's_beta', 's_gamma']);
  });

  it('a tab shown before it is back keeps its place, is read back first, and its window is answered once it is back', async () => {
    const h = harnesses.track(makeCore([], {}, { dataDir: folderWithThreeTabs(), core: { restoreAfterFirstAnswerMs: 600_000 } }));
    const order: string[] = [];
    const restore = h.core.sessions.restore.bind(h.core.sessions);
    vi.spyOn(h.core.sessions, 'restore').mockImplementation((sessionId) => {
      order.push(sessionId);
      return restore(sessionId);
    });
    await h.core.handlers['app.state']({});
    // The person clicks the last tab at once (the page sends the tabs it shows, with that one active).
    await h.core.handlers['tabs.set']({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_gamma' });
    expect(h.core.state().tabs).toEqual({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_gamma' });
    // Asked before it is back: the answer waits for it (it was "No session").
    const window = await h.core.handlers['session.window']({ sessionId: 's_gamma' });
    expect(JSON.stringify(window.state.entries)).toContain('about the ibis');

    await h.core.ready;
    // Shown before the restore began: read back before the tab the last run showed.
    expect(order).toEqual(['s_gamma', 's_alpha', 's_beta']);
    expect(h.core.state().tabs).toEqual({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_gamma' });
  });

  it('a tab whose session cannot be read back stays in its place and says why; closing it closes it', async () => {
    const dataDir = folderWithThreeTabs();
    writeFileSync(join(dataDir, 'sessions', 's_beta.jsonl'), 'this is not an event log\n');
    const h = harnesses.track(makeCore([], {}, { dataDir }));
    await h.core.handlers['app.state']({});
    await h.core.ready;

    const state = h.core.state();
    expect(state.tabs).toEqual({ open: ['s_alpha', 's_beta', 's_gamma'], active: 's_beta' });
    expect(state.restoring).toBeUndefined();
    expect(state.tabsNotBack).toEqual([{ sessionId: 's_beta', title: null, agentName: null, error: 'Its log is missing or holds no session.' }]);
    await expect(h.core.handlers['session.window']({ sessionId: 's_beta' })).rejects.toThrow('Its log is missing or holds no session.');

    await h.core.handlers['session.close']({ sessionId: 's_beta' });
    expect(h.core.state().tabs.open).toEqual(['s_alpha', 's_gamma']);
    expect(h.core.state().tabsNotBack).toBeUndefined();
  });
});
