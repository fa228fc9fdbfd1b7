import { useEffect, useRef } from 'react';
import type { TranscriptEntry } from '../../../src-shared/session/state';
import { prepareMarkdown } from '../markdown/Markdown';

/** Entries prepared on each side of the rendered rows: about three wheel steps of rows. */
export const AHEAD = 24;
/** An idle period with less left than this is left to the browser. */
const MIN_IDLE_MS = 2;

/** The Markdown a row renders as soon as it mounts (a thought's only once opened: not prepared). */
function textsOf(entry: TranscriptEntry | undefined): string[] {
  if (entry?.kind === 'agent') return entry.text ? [entry.text] : [];
  if (entry?.kind === 'user') return entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  return [];
}

/** Indices of the entries beside the rows `[start, end)`: the side the view last moved towards first, nearest first. */
export function aheadOrder(start: number, end: number, count: number, up: boolean, ahead = AHEAD): number[] {
  const above = Array.from({ length: Math.min(ahead, start) }, (_, i) => start - 1 - i);
  const below = Array.from({ length: Math.max(0, Math.min(ahead, count - end)) }, (_, i) => end + i);
  return up ? [...above, ...below] : [...below, ...above];
}

/**
 * Parses the Markdown of the entries beside the rendered rows while `timeLeft()` allows; how
 * many it parsed. The newest entry is left alone: it may still be streaming (its row renders
 * it in blocks).
 */
export function prepareAhead(entries: readonly (TranscriptEntry | undefined)[], start: number, end: number, up: boolean, timeLeft: () => number): number {
  let parsed = 0;
  for (const index of aheadOrder(start, end, entries.length - 1, up)) {
    for (const text of textsOf(entries[index])) {
      if (timeLeft() < MIN_IDLE_MS) return parsed;
      if (prepareMarkdown(text)) parsed++;
    }
  }
  return parsed;
}

/**
 * While the page is idle, the Markdown of the rows just outside the rendered ones is parsed
 * (and highlighted) into the cache, so a row that scrolls into view only mounts: parsing on
 * the frame a row appeared was the largest script cost of wheel scrolling (issue 23, round 5).
 */
export function useMarkdownAhead(entries: readonly (TranscriptEntry | undefined)[], start: number, end: number): void {
  const last = useRef({ start, up: true });
  if (start !== last.current.start) last.current = { start, up: start < last.current.start };
  const up = last.current.up;
  // Read when the range moves, not on every streamed chunk (entries change with each one).
  const latest = useRef(entries);
  latest.current = entries;
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return;
    let handle = 0;
    const run = (deadline: IdleDeadline) => {
      const before = deadline.timeRemaining();
      if (before < MIN_IDLE_MS) {
        handle = requestIdleCallback(run);
        return;
      }
      prepareAhead(latest.current, start, end, up, () => deadline.timeRemaining());
      // Out of time before the last entry: the rest in the next idle period.
      if (deadline.timeRemaining() < MIN_IDLE_MS) handle = requestIdleCallback(run);
    };
    handle = requestIdleCallback(run);
    return () => cancelIdleCallback(handle);
  }, [start, end, up]);
}
