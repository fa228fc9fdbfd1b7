import type { StoreApi } from 'zustand';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import type { AppliedEvents, AppliedHow } from './appliedEvents';

interface Deps {
  store: StoreApi<{ sessions: Record<string, SessionState> }>;
  /** Main's log of a session after `afterSeq` (`session.events`). */
  fetchEvents(sessionId: string, afterSeq: number): Promise<SessionEvent[]>;
  applied: AppliedEvents;
  onError(error: Error): void;
}

/**
 * Keeps each session's state equal to the fold of its log while events stream in: a batch is
 * applied in one store update; a batch whose `seq` skips ahead refetches the missing events
 * from main; events that arrive while a fetch is in flight wait and are applied after it, in
 * order, each once (the reducer skips any `seq` it has seen).
 */
export function createSessionSync({ store, fetchEvents, applied, onError }: Deps) {
  const loading = new Map<string, Promise<void>>();
  const held = new Map<string, SessionEvent[]>();

  /** Folds `events` into the session in one update; tells listeners about the ones that were new. */
  const fold = (sessionId: string, events: readonly SessionEvent[], how: AppliedHow, replace = false): void => {
    let fresh: readonly SessionEvent[] = [];
    store.setState((s) => {
      const base = replace ? undefined : s.sessions[sessionId];
      const after = base?.lastSeq ?? 0;
      fresh = events.filter((e) => e.seq > after);
      if (!fresh.length && base) return s;
      const next = reduceSession(base, fresh);
      return { sessions: { ...s.sessions, [sessionId]: next } };
    });
    applied.emit(sessionId, fresh, how);
  };

  const apply = (sessionId: string, events: readonly SessionEvent[]): void => {
    const waiting = held.get(sessionId);
    if (waiting) {
      waiting.push(...events);
      return;
    }
    const current = store.getState().sessions[sessionId];
    // Not loaded yet: the whole log includes these events.
    if (!current) return void load(sessionId);
    const first = events[0];
    if (first && first.seq > current.lastSeq + 1) return void load(sessionId, current.lastSeq);
    fold(sessionId, events, 'live');
  };

  /** Loads a session from its log in main (`afterSeq` 0), or catches it up after `afterSeq`. */
  const load = (sessionId: string, afterSeq = 0): Promise<void> => {
    const existing = loading.get(sessionId);
    if (existing) return existing;
    held.set(sessionId, []);
    const promise = fetchEvents(sessionId, afterSeq)
      .then((events) => {
        if (afterSeq === 0) fold(sessionId, events, 'load', true);
        else fold(sessionId, events, 'catch-up');
      })
      .catch((error: Error) => onError(error))
      .finally(() => {
        loading.delete(sessionId);
        const late = held.get(sessionId) ?? [];
        held.delete(sessionId);
        // Through `apply` again: a gap left after the fetch is fetched too, repeats are skipped.
        if (late.length && store.getState().sessions[sessionId]) apply(sessionId, late);
      });
    loading.set(sessionId, promise);
    return promise;
  };

  return { apply, load };
}
