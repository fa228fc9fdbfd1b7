import { describe, expect, it } from 'vitest';
import { LineRing } from '../process/agentProcess';
import { EXCERPT_CHARS, EXCERPT_LINES, stderrExcerpt } from './stderrExcerpt';

describe('stderrExcerpt (what every session of an agent keeps of its stderr)', () => {
  it('keeps the last 40 lines that fit in 4 KB', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    expect(stderrExcerpt(lines)).toEqual(lines.slice(-EXCERPT_LINES));
    const wide = Array.from({ length: 100 }, (_, i) => `${i} ${'w'.repeat(1497)}`);
    const kept = stderrExcerpt(wide);
    expect(kept.join('\n').length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(kept).toHaveLength(3);
    expect(kept.slice(-2)).toEqual(wide.slice(-2));
    expect(kept[0]).toMatch(/^97 w+… \[\d+ characters not kept\] …w+$/);
  });

  it('a line too long for the excerpt is kept as its start and end, counting what the ring had left out already', () => {
    const ring = new LineRing(500);
    ring.push(`ERROR ${'e'.repeat(5_000_000)} END\nbye\n`);
    const kept = stderrExcerpt(ring.tail());
    expect(kept.join('\n').length).toBeLessThanOrEqual(EXCERPT_CHARS);
    const [, start, dropped, end] = /^(ERROR e+)… \[(\d+) characters not kept\] …(e+ END)$/.exec(kept[0])!;
    expect(start.length + Number(dropped) + end.length).toBe(5_000_010);
    expect(kept[1]).toBe('bye');
    expect(stderrExcerpt([])).toEqual([]);
  });
});
