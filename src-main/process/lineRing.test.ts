import { describe, expect, it } from 'vitest';
import { LineRing, STDERR_LINES } from './agentProcess';

describe("an agent's stderr log", () => {
  it('keeps the last 500 lines, whatever the chunking; an unfinished line shows as the last one', () => {
    expect(STDERR_LINES).toBe(500);
    const ring = new LineRing(STDERR_LINES);
    const text = Array.from({ length: 620 }, (_, i) => `line ${i}\n`).join('') + 'partial';
    for (let at = 0; at < text.length; at += 97) ring.push(text.slice(at, at + 97));
    const tail = ring.tail();
    expect(tail).toHaveLength(500);
    expect(tail[0]).toBe('line 121');
    expect(tail.at(-2)).toBe('line 619');
    expect(tail.at(-1)).toBe('partial');
    expect(ring.tail(3)).toEqual(['line 618', 'line 619', 'partial']);
  });

  // Was: such a line was cut into 8 KiB lines, all kept (500 of them: 32 MB for one long line).
  // Now it stays one line, kept as its start and end with the count of what was left out.
  it('a line without an end that grows past 8 KiB is kept as its start and its end, so memory stays bounded', () => {
    const ring = new LineRing(3);
    ring.push('s' + 'x'.repeat(9000));
    expect(ring.tail()).toEqual(['s' + 'x'.repeat(4095) + '… [809 characters not kept] …' + 'x'.repeat(4096)]);
    for (let i = 0; i < 300; i++) ring.push('x'.repeat(65_536));
    ring.push('y\r\nnext\r\n');
    expect(ring.tail()).toEqual(['s' + 'x'.repeat(4095) + `… [${9001 + 300 * 65_536 + 1 - 8192} characters not kept] …` + 'x'.repeat(4095) + 'y', 'next']);
    ring.add('z'.repeat(10_000));
    expect(ring.tail(1)).toEqual(['z'.repeat(4096) + '… [1808 characters not kept] …' + 'z'.repeat(4096)]);
  });
});
