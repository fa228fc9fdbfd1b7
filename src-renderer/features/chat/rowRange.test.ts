import { describe, expect, it } from 'vitest';
import { AHEAD, grownRange, keptAfterAppend, LIMIT, rowRange, type RowRange } from './rowRange';

/** Prefix sums of `count` rows of `height` px. */
function uniform(count: number, height: number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i] + height;
  return offsets;
}

const VIEWPORT = 900;
const OVERSCAN = 800;
const STEP = 800;

/**
 * Wheel steps up from the bottom of `count` rows, as the transcript takes them: each step the
 * range for the new viewport (what the step's frame renders), then `idleGrowths` idle periods
 * each rendering a few rows ahead. Returns the rows each step's frame had to mount.
 */
function wheelUp(count: number, steps: number, idleGrowths: number, keep: boolean): number[] {
  const offsets = uniform(count, 100);
  let top = offsets[count] - VIEWPORT;
  let range: RowRange = rowRange(offsets, count, top, top + VIEWPORT, OVERSCAN, null);
  const mounted: number[] = [];
  for (let step = 0; step < steps; step++) {
    top -= STEP;
    const next = rowRange(offsets, count, top, top + VIEWPORT, OVERSCAN, keep ? range : null);
    mounted.push(Math.max(0, range.start - next.start) + Math.max(0, next.end - range.end));
    range = next;
    for (let i = 0; i < idleGrowths; i++) range = grownRange(offsets, count, range, top, top + VIEWPORT, true) ?? range;
    // Never beyond the viewport by more than LIMIT on either side.
    expect(offsets[range.start]).toBeGreaterThanOrEqual(top - LIMIT - 100);
    expect(offsets[range.end]).toBeLessThanOrEqual(top + VIEWPORT + LIMIT + 100);
    expect(range.start).toBeLessThanOrEqual(Math.floor(top / 100));
    expect(range.end).toBeGreaterThanOrEqual(Math.ceil((top + VIEWPORT) / 100));
  }
  return mounted;
}

describe('the transcript rows rendered while wheel scrolling (issue 23, round 5)', () => {
  it('rows rendered ahead while idle make a wheel step mount nothing on its frame', () => {
    // Enough idle time between steps for the rows of one step: no step's frame mounts a row.
    const steps = wheelUp(10_000, 60, 3, true);
    expect(steps.slice(1)).toEqual(Array(59).fill(0));
    // Choosing the rows again on every step (as before): every step's frame mounts a step's rows.
    expect(wheelUp(10_000, 60, 0, false).every((rows) => rows >= STEP / 100)).toBe(true);
  });

  it('growing stops once AHEAD is covered, and rows are not grown past the first', () => {
    const offsets = uniform(1000, 100);
    let range: RowRange = { start: 500, end: 520 };
    let growths = 0;
    for (let next = grownRange(offsets, 1000, range, 50_500, 51_400, true); next; next = grownRange(offsets, 1000, range, 50_500, 51_400, true)) {
      range = next;
      growths++;
    }
    expect(offsets[range.start]).toBeLessThanOrEqual(50_500 - AHEAD);
    expect(offsets[range.start]).toBeGreaterThan(50_500 - AHEAD - 500);
    expect(growths).toBeGreaterThan(0);
    expect(grownRange(offsets, 1000, { start: 0, end: 10 }, 0, 900, true)).toBeNull();
    expect(grownRange(offsets, 1000, { start: 990, end: 1000 }, 99_100, 100_000, false)).toBeNull();
  });

  it('a far jump (scrollbar, search hit) chooses the rows around the new viewport', () => {
    const offsets = uniform(10_000, 100);
    const kept = { start: 9900, end: 10_000 };
    const range = rowRange(offsets, 10_000, 50_000, 50_900, OVERSCAN, kept);
    // Rows of 100 px: the viewport and OVERSCAN around it are rows 492 to 516, and no more than a row beyond.
    expect(range.start).toBeLessThanOrEqual(492);
    expect(range.start).toBeGreaterThanOrEqual(491);
    expect(range.end).toBeGreaterThanOrEqual(517);
    expect(range.end).toBeLessThanOrEqual(518);
  });

  it('a row added at the end while the person reads above it is rendered when it is near (a "Files restored" marker)', () => {
    // 15 rows of 100 px, the person at the top: the rows kept reach the last one.
    const before = uniform(15, 100);
    const kept = rowRange(before, 15, 0, VIEWPORT, OVERSCAN, null);
    expect(kept.end).toBe(15);
    // A 16th row arrives, within the overscan: it is rendered with the kept rows.
    const after = uniform(16, 100);
    expect(rowRange(after, 16, 0, VIEWPORT, OVERSCAN, kept).end).toBe(15);
    expect(rowRange(after, 16, 0, VIEWPORT, OVERSCAN, keptAfterAppend(kept, 15, 16)).end).toBe(16);
    // Far below (beyond LIMIT) it is not: the window around the viewport is chosen again.
    const far = uniform(200, 100);
    const keptFar = { start: 0, end: 199 };
    expect(rowRange(far, 200, 0, VIEWPORT, OVERSCAN, keptAfterAppend(keptFar, 199, 200)).end).toBeLessThan(200);
    // Rows the kept window did not reach are not added.
    expect(keptAfterAppend({ start: 0, end: 12 }, 20, 21)).toEqual({ start: 0, end: 12 });
  });
});
