import { useEffect, useState } from 'react';
import { bridge } from '../bridge';
import { PAGE } from './sessionSync';
import { sessionSync } from './start';
import type { EntryPick } from '../../src-shared/session/window';
import { useStore } from './store';

/*
 * The transcript's entries arrive a page at a time (issue 23; src-shared/session/window.ts):
 * what a view needs loaded, it asks for here.
 */

/** Loads entries `[from, to)` of a session that are not loaded yet. */
export function ensureEntries(sessionId: string, from: number, to: number): Promise<void> {
  return sessionSync.ensure(sessionId, from, to);
}

/** Whether main reported file changes anywhere in the session, loaded or not (with its window). */
export function windowReportsChanges(sessionId: string): boolean {
  return sessionSync.reportedChanges(sessionId);
}

/** How many terminals the session had run when main sent its window (the page holds only some: windowTerminals.ts). */
export function windowTerminalCount(sessionId: string): number {
  return sessionSync.terminalCount(sessionId);
}

/** Loads the page around an entry known only by its id (a search hit); resolves to its index, or null. */
export async function ensureEntry(sessionId: string, entryId: string): Promise<number | null> {
  const { index } = await bridge.request('session.locate', { sessionId, entryId });
  if (index !== null) await sessionSync.ensure(sessionId, Math.max(0, index - PAGE / 2), index + PAGE / 2);
  return index;
}

/**
 * For views that read every entry of one kind (the Review list's changes, message numbers, usage
 * totals): loads those entries wherever they are (`session.pick`) while mounted. Returns whether
 * main has answered (the entries are in the store, or will be at the `seq` main folded them to).
 */
export function usePicked(sessionId: string, pick: EntryPick): boolean {
  const [done, setDone] = useState<string | null>(null);
  const key = `${sessionId}:${pick}`;
  const loaded = useStore((s) => Boolean(s.sessions[sessionId]));
  useEffect(() => {
    if (!loaded) return;
    let live = true;
    void sessionSync.pick(sessionId, pick).then(() => live && setDone(key));
    return () => {
      live = false;
    };
  }, [sessionId, pick, key, loaded]);
  return done === key;
}
