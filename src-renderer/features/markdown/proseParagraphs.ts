import { createElement, Fragment, type ReactElement, type ReactNode } from 'react';
import { quickBlockStarts } from './markdownBlocks';

/**
 * Draws the plain paragraphs of a Markdown source without the parser, and hands the rest to
 * `parse` (react-markdown). Prose is most of what agents stream, and micromark, mdast, the GFM
 * autolink transform, hast and the JSX conversion took 15–25% of the page's CPU while a long
 * answer streamed (issue 11's profiles), twice that for the window's first answer, when none of
 * that code is compiled yet.
 *
 * A paragraph is drawn here only when CommonMark + GFM cannot read it as anything else: every
 * line starts with a letter or digit (no block can start there or interrupt a paragraph) and has
 * no trailing whitespace (a hard break) except the last; the text holds no character that starts
 * inline syntax, no `www.` or `://` (GFM autolinks), and its only markup is `**strong**` between
 * spaces and single-backtick `code` spans. Anything else, a paragraph included, goes to `parse`
 * in runs of whole top-level blocks (cut by the same line scan the streaming split uses), so the
 * output is the parser's, element for element (a test compares them on the documents and on
 * thousands of random mixes of tricky lines). Sources with reference definitions (`]:`) are
 * parsed whole: a reference reaches back across blocks.
 */
export function renderProse(source: string, parse: (source: string) => ReactElement): ReactElement {
  const starts = source.includes(']:') ? null : quickBlockStarts(source);
  if (!starts) return parse(source);
  const nodes: ReactNode[] = [];
  let drawn = 0;
  let parseFrom = -1;
  const parseRun = (to: number) => {
    if (parseFrom < 0) return;
    if (nodes.length > 0) nodes.push('\n');
    nodes.push(createElement(Fragment, { key: `parsed-${parseFrom}` }, parse(source.slice(parseFrom, to))));
    parseFrom = -1;
  };
  for (let i = 0; i < starts.length; i++) {
    const paragraph = proseParagraph(source.slice(starts[i], starts[i + 1] ?? source.length), `p-${drawn}`);
    if (!paragraph) {
      if (parseFrom < 0) parseFrom = starts[i];
      continue;
    }
    parseRun(starts[i]);
    if (nodes.length > 0) nodes.push('\n');
    nodes.push(paragraph);
    drawn++;
  }
  if (drawn === 0) return parse(source);
  parseRun(source.length);
  return createElement(Fragment, null, ...nodes);
}

/** Characters that begin inline syntax (or a tab, whose width rules differ), and GFM's autolink starts. */
const SYNTAX = /[\\`*_[\]<>&|~@\t\r\0]|www\.|:\/\//i;
/** A line that may open a list (`1.`, `2)`) rather than a paragraph. */
const ORDERED = /^\d+[.)]/;
/** Markup this draws: a single-backtick code span (no space at its ends), or `**strong**` between spaces. */
const MARKUP = /(?<!`)`([^`\n ](?:[^`\n]*[^`\n ])?)`(?!`)|(?<=^|[ \n])\*\*([\p{L}\p{N}](?:[^*\n]*[\p{L}\p{N}])?)\*\*(?=$|[ \n.,;:!?)])/gu;

/** A `<p>` for a block that is one plain paragraph (trailing blank lines included), else null. */
export function proseParagraph(block: string, key: string): ReactElement | null {
  // Its trailing spaces and blank lines are not part of the paragraph.
  let end = block.length;
  while (end > 0 && isSpace(block.charCodeAt(end - 1))) end--;
  const text = block.slice(0, end);
  if (!text || !startsProseLine(text, 0)) return null;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (before === 32 || before === 9 || !startsProseLine(text, at + 1)) return null;
  }
  const children: ReactNode[] = [];
  let strong = 0;
  let code = 0;
  let from = 0;
  for (const match of text.matchAll(MARKUP)) {
    if (!plain(text.slice(from, match.index))) return null;
    if (from < match.index) children.push(text.slice(from, match.index));
    if (match[1] !== undefined) children.push(createElement('code', { key: `code-${code++}` }, match[1]));
    else {
      if (!plain(match[2])) return null;
      children.push(createElement('strong', { key: `strong-${strong++}` }, match[2]));
    }
    from = match.index + match[0].length;
  }
  if (!plain(text.slice(from))) return null;
  if (from < text.length) children.push(text.slice(from));
  return createElement('p', { key }, ...children);
}

const plain = (text: string) => !SYNTAX.test(text);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10;

/** A line starting at `at` can only continue (or open) a paragraph: a letter, a digit not opening a list, or the markup drawn here. */
function startsProseLine(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 96) return true; // a code span (MARKUP checks it; a fence needs three backticks)
  if (c === 42) return text.charCodeAt(at + 1) === 42 && text.charCodeAt(at + 2) !== 42; // `**strong**`, checked by MARKUP
  if (c >= 48 && c <= 57) return !ORDERED.test(text.slice(at, at + 12));
  return /[\p{L}\p{N}]/u.test(text[at] ?? '');
}
