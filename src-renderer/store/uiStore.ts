import { create } from 'zustand';
import type { ContentBlock } from '../../src-shared/session/events';
import { bridge } from '../bridge';
import { run, useAppStore } from './appStore';

/** An attachment waiting in the composer: shown as a removable chip, sent as a content block. */
export interface Attachment {
  id: string;
  label: string;
  block: ContentBlock;
}

export type PanelTab = 'plan' | 'terminals' | 'review' | 'file';

/** What the side panel of one session shows. */
export interface SessionUi {
  panelTab: PanelTab | null;
  /** null: follow the content (open when there is something to show). */
  panelOpen: boolean | null;
  file: { path: string; line: number | null } | null;
  draft: string;
  attachments: Attachment[];
  /** Scroll state of the transcript, kept across tab switches. */
  scroll: { top: number; following: boolean } | null;
  /** The review tab's selected file. */
  reviewPath: string | null;
}

const EMPTY_SESSION_UI: SessionUi = {
  panelTab: null,
  panelOpen: null,
  file: null,
  draft: '',
  attachments: [],
  scroll: null,
  reviewPath: null,
};

export type Theme = 'system' | 'light' | 'dark';

/** Below this width the sidebar is an overlay (styles.css uses the same breakpoint). */
export const NARROW = '(max-width: 760px)';

/**
 * View-only state: which page is shown, open/closed disclosures, drafts, scroll positions.
 * Kept out of the session state (which is a pure fold of events) and keyed by entry id or
 * toolCallId so that virtualized rows keep it when they unmount.
 */
export interface UiStore {
  /** `history`: the history and search view (features/history). */
  view: 'session' | 'settings' | 'history';
  /** The new-session dialog: undefined when closed; null agent = let the person pick. */
  newSession: { agentId: string | null } | undefined;
  sidebarOpen: boolean;
  theme: Theme;
  notifications: boolean;
  /** entry id / toolCallId / `${toolCallId}:raw-input` … → expanded. */
  expanded: Record<string, boolean>;
  diffLayout: 'side-by-side' | 'inline';
  infoOpen: boolean;
  sessions: Record<string, SessionUi>;
  setView(view: UiStore['view']): void;
  openNewSession(agentId: string | null): void;
  closeNewSession(): void;
  toggle(key: string, value?: boolean): void;
  session(sessionId: string): SessionUi;
  patchSession(sessionId: string, patch: Partial<SessionUi>): void;
  showSession(sessionId: string): void;
  openFile(sessionId: string, path: string, line: number | null): void;
}

export const useUiStore = create<UiStore>()((set, get) => ({
  view: 'session',
  newSession: undefined,
  // Narrow windows (or high zoom) start with the sidebar folded away; it then opens over the content.
  sidebarOpen: typeof window === 'undefined' || !window.matchMedia?.(NARROW).matches,
  theme: 'system',
  notifications: true,
  expanded: {},
  diffLayout: 'side-by-side',
  infoOpen: false,
  sessions: {},
  setView: (view) => set({ view }),
  openNewSession: (agentId) => set({ newSession: { agentId } }),
  closeNewSession: () => set({ newSession: undefined }),
  toggle: (key, value) => set((s) => ({ expanded: { ...s.expanded, [key]: value ?? !s.expanded[key] } })),
  session: (sessionId) => get().sessions[sessionId] ?? EMPTY_SESSION_UI,
  patchSession: (sessionId, patch) =>
    set((s) => ({ sessions: { ...s.sessions, [sessionId]: { ...(s.sessions[sessionId] ?? EMPTY_SESSION_UI), ...patch } } })),
  showSession: (sessionId) => {
    set({ view: 'session' });
    const tabs = useAppStore.getState().app?.tabs;
    if (tabs?.open.includes(sessionId)) void run(bridge.request('tabs.set', { open: tabs.open, active: sessionId }));
    else void run(bridge.request('session.open', { sessionId }));
  },
  openFile: (sessionId, path, line) => get().patchSession(sessionId, { file: { path, line }, panelTab: 'file', panelOpen: true }),
}));

/** The view state of one session (a stable empty object until something is set). */
export function useSessionUi<T>(sessionId: string, select: (ui: SessionUi) => T): T {
  return useUiStore((s) => select(s.sessions[sessionId] ?? EMPTY_SESSION_UI));
}
