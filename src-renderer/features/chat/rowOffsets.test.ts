import { describe, expect, it } from 'vitest';
import { RowOffsets, shiftOffsets, sumOffsets } from './rowOffsets';

const ROWS = 50_000;

/** A session's rows as the transcript sees them: an entry (its kind decides its estimate) or a hole not loaded yet. */
interface Row {
  id: string;
  height: number;
}

function session(count: number): (Row | undefined)[] {
  return Array.from({ length: count }, (_, i) => ({ id: `e${i}`, height: [64, 120, 96, 32][i % 4] }));
}

/** The offsets as a full sum computes them: measured heights first, else the row's own estimate, 80 for a hole. */
function expected(rows: readonly (Row | undefined)[], measured: Map<string, number>): number[] {
  return [...sumOffsets(rows.length, (i) => (rows[i] ? (measured.get(rows[i]!.id) ?? rows[i]!.height) : 80))];
}

/** A transcript's offsets, counting the rows whose height was read. */
function transcript() {
  const measured = new Map<string, number>();
  const offsets = new RowOffsets<Row>();
  let reads = 0;
  const heightOf = (row: Row | undefined) => {
    reads++;
    return row ? (measured.get(row.id) ?? row.height) : 80;
  };
  return {
    measured,
    offsets,
    render: (rows: readonly (Row | undefined)[]) => offsets.offsets(rows, measured, heightOf),
    reads: () => {
      const n = reads;
      reads = 0;
      return n;
    },
  };
}

describe('row offsets', () => {
  it('are the prefix sums of the heights', () => {
    expect([...sumOffsets(4, (i) => [10, 20, 30, 40][i])]).toEqual([0, 10, 30, 60, 100]);
  });

  it('shifted by changed rows, the same row twice included, and with rows appended, equal a full sum', () => {
    const heights = [64, 120, 96, 32, 64, 120];
    const before = sumOffsets(6, (i) => heights[i]);
    const shifted = shiftOffsets(
      before,
      [
        { index: 4, delta: 10 },
        { index: 1, delta: -20 },
        { index: 4, delta: 5 },
      ],
      8,
      () => 50,
    );
    expect([...shifted]).toEqual([...sumOffsets(8, (i) => [64, 100, 96, 32, 79, 120, 50, 50][i])]);
    // The offsets rendered before stay as they were.
    expect(before[6]).toBe(496);
  });

  it('read only the rows a wheel step measured, a page loaded or a chunk changed, never the whole session again', () => {
    const t = transcript();
    // Paging: the newest 1,000 entries loaded, the older ones holes.
    const full = session(ROWS);
    let rows: (Row | undefined)[] = full.map((row, i) => (i >= ROWS - 1000 ? row : undefined));
    t.render(rows);
    expect(t.reads()).toBe(ROWS);

    // A wheel step measured the three rows it brought into view.
    for (const index of [ROWS - 900, ROWS - 899, ROWS - 898]) {
      t.measured.set(`e${index}`, 200);
      t.offsets.measured(index);
    }
    expect([...t.render(rows)]).toEqual(expected(rows, t.measured));
    expect(t.reads()).toBe(3);

    // Scrolling up loaded a page of 200 older entries into their holes (the store shares the rest).
    rows = rows.slice();
    for (let i = ROWS - 1200; i < ROWS - 1000; i++) rows[i] = full[i];
    expect([...t.render(rows)]).toEqual(expected(rows, t.measured));
    expect(t.reads()).toBe(200);

    // A chunk streamed into the last entry, then a new entry appended.
    rows = rows.slice();
    rows[ROWS - 1] = { id: `e${ROWS - 1}`, height: 400 };
    expect([...t.render(rows)]).toEqual(expected(rows, t.measured));
    expect(t.reads()).toBe(1);
    rows = [...rows, { id: 'new', height: 64 }];
    expect([...t.render(rows)]).toEqual(expected(rows, t.measured));
    expect(t.reads()).toBe(1);

    // Nothing changed (a scroll step that measured nothing): nothing read.
    t.render(rows);
    expect(t.reads()).toBe(0);
  });

  it('are summed again when rows went away or a row could not say which it is', () => {
    const t = transcript();
    const rows = session(1000);
    t.render(rows);
    t.reads();
    expect([...t.render(rows.slice(0, 900))]).toEqual(expected(rows.slice(0, 900), t.measured));
    expect(t.reads()).toBe(900);
    t.measured.set('e5', 10);
    t.offsets.measured(Number(undefined));
    expect([...t.render(rows.slice(0, 900))]).toEqual(expected(rows.slice(0, 900), t.measured));
    expect(t.reads()).toBe(900);
  });
});
