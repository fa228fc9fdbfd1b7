import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { floodChunk, markdownDocument } from '../../../e2e/fixtures/flood-agent.mjs';
import { closeOpenFence, pagesOf, parseMarkdown, samePage, SplitView } from './Markdown';
import { blockStarts, needsWholeDocument, parserWork, quickBlockStarts, skeleton, StreamingSplit, tameNesting, WholeDocumentCheck } from './markdownBlocks';

/** What a finished message looks like when parsed in one piece (the pre-issue-11 renderer). */
const whole = (text: string) => renderToStaticMarkup(<div className="markdown">{parseMarkdown(tameNesting(text))}</div>);
/** What the block renderer shows for a split. */
const blocks = (split: ReturnType<StreamingSplit['update']>) => renderToStaticMarkup(<SplitView split={split} huge={false} />);

/**
 * `blocks`, rendered once per distinct split: the render is a function of the split alone, and
 * most cut points end in one of a few splits, so the every-split-point tests compare each one.
 */
const rendered = new Map<string, string>();
function blocksOnce(split: ReturnType<StreamingSplit['update']>): string {
  const key = JSON.stringify([split.groups, split.tail, split.pending, split.behind]);
  let html = rendered.get(key);
  if (html === undefined) rendered.set(key, (html = blocks(split)));
  return html;
}

/** Streams `text` cut at `cuts`, then finishes it; returns the final block render. */
function streamed(text: string, cuts: number[]): string {
  const splitter = new StreamingSplit();
  for (const cut of cuts) splitter.update(text.slice(0, cut), false);
  let final = splitter.update(text, true);
  while (final.behind) final = splitter.update(text, true); // as the component does, a frame at a time
  expect(final.tail).toBe('');
  expect(final.pending).toBe('');
  expect(final.groups.join('')).toBe(text);
  return blocksOnce(final);
}

/** The same pseudo-random integers below n on every run (a linear congruential generator). */
function seededRandom(seed: number): (n: number) => number {
  return (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
}

const DOCS: Record<string, string> = {
  prose: '# Title\n\nA paragraph with **bold** and `code`.\nA second line.\n\nSetext heading\n===\n\n---\n\nLast *words* ☕.\n',
  fences:
    'Before.\n\n```ts\nconst a = 1;\n\nconst b = "```";\n```\n\n~~~~\n```\nstill inside\n~~~~\n\n    indented code\n\n    more after a blank\n\nafter\n```python\nprint("open at the end")\n',
  tables: 'Intro\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\nno pipes row\n\n| x |\n|---|\n| y |\n\nText ü 日本語 after.',
  lists:
    '- one\n- two\n\n- three (loose)\n  continued\n\n  second paragraph\n1. ordered\n2. list\n   - nested\n     > quote in list\n\n* other bullet\n+ and another\n\n10) paren\n\nplain',
  quotes: '> a quote\nlazy line\n> > nested\n\n> second quote\n\n<div>html as text</div>\n\n<!-- comment -->\n\nend',
  multibyte: '😀 emoji 👩‍👩‍👧 family\n\n```\n日本語のコード 🎉\n```\n\n| ✓ | 名前 |\n|---|---|\n| ✗ | テスト |\n\n- ü\n- 😀😀😀\n',
  gfm: 'www.example.com and https://a.b/c?d=e.\n\n- [ ] task\n- [x] done\n\n~~strike~~ text\n\nline one  \nhard break\n',
};

describe('incremental Markdown: a streamed message ends as the whole render', () => {
  for (const [name, text] of Object.entries(DOCS)) {
    it(`${name}: every split point (one cut, and chunks of 1, 3, 7 characters)`, () => {
      const expected = whole(text);
      for (let at = 0; at <= text.length; at++) expect(streamed(text, [at]), `cut at ${at}: ${JSON.stringify(text.slice(0, at))}`).toBe(expected);
      for (const step of [1, 3, 7]) {
        const cuts = Array.from({ length: Math.ceil(text.length / step) }, (_, i) => i * step);
        expect(streamed(text, cuts), `chunks of ${step}`).toBe(expected);
      }
    });
  }

  it('a long mixed message (many groups) streamed in 40-character chunks', () => {
    const text = Object.values(DOCS).join('\n\n').repeat(12) + Array.from({ length: 400 }, (_, i) => floodChunk(i, 40)).join('');
    const cuts = Array.from({ length: Math.ceil(text.length / 40) }, (_, i) => i * 40);
    expect(streamed(text, cuts)).toBe(whole(text));
  });

  it('a fence open so far renders as code while streaming, in the tail alone', () => {
    const splitter = new StreamingSplit();
    const split = splitter.update('Para one.\n\nPara two.\n\n```js\nconst a', false);
    expect(split.groups.join('')).toBe('Para one.\n\nPara two.\n\n');
    expect(split.tail).toBe('```js\nconst a');
    expect(blocks(split)).toContain('<code class="hljs language-js">');
  });

  it('cutting on the skeleton (words folded) gives the same cuts as on the text, on every prefix and on random mixes of tricky lines', () => {
    const texts = [...Object.values(DOCS), Array.from({ length: 250 }, (_, i) => floodChunk(i, 40)).join(''), markdownDocument(4_000)];
    for (const text of texts)
      for (let at = 0; at <= text.length; at += text.length > 3_000 ? 89 : 1)
        expect(blockStarts(text.slice(0, at)), `prefix ${at}`).toEqual(blockStarts(text.slice(0, at), false));
    const LINES = [
      '',
      '',
      'plain words here',
      'Heading words',
      '===',
      '---',
      '- - -',
      '***',
      '# heading words',
      '#not a heading',
      '    indented code words',
      '\tcode after a tab',
      '- item words',
      '  continued words',
      '1. ordered words',
      '1234567890. not a list',
      '2) paren words',
      '> quoted words',
      '> - quoted list',
      '```ts info words',
      '```',
      '~~~ tilde words',
      '~~~',
      '``` a`b',
      '| a | b |',
      '|---|:-:|',
      'a | b',
      '--- | ---',
      'x|y|z',
      '<div>html words</div>',
      '<!-- comment words',
      'end words -->',
      '<script>',
      'words </script> more',
      '<pre>',
      '[label words]: /url',
      '[x]: /url "title words"',
      '[^note]: footnote words',
      'a \\| b',
      '\t- tab item',
      '   - three spaces',
      '     five spaces words',
      'word\tafter tab',
      '  ',
      'ab  ',
      '+ plus item',
      '* star item',
      '&amp; entity words',
      '- [ ] task words',
    ];
    const random = seededRandom(7);
    for (let round = 0; round < 400; round++) {
      const text = Array.from({ length: 4 + random(20) }, () => LINES[random(LINES.length)]).join('\n');
      expect(blockStarts(text), JSON.stringify(text)).toEqual(blockStarts(text, false));
    }
  });

  it('the line scan cuts only where the parser cuts (a subset), on every prefix and on random mixes of tricky lines, and finds the prose cuts', () => {
    const subset = (text: string, label: string) => {
      const quick = quickBlockStarts(text);
      if (quick === null) return 0;
      const exact = new Set(blockStarts(text, false));
      for (const at of quick) expect(exact.has(at), `${label}: ${at} in ${JSON.stringify(text)}`).toBe(true);
      return quick.length - 1;
    };
    const texts = [...Object.values(DOCS), Array.from({ length: 250 }, (_, i) => floodChunk(i, 40)).join(''), markdownDocument(4_000)];
    for (const text of texts) for (let at = 0; at <= text.length; at += text.length > 3_000 ? 37 : 1) subset(text.slice(0, at), `prefix ${at}`);
    const LINES = [
      '',
      '',
      '  ',
      '\t',
      'plain words',
      'Other words',
      '**bold** words',
      '__under__ words',
      '`code` words',
      '``two`` words',
      '***',
      '* star item',
      '- item',
      '  - nested item',
      '  continued',
      '    indented code',
      '1. ordered',
      '> quote',
      '> ```',
      '- ```',
      '  ```',
      '   ~~~',
      '```',
      '```ts',
      '``` a`b',
      '````',
      '~~~',
      '~~~ info `x`',
      '| a | b |',
      '|---|---|',
      'a | b',
      '===',
      '---',
      '# heading',
      'ü umlaut words',
      '[^n]: note',
      '  <div>',
      '<!-- open',
      '-->',
    ];
    const random = seededRandom(11);
    let cuts = 0;
    for (let round = 0; round < 3000; round++) {
      const text = Array.from({ length: 3 + random(14) }, () => LINES[random(LINES.length)]).join('\n');
      cuts += subset(text, `mix ${round}`);
    }
    expect(cuts).toBeGreaterThan(1000); // the mixes do exercise cutting, not only the bail-outs
    const flood = Array.from({ length: 2_000 }, (_, i) => floodChunk(i, 40)).join('');
    const exact = blockStarts(flood, false).length;
    expect(quickBlockStarts(flood)!.length).toBeGreaterThan(exact / 3);
  });

  it('the skeleton hands micromark under half of the flood text and keeps its lines', () => {
    const text = Array.from({ length: 2_000 }, (_, i) => floodChunk(i, 40)).join('');
    const folded = skeleton(text);
    expect(folded.split('\n').length).toBe(text.split('\n').length);
    expect(folded.length / text.length).toBeLessThan(0.5);
  });

  it('a reference definition or footnote anywhere makes the message render whole, also when it arrives late in a stream', () => {
    expect(needsWholeDocument('See [a].\n\n[a]: https://example.com')).toBe(true);
    expect(needsWholeDocument('Note[^1].\n\n   [^1]: the note')).toBe(true);
    expect(needsWholeDocument('a [link](x) and time 10:30, [x] :) ]: not at a line start')).toBe(false);
    const check = new WholeDocumentCheck();
    let text = '';
    for (let i = 0; i < 200; i++) expect(check.needs((text += `line ${i} with [x] and ]: inside\n`))).toBe(false);
    expect(check.needs((text += '[x'))).toBe(false);
    expect(check.needs((text += ']: /url\n'))).toBe(true);
  });

  it('block boundaries are line starts and the first is 0', () => {
    expect(blockStarts('\n\n  para\n\n- a\n- b\n\n> q')).toEqual([0, 10, 19]);
  });
});

describe('regression guard: streaming costs O(text), not O(text²) (counts work, not time)', () => {
  /**
   * Streams `chunks` flood chunks, 32 per update (main sends a frame's chunks at once: at wire
   * speed a 16 ms frame holds about 150), rendering
   * like React would (groups memoized by their text); counts what the parsers are handed.
   */
  function parsedWhileStreaming(chunks: number): { parsed: number; total: number } {
    const splitter = new StreamingSplit();
    const rendered: string[] = [];
    let text = '';
    parserWork.chars = 0;
    for (let i = 0; i < chunks; i++) {
      text += floodChunk(i, 40);
      if (i % 32 !== 31 && i !== chunks - 1) continue;
      const split = splitter.update(text, false);
      split.groups.forEach((group, g) => {
        if (rendered[g] !== group) {
          parserWork.chars += group.length; // what <Group> hands to renderMarkdown
          rendered[g] = group;
        }
      });
      parserWork.chars += closeOpenFence(split.tail).length;
    }
    console.log(`${chunks} chunks: ${text.length} characters, ${parserWork.chars} handed to the parsers`);
    return { parsed: parserWork.chars, total: text.length };
  }

  // Both sizes are past the 16 KiB look-ahead window, so windowed cutting is exercised; the test's
  // own cost grows with the square of the length (every update reads the whole grown string).
  it('10,000 chunks of 40 characters: the parsers see a small multiple of the text, the same multiple as for 2,500', { timeout: 120_000 }, () => {
    const small = parsedWhileStreaming(2_500);
    const large = parsedWhileStreaming(10_000);
    // Re-parsing the whole message per update (the old renderer) would hand the parser
    // 312 × 200,000 = 62 million characters (300× the text); per block it is a few times the text
    // (6× before the cutter read the skeleton, 2.2× since).
    expect(large.parsed / large.total).toBeLessThan(3);
    expect(large.parsed / large.total).toBeLessThan((small.parsed / small.total) * 1.2);
  });

  it('an update hands React the groups of the pages that changed (at most two pages), not every group of the message', () => {
    const splitter = new StreamingSplit();
    let text = '';
    let previous: ReturnType<typeof pagesOf> = [];
    let visited = 0;
    let everyGroup = 0;
    let most = 0;
    // 20,000 chunks (800 KB, over 300 groups), 150 chunks per update as at wire speed.
    for (let i = 0; i < 20_000; i++) {
      text += floodChunk(i, 40);
      if (i % 150 !== 149) continue;
      const split = splitter.update(text, false);
      const pages = pagesOf(split.groups, true);
      let now = 0;
      pages.forEach((page, p) => {
        if (!previous[p] || !samePage(previous[p], page)) now += page.groups.length;
      });
      previous = pages;
      visited += now;
      most = Math.max(most, now);
      everyGroup += split.groups.length;
    }
    expect(previous.length).toBeGreaterThan(9);
    // Bounded per update (two pages of 32), whatever the message's length so far.
    expect(most).toBeLessThanOrEqual(64);
    expect(visited).toBeLessThan(everyGroup / 5);
  }, 60_000);

  it('finished groups hold their own text, not the message as it was when they were cut (heap)', () => {
    // The unit project runs with --expose-gc (vitest.config.ts); the renderer has no Node types.
    const node = globalThis as unknown as { gc: () => void; process: { memoryUsage(): { heapUsed: number } } };
    const heap = () => {
      node.gc();
      return node.process.memoryUsage().heapUsed;
    };
    const before = heap();
    const splitter = new StreamingSplit();
    let text = '';
    // 20,000 chunks (800 KB) in 133 updates; the groups are kept, as a message's groups are.
    for (let i = 0; i < 20_000; i++) {
      text += floodChunk(i, 40);
      if (i % 150 === 149) splitter.update(text, false);
    }
    const split = splitter.update(text, false);
    const retained = heap() - before;
    expect(split.groups.join('').length).toBeGreaterThan(700_000);
    // The text twice (the message and its groups) plus overhead; a copy per update would be ~50 MB.
    expect(retained).toBeLessThan(8 * text.length);
  }, 60_000);

  it('one huge paragraph without blank lines is re-parsed only as it grows by a quarter', () => {
    const splitter = new StreamingSplit();
    let text = '';
    parserWork.chars = 0;
    let shownParsed = 0;
    // 200,000 characters: twelve times the 16 KiB look-ahead window.
    for (let i = 0; i < 1_000; i++) {
      text += 'word '.repeat(40);
      const split = splitter.update(text, false);
      if (split.tail.length !== shownParsed) {
        shownParsed = split.tail.length;
        parserWork.chars += split.tail.length;
      }
      if (i % 250 === 0) expect(split.tail + split.pending).toBe(text);
    }
    expect(parserWork.chars / text.length).toBeLessThan(20);
  }, 60_000);
});

describe('pathological nesting is flattened before any parser', () => {
  it('"- " × 1000 and ">" × 10000 render, keeping every character as text', () => {
    for (const text of ['- '.repeat(1000) + 'x', '>'.repeat(10_000), Array.from({ length: 60 }, (_, i) => `${' '.repeat(2 * i)}- a`).join('\n')]) {
      const html = whole(text);
      expect(html).toMatch(/<ul>|<blockquote>/);
      const splitter = new StreamingSplit();
      expect(() => blocks(splitter.update(text, true))).not.toThrow();
    }
    expect(whole('>'.repeat(10_000)).includes('&gt;'.repeat(100))).toBe(true);
    expect(tameNesting('- '.repeat(40) + 'x')).toBe('- '.repeat(16) + '\\' + '- '.repeat(24) + 'x');
  });

  it('ordinary nesting is untouched', () => {
    const text = '> > quote\n- a\n  - b\n    - c\n1. x\n   2. y\n\n```\n' + ' '.repeat(40) + '- code\n```';
    expect(tameNesting(text)).toBe(text);
  });
});
