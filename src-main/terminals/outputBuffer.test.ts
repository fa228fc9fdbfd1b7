import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './outputBuffer';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('OutputBuffer', () => {
  it('keeps everything without a limit', () => {
    const buffer = new OutputBuffer(null);
    buffer.push('hello ');
    buffer.push(Buffer.from('wörld'));
    expect(buffer.text()).toBe('hello wörld');
    expect(buffer.truncated).toBe(false);
  });

  it('keeps exactly the limit when the cut falls between characters', () => {
    const buffer = new OutputBuffer(5);
    buffer.push('abcdefgh');
    expect(buffer.text()).toBe('defgh');
    expect(buffer.truncated).toBe(true);
  });

  it('drops from the start and never splits a multi-byte character (2, 3 and 4 bytes)', () => {
    const text = 'aé€😀'.repeat(3); // 1 + 2 + 3 + 4 bytes per repetition
    for (let limit = 1; limit <= bytes(text); limit++) {
      const buffer = new OutputBuffer(limit);
      buffer.push(text);
      const kept = buffer.text();
      expect(kept).not.toContain('\uFFFD');
      expect(bytes(kept)).toBeLessThanOrEqual(limit);
      expect(text.endsWith(kept)).toBe(true);
      // At most one partial character (≤ 3 bytes) was dropped beyond the limit.
      expect(limit - bytes(kept)).toBeLessThanOrEqual(3);
      expect(buffer.truncated).toBe(limit < bytes(text));
    }
  });

  it('cuts correctly when a character arrives split across chunks', () => {
    const euro = Buffer.from('€'); // e2 82 ac
    const buffer = new OutputBuffer(4);
    buffer.push(Buffer.from('xy'));
    buffer.push(euro.subarray(0, 1));
    buffer.push(Buffer.concat([euro.subarray(1), Buffer.from('z')]));
    expect(buffer.text()).toBe('€z');
  });

  it('a limit of 0 keeps nothing', () => {
    const buffer = new OutputBuffer(0);
    buffer.push('abc');
    expect(buffer.text()).toBe('');
    expect(buffer.truncated).toBe(true);
  });
});
