import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, SplitView } from './Markdown';
import { StreamingSplit, tameNesting } from './markdownBlocks';

/** A finished message parsed in one piece (as markdownBlocks.test.tsx compares). */
const whole = (text: string) => renderToStaticMarkup(<div className="markdown">{parseMarkdown(tameNesting(text))}</div>);
/** What the block renderer shows for a split. */
const blocks = (split: ReturnType<StreamingSplit['update']>) => renderToStaticMarkup(<SplitView split={split} huge={false} />);

/** Lines of exactly 40 characters (39 and a single `\n`), numbered so their order can be read back. */
function lines(count: number, line: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => `${line(i)}`.slice(0, 39).padEnd(39, '.') + '\n').join('');
}

/** One block of every kind that cannot be cut (no blank line inside), 40 KB to 2 MB. */
const BLOCKS: Record<string, (count: number) => string> = {
  paragraph: (n) => lines(n, (i) => `line ${String(i).padStart(7, '0')} of a log dump with words`),
  list: (n) => lines(n, (i) => `- item ${String(i).padStart(7, '0')} of a long list`),
  table: (n) => '| name | value |\n|---|---|\n' + lines(n, (i) => `| row ${String(i).padStart(7, '0')} | cell |`),
  fence: (n) => '```text\n' + lines(n, (i) => `log ${String(i).padStart(7, '0')}: x = ${i}`) + '```\n',
};

/** The unit form: streamed with `update(prefix, false)`, then `update(full, true)` called 50 times. */
function finish(text: string): ReturnType<StreamingSplit['update']> {
  const splitter = new StreamingSplit();
  for (let at = 0; at < text.length; at += 64 * 1024) splitter.update(text.slice(0, at), false);
  splitter.update(text.slice(0, text.length - 20), false);
  let split = splitter.update(text, true);
  let calls = 1;
  for (; calls < 50 && split.behind; calls++) split = splitter.update(text, true);
  console.log(`${text.length} characters: ${calls} updates`);
  return split;
}

describe('a block larger than one frame budget still gets cut and committed (issue 21)', () => {
  for (const [kind, make] of Object.entries(BLOCKS))
    for (const count of [1_000, 3_000, 50_000]) {
      const text = make(count);
      it(`a ${kind} of ${Math.round(text.length / 1024)} KB, finished: everything committed within 50 updates`, { timeout: 120_000 }, () => {
        const split = finish(text);
        expect(split.behind).toBe(false);
        expect(split.tail).toBe('');
        expect(split.pending).toBe('');
        expect(split.groups.join('')).toBe(text);
      });
    }
});

/** The same pseudo-random integers below n on every run (a linear congruential generator; its high bits). */
function seededRandom(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
}

const WORDS = ['stream', 'über', '**bold**', '`code`', 'a', 'log', '42', '[x](https://e.com)', 'www.e.com', '*em*', '<b>', '|', 'the', 'end.'];

/** A random document: blocks of every kind, from one line to about 60 KB, with or without blank lines between them. */
function randomDocument(random: (n: number) => number): string {
  const words = (n: number) => Array.from({ length: n }, () => WORDS[random(WORDS.length)]).join(' ');
  const size = () => [1, 2, 5, 40, 300, 1_500][random(6)];
  const line = (i: number) => `${String(i).padStart(5, '0')} ${words(1 + random(5))}`;
  const kinds = [
    (n: number) => Array.from({ length: n }, (_, i) => `Line ${line(i)}`).join('\n'),
    (n: number) => Array.from({ length: n }, (_, i) => `${random(4) === 0 ? '  ' : ''}- ${line(i)}`).join('\n'),
    (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}. ${line(i)}`).join('\n'),
    (n: number) => '| a | b |\n|---|:-:|\n' + Array.from({ length: n }, (_, i) => `| ${line(i)} | ${i} |`).join('\n'),
    (n: number) => '```ts\n' + Array.from({ length: n }, (_, i) => `const x${i} = "${words(2)}";`).join('\n') + (random(5) === 0 ? '' : '\n```'),
    (n: number) => '~~~\n' + Array.from({ length: n }, (_, i) => `~ ${line(i)}\n\n`).join('') + '~~~',
    (n: number) => Array.from({ length: n }, (_, i) => `> ${line(i)}`).join('\n'),
    (n: number) => Array.from({ length: n }, (_, i) => `    code ${line(i)}`).join('\n'),
    () => `## Heading ${words(3)}`,
    () => '---',
    (n: number) => `Setext ${line(n)}\n===`,
  ];
  const blocks = Array.from({ length: 2 + random(8) }, () => kinds[random(kinds.length)](size()));
  return blocks.map((block, i) => (i === 0 ? '' : ['\n', '\n\n', '\n\n\n'][random(3)]) + block).join('') + (random(2) ? '\n' : '');
}

/** Finished as the component finishes it: one update a frame until it is no longer behind. */
function finishAll(splitter: StreamingSplit, text: string): ReturnType<StreamingSplit['update']> {
  let split = splitter.update(text, true);
  for (let frame = 0; split.behind; frame++) {
    expect(frame).toBeLessThan(50);
    split = splitter.update(text, true);
  }
  return split;
}

describe('a streamed message ends as the non-streamed render of its text (property, issue 21)', () => {
  it('random documents with blocks of every size, streamed in random chunks, render as parsed whole', { timeout: 600_000 }, () => {
    const random = seededRandom(21);
    let largest = 0;
    for (let round = 0; round < 10; round++) {
      const text = randomDocument(random);
      largest = Math.max(largest, text.length);
      const expected = whole(text);
      // Streamed: chunks of 1 character to 20 KB, as agents and a page that fell behind see them.
      const splitter = new StreamingSplit();
      for (let at = 0; at < text.length; at += 1 + random([400, 4_000, 20_000][random(3)])) splitter.update(text.slice(0, at), false);
      const streamedSplit = finishAll(splitter, text);
      expect(streamedSplit.groups.join(''), `round ${round}`).toBe(text);
      expect(blocks(streamedSplit), `round ${round}: streamed`).toBe(expected);
      // Opened finished (a message from history): the same.
      expect(blocks(finishAll(new StreamingSplit(), text)), `round ${round}: finished`).toBe(expected);
    }
    expect(largest).toBeGreaterThan(60_000);
  });
});
