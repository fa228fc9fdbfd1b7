import { describe, expect, it } from 'vitest';
import { FrameJoiner, framesOf, PART_CHARS } from './frameParts';

describe('frames in parts', () => {
  it('sends a small frame whole', () => {
    const text = JSON.stringify({ t: 'evt', name: 'x', payload: 'hello' });
    expect(framesOf(text)).toEqual([text]);
    expect(new FrameJoiner().push(text)).toBe(text);
  });

  it('sends a 5 MB frame as parts of at most PART_CHARS and joins them back exactly', () => {
    const text = JSON.stringify({ t: 'evt', name: 'session.events', payload: { text: 'log line ✓ 😀 '.repeat(400_000) } });
    expect(text.length).toBeGreaterThan(5_000_000);
    const frames = framesOf(text);
    expect(frames.length).toBeGreaterThan(text.length / PART_CHARS - 1);
    for (const frame of frames) expect(frame.length).toBeLessThanOrEqual(PART_CHARS + 1);
    const joiner = new FrameJoiner();
    const out = frames.map((frame) => joiner.push(frame));
    expect(out.slice(0, -1).every((whole) => whole === null)).toBe(true);
    expect(out[out.length - 1]).toBe(text);
  });

  it('never cuts a surrogate pair in two (each part is valid UTF-16 on its own)', () => {
    const text = `{${'😀'.repeat(50)}}`;
    for (const size of [2, 3, 7, 10]) {
      const frames = framesOf(text, size);
      for (const frame of frames) expect(new TextDecoder().decode(new TextEncoder().encode(frame.slice(1)))).toBe(frame.slice(1));
      const joiner = new FrameJoiner();
      expect(frames.map((frame) => joiner.push(frame)).at(-1)).toBe(text);
    }
  });

  it('a whole frame after unfinished parts (a connection that broke mid-frame) is read as itself', () => {
    const joiner = new FrameJoiner();
    expect(joiner.push('+{"t":"evt","na')).toBeNull();
    expect(joiner.push('{"t":"res","id":1}')).toBe('{"t":"res","id":1}');
    expect(joiner.push('.x')).toBe('x');
  });
});
