/**
 * The transcript's row offsets (prefix sums of row heights, measured or estimated), kept current
 * as the session changes (issue 23: what a step costs should not grow with the session). Summing
 * every row again read each entry's height from a map: a row measured on a wheel step, a page of
 * older entries loaded while scrolling, or a chunk streamed into the last entry each cost a walk
 * of the whole session's heights (about 1–3 ms at 50,000 entries). Now only the rows that changed
 * are read: the entries replaced since the last sum (the store shares the others: a reference
 * compare finds them), the rows appended, and the rows measured; the offsets after them are
 * shifted in one typed-array pass.
 */

/** A row whose height differs by `delta` from the height the offsets held for it. */
export interface HeightChange {
  index: number;
  delta: number;
}

/** The offsets of `count` rows: `offsets[i]` is the sum of the heights of rows `0..i-1`, `offsets[count]` their total. */
export function sumOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const sums = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) sums[i + 1] = sums[i] + heightOf(i);
  return sums;
}

/**
 * `offsets` with `changes` applied and rows appended up to `count` (their heights from
 * `heightOf`), as a new array: the old one may still be rendered from.
 */
export function shiftOffsets(
  offsets: Float64Array,
  changes: readonly HeightChange[],
  count = offsets.length - 1,
  heightOf?: (index: number) => number,
): Float64Array {
  const had = offsets.length - 1;
  const next = new Float64Array(count + 1);
  next.set(offsets);
  const sorted = [...changes].sort((a, b) => a.index - b.index);
  let shift = 0;
  let k = 0;
  for (let i = sorted.length > 0 ? sorted[0].index + 1 : had + 1; i <= had; i++) {
    // A change to row j moves the offset of every row after it.
    while (k < sorted.length && sorted[k].index < i) shift += sorted[k++].delta;
    next[i] += shift;
  }
  for (let i = had; i < count; i++) next[i + 1] = next[i] + heightOf!(i);
  return next;
}

/**
 * The offsets for each render of one transcript: the last ones with the rows that changed since
 * read again, or all summed again when the heights map is another or rows went away.
 */
export class RowOffsets<T> {
  private last: { entries: readonly (T | undefined)[]; heights: object; offsets: Float64Array } | null = null;
  private dirty = new Set<number>();

  /** Row `index` was measured at a height other than the one it had (a row without one: all are read again). */
  measured(index: number): void {
    if (Number.isInteger(index)) this.dirty.add(index);
    else this.last = null;
  }

  offsets(entries: readonly (T | undefined)[], heights: object, heightOf: (entry: T | undefined) => number): Float64Array {
    const dirty = this.dirty;
    this.dirty = new Set();
    const last = this.last;
    const count = entries.length;
    let offsets: Float64Array;
    if (!last || last.heights !== heights || count < last.entries.length) {
      offsets = sumOffsets(count, (i) => heightOf(entries[i]));
    } else {
      const had = last.entries.length;
      if (last.entries !== entries) for (let i = 0; i < had; i++) if (last.entries[i] !== entries[i]) dirty.add(i);
      const changes: HeightChange[] = [];
      for (const index of dirty) {
        if (index >= had) continue;
        const delta = heightOf(entries[index]) - (last.offsets[index + 1] - last.offsets[index]);
        if (delta !== 0) changes.push({ index, delta });
      }
      offsets = shiftOffsets(last.offsets, changes, count, (i) => heightOf(entries[i]));
    }
    this.last = { entries, heights, offsets };
    return offsets;
  }
}
