/**
 * Which transcript rows are in the DOM (issue 23, round 5: wheel scroll). The rendered rows are
 * kept while they still cover the viewport, so most wheel steps change nothing in the DOM (the
 * browser scrolls what is there, as it does a plain page), and while the page is idle more rows
 * are rendered on the side the person is scrolling towards: the work a step would have done on
 * its frame is done between steps.
 */

/** Rows `[start, end)` of the transcript. */
export interface RowRange {
  start: number;
  end: number;
}

/** The rendered rows must cover the viewport with this much to spare on each side, or they are chosen again. */
/** How close to the bottom of the transcript counts as "at the bottom" (following; the first paint). */
export const BOTTOM_SLACK = 24;
export const MARGIN = 200;
/** Rendered ahead of the viewport while idle, in the direction of scrolling: three wheel steps. */
export const AHEAD = 2400;
/** Rows further than this from the viewport are dropped (in one batch, not one row per step). */
export const LIMIT = 4000;
/** Rows added per idle period. */
export const GROW_ROWS = 4;

/**
 * The rows to render for the viewport `[top, bottom)` (pixels; `offsets` are the rows' prefix
 * sums): `kept` (the rows rendered before) while they cover the viewport and MARGIN around it,
 * else the viewport and `overscan` around it; on each side, nothing beyond LIMIT.
 */
export function rowRange(offsets: Float64Array, count: number, top: number, bottom: number, overscan: number, kept: RowRange | null): RowRange {
  const needStart = Math.max(0, upperBound(offsets, top - Math.min(MARGIN, overscan)) - 1);
  const needEnd = Math.min(count, upperBound(offsets, bottom + Math.min(MARGIN, overscan)));
  let start = Math.max(0, upperBound(offsets, top - overscan) - 1);
  let end = Math.min(count, upperBound(offsets, bottom + overscan));
  if (kept && kept.start <= needStart && kept.end >= needEnd && kept.end <= count) {
    start = offsets[kept.start] < top - LIMIT ? start : kept.start;
    end = offsets[kept.end] > bottom + LIMIT ? end : kept.end;
  }
  return { start, end };
}

/**
 * The kept rows once the transcript has `count` rows where it had `keptCount`: rows added at its
 * end (a new message, a "Files restored" marker) while the person reads further up are rendered
 * with the rows kept when those reached the old end, as the window's overscan did before rows
 * were kept (`rowRange` still drops them beyond LIMIT).
 */
export function keptAfterAppend(kept: RowRange | null, keptCount: number, count: number): RowRange | null {
  return kept && count > keptCount && kept.end === keptCount ? { start: kept.start, end: count } : kept;
}

/** The range with GROW_ROWS more rows towards `up` (or down), or null once AHEAD is covered on that side. */
export function grownRange(offsets: Float64Array, count: number, range: RowRange, top: number, bottom: number, up: boolean): RowRange | null {
  if (up) return range.start > 0 && offsets[range.start] > top - AHEAD ? { start: Math.max(0, range.start - GROW_ROWS), end: range.end } : null;
  return range.end < count && offsets[range.end] < bottom + AHEAD ? { start: range.start, end: Math.min(count, range.end + GROW_ROWS) } : null;
}

/** The first index whose offset is greater than `value`. */
export function upperBound(offsets: Float64Array, value: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
