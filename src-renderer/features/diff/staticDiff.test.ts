import { describe, expect, it } from 'vitest';
import { staticDiff } from './staticDiff';

describe('staticDiff', () => {
  it('shows the changed lines with three lines of context, and counts them', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 10\n', 'line ten\nline ten and a half\n');
    const view = staticDiff(before, after);
    expect(view).toMatchObject({ added: 2, removed: 1 });
    expect(view.lines).toEqual([
      { kind: 'gap', count: 7 },
      { kind: 'context', text: 'line 7' },
      { kind: 'context', text: 'line 8' },
      { kind: 'context', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'line ten' },
      { kind: 'added', text: 'line ten and a half' },
      { kind: 'context', text: 'line 11' },
      { kind: 'context', text: 'line 12' },
      { kind: 'context', text: 'line 13' },
      { kind: 'gap', count: 6 },
    ]);
  });

  it('a new file is all added, a deleted one all removed', () => {
    expect(staticDiff(null, 'a\nb\nc\n')).toMatchObject({ added: 3, removed: 0 });
    expect(staticDiff('x\n', '')).toMatchObject({ added: 0, removed: 1, lines: [{ kind: 'removed', text: 'x' }] });
  });

  it('a 20,000-line change costs at most the lines shown', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `row ${i}`).join('\n');
    const view = staticDiff(null, big, 40);
    expect(view.lines).toHaveLength(40);
    expect(view.lines[39]).toEqual({ kind: 'more', count: 19_961 });
    expect(view.added).toBe(20_000);
  });
});
