import { create } from 'zustand';
import type { AppState } from '../../src-shared/ipc/appState';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { bridge } from '../bridge';
import { publishTerminalOutput } from './terminalBus';
import { noticeAttention } from './attention';

export type Connection = 'connecting' | 'open' | 'closed' | 'unauthorized';

export interface AppStore {
  connection: Connection;
  app: AppState | null;
  /** Each session's state = fold(reduceSession, its events). */
  sessions: Record<string, SessionState>;
  /** A transient error to show (a failed request). */
  toast: string | null;
  showToast(message: string | null): void;
}

export const useAppStore = create<AppStore>()((set) => ({
  connection: 'connecting',
  app: null,
  sessions: {},
  toast: null,
  showToast: (message) => set({ toast: message }),
}));

const loading = new Map<string, Promise<void>>();
/** Events that arrive while a session's log is being fetched; applied after it (dupes skip by seq). */
const buffered = new Map<string, SessionEvent[]>();

/** Applies a batch of events in one store update; on a gap in `seq`, refetches from the log. */
export function applySessionEvents(sessionId: string, events: SessionEvent[]): void {
  const waiting = buffered.get(sessionId);
  if (waiting) {
    waiting.push(...events);
    return;
  }
  const current = useAppStore.getState().sessions[sessionId];
  if (!current) {
    // Not loaded yet: load the whole log (it includes these events).
    void loadSession(sessionId);
    return;
  }
  const first = events[0];
  if (first && first.seq > current.lastSeq + 1) {
    void loadSession(sessionId, current.lastSeq);
    return;
  }
  useAppStore.setState((s) => ({ sessions: { ...s.sessions, [sessionId]: reduceSession(s.sessions[sessionId], events) } }));
  publishTerminalOutput(sessionId, events);
  noticeAttention(sessionId, events);
}

/** Loads (or catches up) a session from its log in main. */
export function loadSession(sessionId: string, afterSeq = 0): Promise<void> {
  const existing = loading.get(sessionId);
  if (existing) return existing;
  buffered.set(sessionId, []);
  const promise = bridge
    .request('session.events', { sessionId, afterSeq })
    .then(({ events }) => {
      if (afterSeq > 0) publishTerminalOutput(sessionId, events);
      useAppStore.setState((s) => {
        const base = afterSeq === 0 ? undefined : s.sessions[sessionId];
        return { sessions: { ...s.sessions, [sessionId]: reduceSession(base, events.length ? events : []) ?? s.sessions[sessionId] } };
      });
    })
    .catch((error: Error) => useAppStore.getState().showToast(error.message))
    .finally(() => {
      loading.delete(sessionId);
      const late = buffered.get(sessionId) ?? [];
      buffered.delete(sessionId);
      if (late.length && useAppStore.getState().sessions[sessionId]) {
        useAppStore.setState((s) => ({ sessions: { ...s.sessions, [sessionId]: reduceSession(s.sessions[sessionId], late) } }));
        publishTerminalOutput(sessionId, late);
      }
    });
  loading.set(sessionId, promise);
  return promise;
}

/** Runs a request and shows its error instead of throwing into React. */
export async function run<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    useAppStore.getState().showToast((error as Error).message);
    return undefined;
  }
}

let started = false;
/** Subscribes the store to main's events and loads the initial state. */
export function startStore(): void {
  if (started) return;
  started = true;
  bridge.on('app.state', (app) => {
    useAppStore.setState({ app });
    for (const id of app.tabs.open) if (!useAppStore.getState().sessions[id]) void loadSession(id);
  });
  bridge.on('session.events', ({ sessionId, events }) => applySessionEvents(sessionId, events));
  bridge.onConnection((connection) => {
    useAppStore.setState({ connection });
    if (connection !== 'open') return;
    // (Re)connected: refresh the app state and catch every loaded session up from its log.
    void bridge.request('app.state', {}).then((app) => {
      useAppStore.setState({ app });
      const sessions = useAppStore.getState().sessions;
      for (const id of app.tabs.open) void loadSession(id, sessions[id]?.lastSeq ?? 0);
    });
  });
}
