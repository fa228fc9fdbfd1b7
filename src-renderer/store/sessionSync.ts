import type { StoreApi } from 'zustand';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { holesIn, mergeRange, stateFromWindow, type EntryPick, type EntryRange, type SessionWindow } from '../../src-shared/session/window';
import type { AppliedEvents, AppliedHow } from './appliedEvents';

interface Deps {
  store: StoreApi<{ sessions: Record<string, SessionState> }>;
  /** Main's log of a session after `afterSeq` (`session.events`). */
  fetchEvents(sessionId: string, afterSeq: number): Promise<SessionEvent[]>;
  /** The newest window of a session's state (`session.window`); without it a session loads from its whole log. */
  fetchWindow?(sessionId: string): Promise<SessionWindow>;
  /** Entries `[from, to)` as main has them (`session.entries`). */
  fetchRange?(sessionId: string, from: number, to: number): Promise<EntryRange>;
  /** Every entry of one kind of view, wherever it is (`session.pick`). */
  fetchPick?(sessionId: string, pick: EntryPick): Promise<EntryRange>;
  applied: AppliedEvents;
  onError(error: Error): void;
}

/** A range main answered, and how to ask for it again. */
interface Answer {
  range: EntryRange;
  again(): Promise<void>;
}

/** Older entries are fetched in pages of this many (a few screens). */
export const PAGE = 100;
/** A range main answered before the page had the events it was folded to is asked again, this many times. */
const RETRIES = 5;

/**
 * Keeps each session's state equal to the fold of its log while events stream in: a batch is
 * applied in one store update; a batch whose `seq` skips ahead refetches the missing events
 * from main; events that arrive while a fetch is in flight wait and are applied after it, in
 * order, each once (the reducer skips any `seq` it has seen).
 *
 * A session opens from its newest window (issue 23, window.ts): the other entries are holes,
 * fetched a page at a time by `ensure` as rows scroll into view. A page folded by main to the
 * `seq` the store is at fills its holes at once; one folded further waits until the store gets
 * there (the events between skipped those holes, main's copy has them); one the store has gone
 * past is asked again (the events after it skipped the holes and main's copy lacks them).
 */
export function createSessionSync({ store, fetchEvents, fetchWindow, fetchRange, fetchPick, applied, onError }: Deps) {
  const loading = new Map<string, Promise<void>>();
  const held = new Map<string, SessionEvent[]>();
  /** Ranges folded further than the store, by session, until the store reaches their `seq`. */
  const ahead = new Map<string, Answer[]>();
  /** Pages asked for and not answered yet: `${sessionId}:${page}`. */
  const asked = new Map<string, Promise<void>>();
  /** Picks answered since the session's window was loaded: later entries of the kind arrive live. */
  const picked = new Set<string>();
  /** What main said of the whole session with its window (`reportedChanges`). */
  const facts = new Map<string, { reportedChanges: boolean; terminalCount: number }>();

  /** Applies `fresh` to `base`, merging each waiting range exactly when the fold reaches its `seq`. */
  const reduceWithRanges = (sessionId: string, base: SessionState | undefined, fresh: readonly SessionEvent[], stale: Answer[]): SessionState => {
    const waiting = ahead.get(sessionId);
    if (!base || !waiting?.length) return reduceSession(base, fresh);
    waiting.sort((a, b) => a.range.seq - b.range.seq);
    let state = base;
    let i = 0;
    while (waiting.length && i < fresh.length) {
      const { range } = waiting[0];
      let j = i;
      while (j < fresh.length && fresh[j].seq <= range.seq) j++;
      state = reduceSession(state, fresh.slice(i, j));
      i = j;
      if (state.lastSeq < range.seq) break;
      const answer = waiting.shift()!;
      if (state.lastSeq === range.seq) state = mergeRange(state, range);
      else stale.push(answer);
    }
    return i < fresh.length ? reduceSession(state, fresh.slice(i)) : state;
  };

  /** Folds `events` into the session in one update; tells listeners about the ones that were new. */
  const fold = (sessionId: string, events: readonly SessionEvent[], how: AppliedHow, replace = false): void => {
    let fresh: readonly SessionEvent[] = [];
    const stale: Answer[] = [];
    store.setState((s) => {
      const base = replace ? undefined : s.sessions[sessionId];
      const after = base?.lastSeq ?? 0;
      fresh = events.filter((e) => e.seq > after);
      if (!fresh.length && base) return s;
      const next = reduceWithRanges(sessionId, base, fresh, stale);
      return { sessions: { ...s.sessions, [sessionId]: next } };
    });
    applied.emit(sessionId, fresh, how);
    for (const answer of stale) void answer.again();
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

  /** Replaces the session with main's newest window (nobody is notified: it is history). */
  const openWindow = async (sessionId: string, fetch: NonNullable<Deps['fetchWindow']>): Promise<void> => {
    const window = await fetch(sessionId);
    ahead.delete(sessionId);
    for (const key of picked) if (key.startsWith(`${sessionId}:`)) picked.delete(key);
    facts.set(sessionId, { reportedChanges: window.reportedChanges, terminalCount: window.terminalCount });
    store.setState((s) => ({ sessions: { ...s.sessions, [sessionId]: stateFromWindow(window) } }));
  };

  /** Loads a session from main (`afterSeq` 0: its newest window, or its whole log), or catches it up after `afterSeq`. */
  const load = (sessionId: string, afterSeq = 0): Promise<void> => {
    const existing = loading.get(sessionId);
    if (existing) return existing;
    held.set(sessionId, []);
    const work =
      afterSeq === 0 && fetchWindow
        ? openWindow(sessionId, fetchWindow)
        : fetchEvents(sessionId, afterSeq).then((events) => {
            if (afterSeq === 0) fold(sessionId, events, 'load', true);
            else fold(sessionId, events, 'catch-up');
          });
    const promise = work
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

  /** Takes a page main answered: fills the holes now, when the store gets to its `seq`, or asks again. */
  const receive = (sessionId: string, range: EntryRange, again: () => Promise<void>, retries: number): Promise<void> | void => {
    const state = store.getState().sessions[sessionId];
    if (!state) return;
    if (range.seq > state.lastSeq) {
      const waiting = ahead.get(sessionId) ?? [];
      waiting.push({ range, again });
      ahead.set(sessionId, waiting);
      return;
    }
    if (range.seq === state.lastSeq && range.total === state.entries.length) {
      store.setState((s) => {
        const current = s.sessions[sessionId];
        if (current?.lastSeq !== range.seq) return s;
        const next = mergeRange(current, range);
        return next === current ? s : { sessions: { ...s.sessions, [sessionId]: next } };
      });
      return;
    }
    if (retries > 0) return again();
  };

  /** One request per key at a time (a page or a pick): its answer goes to `receive`, a failure to `onError`. */
  const askOnce = (
    key: string,
    sessionId: string,
    fetch: () => Promise<EntryRange>,
    again: () => Promise<void>,
    retries: number,
    answered?: () => void,
  ): Promise<void> => {
    const existing = asked.get(key);
    if (existing) return existing;
    const promise = fetch()
      .then((range) => {
        asked.delete(key);
        answered?.();
        return receive(sessionId, range, again, retries);
      })
      .catch((error: Error) => {
        asked.delete(key);
        onError(error);
      });
    asked.set(key, promise);
    return promise;
  };

  const askPage = (sessionId: string, page: number, retries = RETRIES): Promise<void> => {
    const fetch = fetchRange;
    if (!fetch) return Promise.resolve();
    return askOnce(
      `${sessionId}:${page}`,
      sessionId,
      () => fetch(sessionId, page * PAGE, (page + 1) * PAGE),
      () => askPage(sessionId, page, retries - 1),
      retries,
    );
  };

  /**
   * Makes sure entries `[from, to)` of a session are loaded: asks main for every page that has a
   * hole there (each page once at a time). Resolves when main has answered them.
   */
  const ensure = async (sessionId: string, from: number, to: number): Promise<void> => {
    const state = store.getState().sessions[sessionId];
    if (!state) return;
    const holes = holesIn(state.entries, from, to);
    if (!holes) return;
    const pages: Promise<void>[] = [];
    for (let page = Math.floor(holes.from / PAGE); page * PAGE < holes.to; page++) {
      if (holesIn(state.entries, page * PAGE, (page + 1) * PAGE)) pages.push(askPage(sessionId, page));
    }
    await Promise.all(pages);
  };

  /** Loads every entry of one kind of view (`session.pick`), with the same `seq` rules as a page. */
  const pick = (sessionId: string, which: EntryPick, retries = RETRIES): Promise<void> => {
    const key = `${sessionId}:${which}`;
    const fetch = fetchPick;
    if (!fetch) return Promise.resolve();
    if (!asked.has(key) && (picked.has(key) || !store.getState().sessions[sessionId])) return Promise.resolve();
    return askOnce(
      key,
      sessionId,
      () => fetch(sessionId, which),
      () => pick(sessionId, which, retries - 1),
      retries,
      () => picked.add(key),
    );
  };

  /** Whether main reported file changes in the session when it sent its window (entries not loaded included). */
  const reportedChanges = (sessionId: string): boolean => facts.get(sessionId)?.reportedChanges ?? false;

  /** How many terminals (sign-in ones aside) the session had run when main sent its window. */
  const terminalCount = (sessionId: string): number => facts.get(sessionId)?.terminalCount ?? 0;

  return { apply, load, ensure, pick, reportedChanges, terminalCount };
}
