/** Stable empty values for selectors: a fresh `[]` per call would re-render forever. */
export const EMPTY: readonly never[] = Object.freeze([]);
export const NO_TABS = Object.freeze({ open: EMPTY as unknown as string[], active: null });
