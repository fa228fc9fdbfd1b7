import type { SessionEvent } from '../../src-shared/session/events';

/**
 * How applied events reached the store: `live` from the stream (also those held back while a
 * refetch ran), `catch-up` from a refetch of a gap, `load` from reading a whole log (history:
 * nobody should be notified about it again).
 */
export type AppliedHow = 'live' | 'catch-up' | 'load';
export type AppliedListener = (sessionId: string, events: readonly SessionEvent[], how: AppliedHow) => void;

/**
 * Events the store has just applied (each once, in order, after the state update). Side
 * effects that follow events (xterm output, desktop notifications) subscribe here instead of
 * being called from the store, so the store imports none of them.
 */
export function createAppliedEvents() {
  const listeners = new Set<AppliedListener>();
  return {
    subscribe(listener: AppliedListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(sessionId: string, events: readonly SessionEvent[], how: AppliedHow): void {
      if (!events.length) return;
      for (const listener of listeners) listener(sessionId, events, how);
    },
  };
}
export type AppliedEvents = ReturnType<typeof createAppliedEvents>;
