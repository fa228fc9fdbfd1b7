/** The renderer's store: import from here. */
export { run, useSessionUi, useStore } from './store';
export { EMPTY_SESSION_UI, NARROW } from './slices/uiSlice';
export type { Attachment, Connection, PanelTab, SessionUi, Store, Theme } from './types';
export { EMPTY, NO_TABS } from './empty';
export { ensureEntries, ensureEntry, usePicked, windowReportsChanges, windowTerminalCount } from './paging';
