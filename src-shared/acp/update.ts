import { str, type Raw } from './read';

/** `session/update` → `sessionUpdate`, as it came (a future or `_` kind included); null when absent or not a string. */
export const updateKind = (update: Raw): string | null => str(update.sessionUpdate) ?? null;
