import type { StateCreator } from 'zustand';
import type { SessionUi, Store, UiSlice } from '../types';

export const EMPTY_SESSION_UI: SessionUi = {
  panelTab: null,
  panelOpen: null,
  file: null,
  draft: '',
  attachments: [],
  scroll: null,
  reviewPath: null,
  planEntryId: null,
};

/** Below this width the sidebar is an overlay (styles.css uses the same breakpoint). */
export const NARROW = '(max-width: 760px)';

export const createUiSlice: StateCreator<Store, [], [], UiSlice> = (set, get) => ({
  view: 'session',
  newSession: undefined,
  // Narrow windows (or high zoom) start with the sidebar folded away; it then opens over the content.
  sidebarOpen: typeof window === 'undefined' || !window.matchMedia?.(NARROW).matches,
  theme: 'system',
  notifications: true,
  expanded: {},
  diffLayout: 'side-by-side',
  infoOpen: false,
  sessionUi: {},
  focusEntry: null,
  focusedPermissions: {},
  setView: (view) => set({ view }),
  openNewSession: (agentId) => set({ newSession: { agentId } }),
  closeNewSession: () => set({ newSession: undefined }),
  toggle: (key, value) => set((s) => ({ expanded: { ...s.expanded, [key]: value ?? !s.expanded[key] } })),
  uiOf: (sessionId) => get().sessionUi[sessionId] ?? EMPTY_SESSION_UI,
  patchSessionUi: (sessionId, patch) =>
    set((s) => ({ sessionUi: { ...s.sessionUi, [sessionId]: { ...(s.sessionUi[sessionId] ?? EMPTY_SESSION_UI), ...patch } } })),
  openFile: (sessionId, path, line) => get().patchSessionUi(sessionId, { file: { path, line }, panelTab: 'file', panelOpen: true }),
  setFocusEntry: (focusEntry) => set({ focusEntry }),
});
