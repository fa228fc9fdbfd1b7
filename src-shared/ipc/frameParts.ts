/**
 * Large WebSocket frames from the browser host, sent in parts. A browser turns a text frame into
 * a string in one task: a 5 MB answer chunk was one 55–65 ms task of the page before any of our
 * code ran (issue 11's trace). Parts of PART_CHARS are decoded in tasks of a few ms each and
 * joined before parsing. A frame that starts with `{` is whole; `+` starts a part with more to
 * come, `.` the last part. WebSocket keeps the order of frames, so parts need no numbering.
 */
export const PART_CHARS = 256 * 1024;

/** `text` as the frames to send: itself when small, else parts never cut inside a surrogate pair. */
export function framesOf(text: string, partChars = PART_CHARS): string[] {
  if (text.length <= partChars) return [text];
  const frames: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + partChars);
    // A lone half of a pair would be sent as U+FFFD: keep the pair in one part.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    frames.push((end === text.length ? '.' : '+') + text.slice(at, end));
    at = end;
  }
  return frames;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Joins parts back into frames: `push` returns a whole frame's text, or null while parts are missing. */
export class FrameJoiner {
  private parts: string[] = [];
  push(frame: string): string | null {
    const mark = frame[0];
    if (mark === '+') {
      this.parts.push(frame.slice(1));
      return null;
    }
    if (mark === '.') {
      this.parts.push(frame.slice(1));
      const whole = this.parts.join('');
      this.parts = [];
      return whole;
    }
    // A whole frame (a reconnect drops any parts of the old connection with this joiner).
    this.parts = [];
    return frame;
  }
}
