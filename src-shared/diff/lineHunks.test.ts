import { describe, expect, it } from 'vitest';
import { lineHunks, revertHunk } from './lineHunks';

describe('lineHunks', () => {
  it('finds each run of changed lines and reverting one leaves the others', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'a\nB\nc\nd\ne\nF\nf\ng\nh\n';
    const hunks = lineHunks(before, after);
    expect(hunks.map((h) => [h.oldLines.join(''), h.newLines.join('')])).toEqual([
      ['b\n', 'B\n'],
      ['', 'F\n'],
      ['', 'h\n'],
    ]);
    const middleReverted = revertHunk(after, hunks[1]);
    expect(middleReverted).toBe('a\nB\nc\nd\ne\nf\ng\nh\n');
    // Keys are by content: the first hunk keeps its key after another one is reverted.
    expect(lineHunks(before, middleReverted)[0].key).toBe(hunks[0].key);
  });

  it('reverts every hunk back to the old text, line ends included', () => {
    const before = 'one\r\ntwo\r\nthree';
    const after = 'zero\r\none\r\n2\r\nthree!';
    let text = after;
    for (const hunk of lineHunks(before, after).reverse()) text = revertHunk(text, hunk);
    expect(text).toBe(before);
  });

  it('handles new and emptied files', () => {
    expect(lineHunks('', 'x\ny\n')).toEqual([expect.objectContaining({ oldLines: [], newLines: ['x\n', 'y\n'] })]);
    expect(revertHunk('', lineHunks('x\n', '')[0])).toBe('x\n');
  });

  it('refuses to revert a hunk that is no longer where it was', () => {
    const [hunk] = lineHunks('a\nb\n', 'a\nc\n');
    expect(() => revertHunk('a\nd\n', hunk)).toThrow(/not where it was/);
  });
});

describe('lineHunks on big files', () => {
  it('finds scattered edits in a 20,000-line file and gives up on a rewrite with one hunk', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
    const edited = lines.map((line, i) => (i % 1000 === 500 ? `changed ${i}\n` : line));
    const hunks = lineHunks(lines.join(''), edited.join(''));
    expect(hunks).toHaveLength(20);
    expect(hunks[3]).toMatchObject({ oldStart: 3500, oldLines: ['line 3500\n'], newLines: ['changed 3500\n'] });
    const rewritten = lines.map((line) => `new ${line}`);
    const [whole, ...rest] = lineHunks(lines.join(''), rewritten.join(''));
    expect(rest).toEqual([]);
    expect(revertHunk(rewritten.join(''), whole)).toBe(lines.join(''));
  });
});
