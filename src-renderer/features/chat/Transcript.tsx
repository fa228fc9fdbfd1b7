import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { TranscriptEntry } from '../../../src-shared/session/state';
import { ensureEntries, ensureEntry, useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { EntryView } from './EntryView';
import { dismissFirstPaint, scheduleFirstPaint } from './firstPaint';
import { useMarkdownAhead } from './markdownAhead';
import { BOTTOM_SLACK, grownRange, keptAfterAppend, rowRange, type RowRange } from './rowRange';
import { RowOffsets } from './rowOffsets';
import { useViewShown } from '../../ui/viewShown';

const NO_ENTRIES: TranscriptEntry[] = [];

/** Measured row heights per session, by entry id: survives tab switches and row unmounts. */
const heightCache = new Map<string, Map<string, number>>();

const ESTIMATES: Record<string, number> = { user: 64, agent: 120, thought: 40, tool: 96, plan: 72, stop: 32, notice: 56, file: 56, unknown: 44 };
/** Rendered beyond the viewport on each side, in pixels. */
const OVERSCAN = 800;

/** An entry not loaded yet (paging, issue 23): the average of the kinds a turn is made of. */
const HOLE_HEIGHT = 80;

function estimate(entry: TranscriptEntry | undefined): number {
  if (!entry) return HOLE_HEIGHT;
  return ESTIMATES[entry.kind] ?? 60;
}

/** A row's height as the offsets count it: measured, or estimated until it is. */
function heightOf(heights: ReadonlyMap<string, number>, entry: TranscriptEntry | undefined): number {
  return (entry && heights.get(entry.id)) ?? estimate(entry);
}

/**
 * The transcript, virtualized: only the rows near the viewport are in the DOM (spacers stand
 * in for the rest, sized from measured heights or estimates), so a session with thousands of
 * entries scrolls like a short one. Rows are in normal flow between the spacers, so a row
 * that grows while streaming pushes the ones below it and the browser's scroll anchoring
 * keeps what the person is reading in place.
 *
 * Follows the stream while the person is at the bottom; scrolling up stops following and
 * shows "Jump to latest". The scroll position is kept per session across tab switches.
 */
export function Transcript({ sessionId }: { sessionId: string }) {
  const entries = useStore((s) => s.sessions[sessionId]?.entries ?? NO_ENTRIES);
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const saved = useRef(useStore.getState().uiOf(sessionId).scroll);
  const followingRef = useRef(saved.current?.following ?? true);
  const [following, setFollowingState] = useState(followingRef.current);
  const [viewport, setViewport] = useState({ top: saved.current?.top ?? 0, height: 800 });
  const [measureVersion, setMeasureVersion] = useState(0);
  const lastTop = useRef(0);
  const frame = useRef(0);
  // The first frame of a view draws the rows in the viewport only, the overscan a frame later:
  // a session's first showing waited for Markdown of twice the rows it shows (issue 23, round 4).
  const [overscan, setOverscan] = useState(0);
  useEffect(() => {
    const next = requestAnimationFrame(() => setOverscan(OVERSCAN));
    return () => cancelAnimationFrame(next);
  }, []);

  let heights = heightCache.get(sessionId);
  if (!heights) heightCache.set(sessionId, (heights = new Map()));

  const setFollowing = useCallback((value: boolean) => {
    followingRef.current = value;
    setFollowingState(value);
  }, []);

  // Offsets of every row (prefix sums), with only the rows that changed read again (rowOffsets.ts):
  // not on a scroll step that measured nothing, nor all of them for a streamed chunk or a page.
  const count = entries.length;
  const rowOffsets = useRef<RowOffsets<TranscriptEntry> | null>(null);
  rowOffsets.current ??= new RowOffsets();
  const offsets = useMemo(
    () => rowOffsets.current!.offsets(entries, heights, (entry) => heightOf(heights, entry)),
    // measureVersion: the heights map is changed in place, and measureVersion says it was.
    [entries, heights, measureVersion],
  );
  const total = offsets[count];
  const top = followingRef.current ? Math.max(0, total - viewport.height) : viewport.top;
  // The rows rendered last time are kept while they cover the viewport (rowRange.ts).
  const kept = useRef<RowRange | null>(null);
  const keptCount = useRef(0);
  const range = rowRange(offsets, count, top, top + viewport.height, overscan, keptAfterAppend(kept.current, keptCount.current, count));
  kept.current = range;
  keptCount.current = count;
  const { start, end } = range;
  useMarkdownAhead(entries, start, end);
  // Which way the wheel last turned: while the page is idle, rows are rendered ahead that way.
  const wheeledUp = useRef<boolean | null>(null);
  const [, setGrowth] = useState(0);
  useEffect(() => {
    const up = wheeledUp.current;
    if (up === null || followingRef.current || typeof requestIdleCallback !== 'function') return;
    const next = grownRange(offsets, count, range, top, top + viewport.height, up);
    if (!next) return;
    let handle = 0;
    const grow = (deadline: IdleDeadline) => {
      // Rendering a few rows takes a few milliseconds: not at the very end of an idle period.
      if (deadline.timeRemaining() < 4) {
        handle = requestIdleCallback(grow);
        return;
      }
      kept.current = next;
      flushSync(() => setGrowth((n) => n + 1));
    };
    handle = requestIdleCallback(grow);
    return () => cancelIdleCallback(handle);
  });

  const scrollToBottom = useCallback(() => {
    const element = scroller.current;
    // A hidden tab's view is out of the document (SessionViews.tsx): nothing to scroll, and the
    // last position is kept for when it comes back.
    if (!element?.isConnected) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  }, []);

  // One ResizeObserver for every rendered row: measured heights replace estimates.
  const rowObserver = useRef<ResizeObserver | null>(null);
  if (!rowObserver.current && typeof ResizeObserver !== 'undefined') {
    rowObserver.current = new ResizeObserver((records) => {
      const cache = heightCache.get(sessionId)!;
      let changed = false;
      for (const record of records) {
        const element = record.target as HTMLElement;
        const id = element.dataset.entryId;
        if (!id) continue;
        const height = element.offsetHeight;
        if (height > 0 && cache.get(id) !== height) {
          rowOffsets.current?.measured(Number(element.dataset.index));
          cache.set(id, height);
          changed = true;
        }
      }
      if (changed) setMeasureVersion((v) => v + 1);
      if (followingRef.current) scrollToBottom();
    });
  }
  useEffect(() => () => rowObserver.current?.disconnect(), []);

  // The viewport's size.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const update = () => {
      // Out of the document (a hidden tab) its height reads 0: keep the rows it had.
      if (!element.isConnected) return;
      setViewport((v) => (v.height === element.clientHeight ? v : { ...v, height: element.clientHeight }));
    };
    update();
    const observer = new ResizeObserver(() => {
      update();
      if (followingRef.current) scrollToBottom();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // Restore the saved position once; keep it for the next time this tab is shown.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (followingRef.current) scrollToBottom();
    else element.scrollTop = saved.current?.top ?? 0;
    lastTop.current = element.scrollTop;
    return () => {
      const top = element.isConnected ? element.scrollTop : lastTop.current;
      useStore.getState().patchSessionUi(sessionId, { scroll: { top, following: followingRef.current } });
    };
  }, [sessionId, scrollToBottom]);

  // New rows or grown rows: stay at the bottom while following. The rows and the inner box are
  // observed, and the observer runs after the browser's own layout of the frame, so following
  // costs no layout of its own: scrolling from a layout effect after every commit forced one
  // per commit (the hottest function in the streaming profile, issue 11).
  const hasRows = count > 0;
  useLayoutEffect(() => {
    const element = inner.current;
    const observer = rowObserver.current;
    if (!element || !observer) return;
    observer.observe(element);
    return () => observer.unobserve(element);
  }, [hasRows]);

  // A search result asked for an entry (history): scroll to its offset so the
  // virtualized row mounts, then centre and mark it. Waits until the entry has loaded.
  const focus = useStore((s) => (s.focusEntry?.sessionId === sessionId ? s.focusEntry.entryId : null));
  const focusIndex = focus ? entries.findIndex((entry) => entry?.id === focus) : -1;
  // A kept view that is hidden (SessionViews.tsx) leaves the entry for when it is shown.
  const shown = useViewShown();
  // The first paint served with the page (firstPaint.ts) gives way once this view has rows, in
  // the commit that draws them; a settled view at its bottom becomes the next load's first paint
  // (FirstPaintSender).
  const hasEntries = count > 0;
  useLayoutEffect(() => {
    if (shown && hasEntries) dismissFirstPaint();
  }, [shown, hasEntries]);
  // Not among the loaded entries: ask main where it is and load the page around it first (again
  // once the session has loaded, if it had not when the search result was opened).
  useEffect(() => {
    if (focus && focusIndex === -1) void ensureEntry(sessionId, focus);
  }, [sessionId, focus, focusIndex, count]);
  // Rows near the viewport that are not loaded yet (placeholders): fetched from main.
  useEffect(() => {
    if (end > start) void ensureEntries(sessionId, start, end);
  }, [sessionId, start, end, entries]);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!focus || focusIndex === -1 || !element || !shown) return;
    useStore.getState().setFocusEntry(null);
    setFollowing(false);
    element.scrollTop = Math.max(0, offsets[focusIndex] - element.clientHeight / 3);
    lastTop.current = element.scrollTop;
    setViewport((v) => ({ ...v, top: element.scrollTop }));
    requestAnimationFrame(() => {
      const row = element.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(focus)}"]`);
      if (!row) return;
      row.scrollIntoView({ block: 'center' });
      lastTop.current = element.scrollTop;
      row.classList.add('focused-entry');
      setTimeout(() => row.classList.remove('focused-entry'), 2500);
    });
  });

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK;
    if (atBottom && !followingRef.current) setFollowing(true);
    else if (!atBottom && followingRef.current && element.scrollTop < lastTop.current - 2) setFollowing(false);
    lastTop.current = element.scrollTop;
    cancelAnimationFrame(frame.current);
    // Rendered within the frame (before its paint): a state update from a frame callback is
    // otherwise rendered in a task after the frame, and its rows painted a frame later.
    frame.current = requestAnimationFrame(() => flushSync(() => setViewport((v) => (v.top === element.scrollTop ? v : { ...v, top: element.scrollTop }))));
  };

  const jump = () => {
    setFollowing(true);
    scrollToBottom();
    requestAnimationFrame(scrollToBottom);
  };

  return (
    <div className="transcript-wrap">
      <div
        ref={scroller}
        className="transcript"
        role="log"
        aria-label="Transcript"
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(event) => {
          if (event.deltaY !== 0) wheeledUp.current = event.deltaY < 0;
          if (event.deltaY < 0 && followingRef.current && scroller.current && scroller.current.scrollTop > 0) setFollowing(false);
        }}
        onKeyDown={(event) => {
          if (event.target !== event.currentTarget) return;
          if (event.key === 'End' && (event.ctrlKey || event.metaKey)) jump();
        }}
      >
        {count === 0 ? (
          <div className="transcript-empty muted">Send a message to start. Type / for the agent’s commands and @ to attach a file.</div>
        ) : (
          <div ref={inner} className="transcript-inner" data-rows-total={count}>
            <div className="spacer" style={{ height: offsets[start] }} aria-hidden="true" />
            {rowsOf(entries, start, end).map(({ entry, index }) =>
              entry ? (
                <Row key={entry.id} id={entry.id} index={index} sessionId={sessionId} observer={rowObserver.current} />
              ) : (
                <div key={`hole:${index}`} className="row row-loading" data-index={index} style={{ height: HOLE_HEIGHT }} aria-busy="true" />
              ),
            )}
            <div className="spacer" style={{ height: total - offsets[end] }} aria-hidden="true" />
          </div>
        )}
      </div>
      {shown && following && hasEntries && <FirstPaintSender sessionId={sessionId} scroller={scroller} measured={measureVersion} />}
      {!following && count > 0 && (
        <button type="button" className="jump-latest" onClick={jump}>
          <Icon name="arrowDown" /> Jump to latest
        </button>
      )}
    </div>
  );
}

/**
 * One measured row; observed while mounted, so scrolled-away rows are not kept alive. Memoized:
 * the transcript renders again on every scroll step, and its rows that stay have the same props.
 */
const Row = memo(function Row({ id, index, sessionId, observer }: { id: string; index: number; sessionId: string; observer: ResizeObserver | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !observer) return;
    observer.observe(element);
    return () => observer.unobserve(element);
  }, [observer]);
  return (
    <div ref={ref} className="row" data-entry-id={id} data-index={index}>
      <EntryView sessionId={sessionId} index={index} />
    </div>
  );
});

/**
 * Sends the settled view as the session's first paint (firstPaint.ts) at every event folded while
 * it is shown at its bottom: its own component, so that the transcript does not render again for
 * each event that changes no row (usage, info) just to learn the session's new seq.
 */
function FirstPaintSender({ sessionId, scroller, measured }: { sessionId: string; scroller: RefObject<HTMLDivElement | null>; measured: number }) {
  const lastSeq = useStore((s) => s.sessions[sessionId]?.lastSeq ?? 0);
  useEffect(() => {
    if (scroller.current) scheduleFirstPaint(sessionId, scroller.current, lastSeq);
  }, [sessionId, scroller, lastSeq, measured]);
  return null;
}

/** Rows `[start, end)`, holes included (`slice().map()` skips the slots of entries not loaded). */
function rowsOf(entries: readonly (TranscriptEntry | undefined)[], start: number, end: number) {
  const rows: { entry: TranscriptEntry | undefined; index: number }[] = [];
  for (let index = start; index < end; index++) rows.push({ entry: entries[index], index });
  return rows;
}
