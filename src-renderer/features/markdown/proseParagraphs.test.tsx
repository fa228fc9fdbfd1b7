import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { floodChunk, markdownDocument } from '../../../e2e/fixtures/flood-agent.mjs';
import { parseMarkdown, renderMarkdown } from './Markdown';
import { proseParagraph } from './proseParagraphs';

const html = (element: ReturnType<typeof parseMarkdown>) => renderToStaticMarkup(<div className="markdown">{element}</div>);
const same = (source: string) => expect(html(renderMarkdown(source)), JSON.stringify(source)).toBe(html(parseMarkdown(source)));

/** The same pseudo-random integers below n on every run (a linear congruential generator). */
function seededRandom(seed: number): (n: number) => number {
  return (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
}

/** Words and near-misses of every inline construct; `|` stands for a line break inside a paragraph. */
const WORDS = [
  'stream',
  'über',
  '日本語',
  '😀',
  'a',
  'The',
  '2024',
  '**bold**',
  '**two words**',
  '**bo',
  'bold**',
  '**a**b',
  'a**b**',
  '**a*',
  '***a***',
  '(**p**)',
  '**x**.',
  '**1**,',
  '*em*',
  '_u_',
  'snake_case',
  '`code`',
  '` sp `',
  '``dbl``',
  '`a``b`',
  '`a',
  '`**`',
  '`x y`',
  'www.x.com',
  'WWW.X.COM',
  'http://a.b',
  'a@b.co',
  'x://y',
  '<b>',
  '&amp;',
  '&',
  '[x]',
  '[x](y)',
  '![i](j)',
  '~~s~~',
  '~',
  '|',
  '\\',
  '\\*',
  ':',
  '.',
  ',',
  '!',
  '?',
  '-',
  '=',
  '#',
  '+',
  '"q"',
  "it's",
  '\u00a0',
  'é',
  '|1.',
  '|2)',
  '|10.',
  '|- x',
  '|+ x',
  '|* x',
  '|# h',
  '|> q',
  '|===',
  '|---',
  '|***',
  '|```',
  '|    code',
  '| lead',
  '|\tx',
  '|**s** x',
  '|`c` x',
  '|word',
  '|9 lives',
  '|Ünïcode',
  '|<div>',
  '  |after two spaces',
  ' |after one space',
];

const PLAIN = ['stream', 'über', '日本語', 'a', 'The', '2024', '**bold**', '**two words**', '`code`', '`x y`', '`**`', 'end.', 'it,', '|word'];

/** A document of random paragraphs, with a block of another kind now and then. */
function randomDocument(random: (n: number) => number): string {
  const blocks: string[] = [];
  for (let b = 0, count = 1 + random(6); b < count; b++) {
    const kind = random(12);
    if (kind === 0) blocks.push(['- item', '1. one', '# Heading', '> quote', '```\ncode\n```', '    indented', '<!-- c -->', '| a |\n|---|\n| 1 |'][random(8)]);
    else if (kind === 1) blocks.push('[ref]: https://example.com\n\nSee [ref].');
    else {
      let text = random(4) === 0 ? '**Lead**' : 'Lead';
      for (let w = 0, words = 1 + random(14); w < words; w++) {
        // Mostly ordinary words, so that most paragraphs hold one near-miss or none.
        const word = random(3) > 0 ? PLAIN[random(PLAIN.length)] : WORDS[random(WORDS.length)];
        text += word.includes('|') ? word.replace('|', '\n') : ` ${word}`;
      }
      blocks.push(text + ['', ' ', '  '][random(3)]);
    }
  }
  return blocks.join(['\n\n', '\n\n\n', '\n \n', '\n'][random(4)]) + ['', '\n', '\n\n'][random(3)];
}

describe('plain paragraphs are drawn without the parser, with the parser’s output', () => {
  it('prose with **strong** words and `code` spans is drawn, not parsed', () => {
    expect(proseParagraph('Plain prose with **strong** words, `code` spans and 日本語.\nA second line.  \n\n', 'p-0')).not.toBeNull();
    for (const parsed of ['A [link](x).', 'An *em*.', 'www.example.com', '- item', 'a  \nhard break', 'Setext\n===', 'x **bo', '`a``b`'])
      expect(proseParagraph(parsed, 'p-0'), parsed).toBeNull();
  });

  it('the flood prose and the Markdown document render as the parser renders them', () => {
    let flood = '';
    for (let i = 0; i < 1_500; i++) flood += floodChunk(i, 40);
    same(flood);
    same(markdownDocument(20_000));
  });

  it('1,500 random mixes of tricky words, lines and blocks render as the parser renders them', () => {
    const random = seededRandom(11);
    let drawn = 0;
    let paragraphs = 0;
    for (let n = 0; n < 1_500; n++) {
      const source = randomDocument(random);
      same(source);
      for (const block of source.split(/\n[ \t]*\n/)) {
        paragraphs++;
        if (proseParagraph(block, 'p-0')) drawn++;
      }
    }
    // Not vacuous: a good share of the paragraphs took the direct path.
    expect(drawn / paragraphs).toBeGreaterThan(0.2);
  });
});
