import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import { EventLog } from '../store/eventLog';
import { turnEvents, writeLongLog } from '../testing/longLog';
import { foldLog } from './sessionRestore';

/**
 * The regression guard for long sessions: it counts work, not time. Opening a 50,000-entry
 * session again reads only the events written since its snapshot, however long the log is.
 */
describe('opening a 50,000-entry session', () => {
  it('parses the whole log once, then only what was added since', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'acp-long-')), 'sessions', 's_long.jsonl');
    const lastSeq = writeLongLog(file, 50_000, 's_long');
    expect(statSync(file).size).toBeGreaterThan(20_000_000);

    const first = await foldLog(file);
    expect(first!.state.entries).toHaveLength(50_000);
    expect(first!.eventsParsed).toBe(lastSeq); // no snapshot yet: every event, once

    const again = await foldLog(file);
    expect(again!.eventsParsed).toBe(0);
    expect(again!.state.entries).toHaveLength(50_000);

    // A turn more (10 events), as a live session appends it.
    const log = new EventLog(file);
    log.append(turnEvents(12_500).map((body, i) => ({ ...body, sessionId: 's_long', seq: lastSeq + 1 + i, ts: i }) as SessionEvent));
    log.close();
    const after = await foldLog(file);
    expect(after!.eventsParsed).toBe(10);
    expect(after!.state.entries).toHaveLength(50_004);
    expect(after!.state.lastSeq).toBe(lastSeq + 10);
  }, 120_000);
});

/**
 * The page's side of the guard (issue 23, paging): what crosses the contract to open a
 * 50,000-entry session in the page is bounded by the window, not the length; older entries come
 * a page at a time, each the same as main's.
 */
describe('the page opening a 50,000-entry session', () => {
  it('gets the newest window of entries and no events, then older pages on demand', async () => {
    const { mkdirSync } = await import('node:fs');
    const { createStore } = await import('zustand/vanilla');
    const { makeCore } = await import('../testing/coreHarness');
    const { createAppliedEvents } = await import('../../src-renderer/store/appliedEvents');
    const { createSessionSync, PAGE } = await import('../../src-renderer/store/sessionSync');
    const { sessionFetchers } = await import('../../src-renderer/store/sessionFetchers');
    const { WINDOW_SIZE } = await import('../../src-shared/session/window');
    type SessionState = import('../../src-shared/session/state').SessionState;
    type Request = Parameters<typeof sessionFetchers>[0];

    const h = makeCore();
    mkdirSync(join(h.dataDir, 'sessions'), { recursive: true });
    const lastSeq = writeLongLog(join(h.dataDir, 'sessions', 's_long.jsonl'), 50_000, 's_long');
    await h.core.handlers['session.open']({ sessionId: 's_long' });

    // Everything the page is sent, counted by what it carries.
    let entriesSent = 0;
    let eventsSent = 0;
    const request = (async (name: string, input: unknown) => {
      const result = (await (h.core.handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>)[name]!(input)) as Record<string, unknown>;
      if (Array.isArray(result.events)) eventsSent += result.events.length;
      const entries = (result.state as { entries?: unknown[] } | undefined)?.entries ?? result.entries;
      if (Array.isArray(entries)) entriesSent += entries.length;
      return result;
    }) as Request;
    const store = createStore<{ sessions: Record<string, SessionState> }>()(() => ({ sessions: {} }));
    const sync = createSessionSync({
      store,
      applied: createAppliedEvents(),
      onError: (error) => {
        throw error;
      },
      ...sessionFetchers(request),
    });

    await sync.load('s_long');
    const page = store.getState().sessions.s_long;
    const main = await h.core.handlers['session.entries']({ sessionId: 's_long', from: 49_999, to: 50_000 });
    expect(eventsSent).toBe(0);
    expect(entriesSent).toBe(WINDOW_SIZE);
    expect(page.entries).toHaveLength(50_000);
    expect(page.lastSeq).toBe(lastSeq);
    expect(page.entries[49_999]).toEqual(main.entries[0]);
    expect(page.entries[0]).toBeUndefined();

    // Scrolled to the top: the first page, as main has it.
    await sync.ensure('s_long', 0, 10);
    const top = await h.core.handlers['session.entries']({ sessionId: 's_long', from: 0, to: PAGE });
    expect(entriesSent).toBe(WINDOW_SIZE + PAGE);
    expect(store.getState().sessions.s_long.entries.slice(0, PAGE)).toEqual(top.entries);
    expect(eventsSent).toBe(0);
  }, 180_000);
});

/**
 * Terminals are paged with their entries (issue 23): a session that ran a command in every other
 * turn holds thousands of terminals with their output, and its window carried them all (7.6 MB at
 * 50,000 entries; the page then mounted an xterm for each in the side panel).
 */
describe('opening a 50,000-entry session that ran 6,250 terminals', () => {
  it('sends the terminals its newest rows show and the panel lists, not every one', async () => {
    const { mkdirSync } = await import('node:fs');
    const { makeCore } = await import('../testing/coreHarness');
    const { PANEL_TERMINALS } = await import('../../src-shared/session/windowTerminals');
    const h = makeCore();
    mkdirSync(join(h.dataDir, 'sessions'), { recursive: true });
    writeLongLog(join(h.dataDir, 'sessions', 's_terms.jsonl'), 50_000, 's_terms', '', 'mixed');
    await h.core.handlers['session.open']({ sessionId: 's_terms' });

    const window = await h.core.handlers['session.window']({ sessionId: 's_terms' });
    expect(window.terminalCount).toBe(6_250);
    const sent = Object.keys(window.state.terminals);
    const shown = new Set(
      window.state.entries.flatMap((e) => (e.kind === 'tool' ? e.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : [])) : [])),
    );
    expect(shown.size).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(shown.size + PANEL_TERMINALS);
    for (const id of shown) expect(sent).toContain(id);
    expect(JSON.stringify(window.state.terminals).length).toBeLessThan(64 * 1024);

    // A page far back brings the terminals of its rows.
    const top = await h.core.handlers['session.entries']({ sessionId: 's_terms', from: 0, to: 100 });
    expect(Object.keys(top.terminals ?? {})).toContain('term1');
  }, 180_000);
});
