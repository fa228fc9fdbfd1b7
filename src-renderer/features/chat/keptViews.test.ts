import { describe, expect, it } from 'vitest';
import { KEPT_VIEWS, keepViews } from './keptViews';

/** Shows each session in turn, as tab clicks would, and returns the views kept mounted after each. */
function showInTurn(shown: (string | null)[], open: string[], limit?: number): (readonly string[])[] {
  let kept: readonly string[] = [];
  return shown.map((active) => (kept = keepViews(kept, active, open, limit)));
}

describe('keepViews: the session views kept mounted across tab switches', () => {
  const open = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('keeps no more than the limit, evicting the least recently shown', () => {
    const steps = showInTurn(['a', 'b', 'c', 'd', 'e', 'f'], open);
    expect(KEPT_VIEWS).toBe(4);
    for (const kept of steps) expect(kept.length).toBeLessThanOrEqual(KEPT_VIEWS);
    expect(steps.at(-1)).toEqual(['f', 'e', 'd', 'c']);
  });

  it('moves a session shown again to the front, so the one evicted is the one not shown longest', () => {
    const steps = showInTurn(['a', 'b', 'c', 'd', 'a', 'e'], open);
    expect(steps.at(-1)).toEqual(['e', 'a', 'd', 'c']);
  });

  it('drops the view of a closed tab at once', () => {
    let kept = showInTurn(['a', 'b', 'c'], open).at(-1)!;
    kept = keepViews(kept, 'c', ['a', 'c']);
    expect(kept).toEqual(['c', 'a']);
  });

  it('keeps every view while no session is shown (history or settings), and hands back the same list', () => {
    const kept = showInTurn(['a', 'b'], open).at(-1)!;
    expect(keepViews(kept, null, open)).toBe(kept);
    expect(keepViews(kept, 'b', open)).toBe(kept);
  });

  it('always has a view for the shown session, even one whose tab is not listed yet', () => {
    expect(keepViews(['a'], 'z', open)).toEqual(['z', 'a']);
    expect(keepViews(['z', 'a'], 'a', open)).toEqual(['a']);
  });

  it('honours a smaller limit', () => {
    expect(showInTurn(['a', 'b', 'c'], open, 1).at(-1)).toEqual(['c']);
  });
});
