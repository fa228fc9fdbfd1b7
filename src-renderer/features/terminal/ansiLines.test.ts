import { describe, expect, it } from 'vitest';
import { lastAnsiLines } from './ansiLines';

describe('a finished terminal shown as text (ansiLines.ts)', () => {
  it('keeps the last lines with their colours and weights, without escape codes', () => {
    const output = 'one\r\n\u001b[32m✓\u001b[0m two \u001b[2m(3 ms)\u001b[0m\r\n\u001b[1;31mfailed\u001b[22m plain red\u001b[39m\r\n';
    expect(lastAnsiLines(output, 3)).toEqual([
      [{ text: '✓', fg: 2 }, { text: ' two ' }, { text: '(3 ms)', dim: true }],
      [
        { text: 'failed', fg: 1, bold: true },
        { text: ' plain red', fg: 1, bold: undefined, dim: undefined },
      ],
      [],
    ]);
  });

  it('shows what a carriage return rewrote, and drops cursor moves and titles', () => {
    const output = 'progress 10%\rprogress 55%\rprogress 100%\n\u001b]0;title\u0007\u001b[2Kdone\u001b[1A';
    expect(lastAnsiLines(output, 2)).toEqual([[{ text: 'progress 100%' }], [{ text: 'done' }]]);
  });

  it('keeps bright colours and skips 256-colour and RGB ones', () => {
    expect(lastAnsiLines('\u001b[94mblue\u001b[38;5;208m still blue\u001b[38;2;1;2;3m!', 1)).toEqual([
      [
        { text: 'blue', fg: 12 },
        { text: ' still blue', fg: 12 },
        { text: '!', fg: 12 },
      ],
    ]);
  });
});
