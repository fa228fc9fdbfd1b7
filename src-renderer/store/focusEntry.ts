import { create } from 'zustand';

/**
 * A transcript entry to bring into view once its session is shown (a search result was
 * opened). The transcript scrolls to it and clears it. View state only, never persisted.
 */
export interface FocusEntryStore {
  focusEntry: { sessionId: string; entryId: string } | null;
  setFocusEntry(focus: { sessionId: string; entryId: string } | null): void;
}

export const useFocusEntry = create<FocusEntryStore>()((set) => ({
  focusEntry: null,
  setFocusEntry: (focusEntry) => set({ focusEntry }),
}));
