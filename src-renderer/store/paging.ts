import { useEffect, useState } from 'react';
import { bridge } from '../bridge';
import { PAGE } from './sessionSync';
import { sessionSync } from './start';
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

/** Loads the page around an entry known only by its id (a search hit); resolves to its index, or null. */
export async function ensureEntry(sessionId: string, entryId: string): Promise<number | null> {
  const { index } = await bridge.request('session.locate', { sessionId, entryId });
  if (index !== null) await sessionSync.ensure(sessionId, Math.max(0, index - PAGE / 2), index + PAGE / 2);
  return index;
}

/**
 * For views that read every entry of a session (the Review panel's changed files, usage totals):
 * loads the whole transcript while mounted. Returns whether every entry is loaded.
 */
export function useAllEntries(sessionId: string): boolean {
  const complete = useStore((s) => {
    const entries = s.sessions[sessionId]?.entries;
    return Boolean(entries) && !hasHole(entries!);
  });
  const total = useStore((s) => s.sessions[sessionId]?.entries.length ?? 0);
  const [, setTries] = useState(0);
  useEffect(() => {
    if (complete) return;
    let live = true;
    void sessionSync.ensure(sessionId, 0, total).then(() => live && setTries((n) => n + 1));
    return () => {
      live = false;
    };
  }, [sessionId, total, complete]);
  return complete;
}

const holeFree = new WeakSet<readonly unknown[]>();
function hasHole(entries: readonly unknown[]): boolean {
  if (holeFree.has(entries)) return false;
  for (let i = 0; i < entries.length; i++) if (entries[i] === undefined) return true;
  holeFree.add(entries);
  return false;
}
