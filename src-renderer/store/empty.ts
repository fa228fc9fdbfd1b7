/** Stable empty values for selectors: a fresh `[]` per call would re-render forever. */
export const EMPTY: readonly never[] = Object.freeze([]);
const NO_OPEN_TABS: string[] = [];
export const NO_TABS = Object.freeze({ open: NO_OPEN_TABS, active: null });
