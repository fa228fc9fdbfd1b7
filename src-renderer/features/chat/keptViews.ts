/**
 * How many session views stay mounted: the one shown and the ones shown last. A switch to a
 * kept view is a style change (issue 23); each kept view holds its rows, its Review panel's
 * Monaco editor and its terminals, so the number is bounded and the least recently shown goes.
 */
export const KEPT_VIEWS = 4;

/**
 * The sessions whose views stay mounted, most recently shown first: `active` (when a session is
 * shown) moves to the front, closed tabs leave, and no more than `limit` remain. Returns `kept`
 * itself when nothing changed, so it can be kept in state without re-rendering.
 */
export function keepViews(kept: readonly string[], active: string | null, open: readonly string[], limit = KEPT_VIEWS): readonly string[] {
  const isOpen = new Set(open);
  // The shown session always has its view (as before views were kept), even before its tab is listed.
  const rest = kept.filter((id) => id !== active && isOpen.has(id));
  const next = (active ? [active, ...rest] : rest).slice(0, Math.max(1, limit));
  return next.length === kept.length && next.every((id, i) => id === kept[i]) ? kept : next;
}
