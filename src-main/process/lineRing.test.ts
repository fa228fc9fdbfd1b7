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

  it('a line without an end that grows past 8 KiB is kept as a line, so memory stays bounded', () => {
    const ring = new LineRing(3);
    ring.push('x'.repeat(9000));
    expect(ring.tail()).toEqual(['x'.repeat(9000)]);
    ring.push('y\r\nnext\r\n');
    expect(ring.tail()).toEqual(['x'.repeat(9000), 'y', 'next']);
  });
});
