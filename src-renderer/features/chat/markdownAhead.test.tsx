import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../src-shared/session/state';
import { Markdown } from '../markdown/Markdown';
import { parserWork } from '../markdown/markdownBlocks';
import { AHEAD, aheadOrder, prepareAhead } from './markdownAhead';

/** A session of turns: a question, and a reply that ends in a highlighted code block (as `--content mixed`). */
function session(turns: number, tag: string): TranscriptEntry[] {
  return Array.from({ length: turns }, (_, turn): TranscriptEntry[] => [
    { kind: 'user', id: `u${turn}`, turnId: `t${turn}`, content: [{ type: 'text', text: `Question ${turn} ${tag}: **why** does it fail?` }] },
    {
      kind: 'agent',
      id: `a${turn}`,
      text: `Reply ${turn} ${tag}: the parser reads each line.\n\n\`\`\`ts\nexport const turn${turn} = await read(${turn}, '${tag}');\n\`\`\`\n`,
      blocks: [],
    } as TranscriptEntry,
  ]).flat();
}

/** Characters handed to the Markdown parser while rendering `entries[from, to)` as their rows do. */
function parsedToShow(entries: TranscriptEntry[], from: number, to: number): number {
  const before = parserWork.chars;
  for (const entry of entries.slice(from, to))
    renderToStaticMarkup(
      entry.kind === 'agent' ? <Markdown text={entry.text} /> : entry.kind === 'user' ? <Markdown text={(entry.content[0] as { text: string }).text} /> : null,
    );
  return parserWork.chars - before;
}

describe('Markdown of the rows about to scroll into view, parsed while the page is idle (issue 23, round 5)', () => {
  it('rows scrolled into view after an idle moment mount without parsing: the rows above the view when scrolling up', () => {
    const entries = session(200, 'up');
    // Rendered rows [300, 320): scrolling up, the next rows to appear are 299, 298...
    const parsed = prepareAhead(entries, 300, 320, true, () => 50);
    expect(parsed).toBeGreaterThan(0);
    expect(parsedToShow(entries, 300 - AHEAD, 300)).toBe(0);
    // The cost moved, it did not vanish: rows further away still parse when shown.
    expect(parsedToShow(entries, 300 - AHEAD - 4, 300 - AHEAD)).toBeGreaterThan(0);
  });

  it('scrolling down prepares the rows below first; the newest entry (maybe streaming) is left to its row', () => {
    const entries = session(10, 'down'); // 20 entries: all below the rendered ones are within AHEAD
    prepareAhead(entries, 0, 10, false, () => 50);
    expect(parsedToShow(entries, 10, entries.length - 1)).toBe(0);
    expect(parsedToShow(entries, entries.length - 1, entries.length)).toBeGreaterThan(0);
    expect(aheadOrder(10, 20, 40, false, 3)).toEqual([20, 21, 22, 9, 8, 7]);
    expect(aheadOrder(10, 20, 40, true, 3)).toEqual([9, 8, 7, 20, 21, 22]);
  });

  it('stops when the idle period is spent, and goes on from there in the next one', () => {
    const entries = session(100, 'budget');
    let calls = 0;
    const first = prepareAhead(entries, 100, 110, true, () => (calls++ < 3 ? 50 : 0));
    expect(first).toBe(3);
    expect(parsedToShow(entries, 97, 100)).toBe(0);
    const rest = prepareAhead(entries, 100, 110, true, () => 50);
    expect(rest).toBe(2 * AHEAD - 3);
  });
});
