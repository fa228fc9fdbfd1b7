import { parse, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { subtokenize } from 'micromark-util-subtokenize';

/**
 * Incremental Markdown for streaming messages: a message is cut into top-level
 * blocks; finished blocks are handed to the renderer once, only the unfinished last block is
 * parsed again as text arrives. Same idea as paideia-ai/stream-markdown's "commit every block
 * but the newest"; streamdown and the AI SDK cookbook re-lex the whole message with `marked`
 * on every update (still quadratic, and marked's block boundaries are not remark's).
 *
 * Why committing is safe: CommonMark closes a top-level block for good once the next one has
 * begun, so in a prefix of the message every top-level block except the last is final. Two
 * things reach back across blocks: link reference definitions and footnotes; a message with
 * either is rendered whole (see `needsWholeDocument`).
 */

/** Counts the characters handed to a Markdown parser (the regression guard in markdownBlocks.test). */
export const parserWork = { chars: 0 };

/** Deeper than this (containers opened by one line, or a marker this far right) is flattened: parse time grows steeply with depth. */
const MAX_MARKERS = 16;
const MAX_MARKER_COLUMN = 48;

/**
 * Where a line's container prefix (`>`, list markers, indentation) gets pathological: the
 * index of the marker that would nest too deep, or -1. `"- ".repeat(1000)` and `">".repeat(10000)`
 * overflow the parser's and renderer's stacks.
 */
function offendingMarker(text: string, start: number, end: number): number {
  let column = 0;
  let markers = 0;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      column++;
      i++;
      continue;
    }
    if (c === 9) {
      column += 4 - (column % 4);
      i++;
      continue;
    }
    let next = i;
    if (c === 62 /* > */) next = i + 1;
    else if ((c === 45 || c === 43 || c === 42) /* - + * */ && (i + 1 === end || text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 9)) next = i + 1;
    else if (c >= 48 && c <= 57) {
      let j = i;
      while (j < end && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const d = text.charCodeAt(j);
      if ((d === 46 || d === 41) /* . ) */ && (j + 1 === end || text.charCodeAt(j + 1) === 32 || text.charCodeAt(j + 1) === 9)) next = j + 1;
      else return -1;
    } else return -1;
    markers++;
    if (markers > MAX_MARKERS || column > MAX_MARKER_COLUMN) return i;
    column += next - i;
    i = next;
  }
  return -1;
}

/** Calls `fix(at)` for each line whose container prefix is pathological. */
function eachOffender(text: string, fix: (at: number) => void): void {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const c = text.charCodeAt(start);
    // Only lines that start like a container prefix can nest (cheap check first).
    if (c === 32 || c === 9 || c === 62 || c === 45 || c === 43 || c === 42 || (c >= 48 && c <= 57)) {
      const at = offendingMarker(text, start, end);
      if (at !== -1) fix(at);
    }
    start = end + 1;
  }
}

/**
 * Pathological nesting flattened before any parser sees it: the marker that would open the
 * 17th container on a line (or one past column 48) is escaped, so the rest of the line is
 * plain text that still shows every character. Per line, so it commutes with cutting at lines.
 */
export function tameNesting(text: string): string {
  const cuts: number[] = [];
  eachOffender(text, (at) => cuts.push(at));
  if (cuts.length === 0) return text;
  let out = '';
  let from = 0;
  for (const at of cuts) {
    out += `${text.slice(from, at)}\\`;
    from = at;
  }
  return out + text.slice(from);
}

/** Same as tameNesting for block structure, but length-preserving (offsets stay valid). */
function neutralizeNesting(text: string): string {
  const cuts: number[] = [];
  eachOffender(text, (at) => cuts.push(at));
  if (cuts.length === 0) return text;
  let out = '';
  let from = 0;
  for (const at of cuts) {
    out += `${text.slice(from, at)}x`;
    from = at + 1;
  }
  return out + text.slice(from);
}

const GFM = [gfm()];
/** Top-level tokens that become a node of the tree react-markdown renders (others are whitespace). */
const NODE_TOKENS = new Set([
  'content',
  'listUnordered',
  'listOrdered',
  'codeFenced',
  'codeIndented',
  'atxHeading',
  'setextHeading',
  'blockQuote',
  'table',
  'thematicBreak',
  'htmlFlow',
  'definition',
  'gfmFootnoteDefinition',
]);

/**
 * Offsets of the lines on which the top-level blocks of `text` begin (the first is 0).
 * The same tokenizer and extensions react-markdown's remark-parse + remark-gfm use, stopped
 * after the block structure: CommonMark settles blocks before any inline content, so the text
 * inside paragraphs, headings and cells (and building a tree of it) is skipped, a fifth of the
 * cost of a full parse.
 */
export function blockStarts(text: string, shortcut = true): number[] {
  const scan = new BlockScan(text, shortcut);
  scan.advance(Infinity);
  return scan.starts();
}

/** Source handed to the tokenizer per step of a BlockScan (a few milliseconds of parsing). */
const SCAN_SLICE = 4 * 1024;

/**
 * `blockStarts` of one text, computed over as many calls as it takes: micromark's document
 * tokenizer is a state machine fed in chunks (its streaming API), so the parse resumes where the
 * last call stopped. A block that takes longer than a frame budget to parse used to be parsed
 * again from its start on every frame and never finished (issue 21: a 120 KB log dump never
 * rendered and the page spun a core); now every call moves the parse forward by at least a slice.
 * Lines are folded (`skeleton`, `neutralizeNesting`) as whole lines, then fed in slices.
 */
export class BlockScan {
  private readonly tokenizer = parse({ extensions: GFM }).document();
  private readonly decode = preprocess();
  /** Characters of `text` folded so far (always at a line end or the end of the text). */
  private read = 0;
  /** Folded source not fed to the tokenizer yet. */
  private source = '';
  private readonly byLine: boolean;

  constructor(
    readonly text: string,
    shortcut = true,
  ) {
    this.byLine = shortcut && !text.includes('\r');
  }

  /** Feeds the parser until the whole text is in or `deadline` (performance.now()) has passed; at least one slice. Whether it is done. */
  advance(deadline: number): boolean {
    do {
      if (!this.source) {
        if (this.read >= this.text.length) return true;
        const lineEnd = this.text.indexOf('\n', Math.min(this.text.length, this.read + SCAN_SLICE) - 1);
        const end = lineEnd === -1 ? this.text.length : lineEnd + 1;
        const lines = neutralizeNesting(this.text.slice(this.read, end));
        this.source = this.byLine ? skeleton(lines) : lines;
        this.read = end;
      }
      const piece = this.source.slice(0, SCAN_SLICE);
      this.source = this.source.slice(piece.length);
      parserWork.chars += piece.length;
      this.tokenizer.write(this.decode(piece, undefined, false));
    } while (performance.now() < deadline);
    return !this.source && this.read >= this.text.length;
  }

  /** The block starts, once `advance` returned true (ends the parse). */
  starts(): number[] {
    const text = this.text;
    const events = this.tokenizer.write(this.decode('', undefined, true));
    // micromark's postprocess, minus inline: text and string content stay unexpanded.
    for (;;) {
      for (const [, token] of events) if (token.contentType === 'text' || token.contentType === 'string') token.contentType = undefined;
      if (subtokenize(events)) break;
    }
    const lineStarts = this.byLine ? linesOf(text) : null;
    const starts = [0];
    let depth = 0;
    let first = true; // the first block starts at 0, whatever blank lines come before it
    for (const [kind, token] of events) {
      if (kind === 'exit') {
        depth--;
        continue;
      }
      if (depth++ !== 0 || !NODE_TOKENS.has(token.type)) continue;
      if (first) {
        first = false;
        continue;
      }
      const lineStart = lineStarts ? lineStarts[token.start.line - 1] : text.lastIndexOf('\n', token.start.offset - 1) + 1;
      if (lineStart > starts[starts.length - 1]) starts.push(lineStart);
    }
    return starts;
  }
}

/**
 * Some of the top-level block starts of `text`, found by a line scan instead of a parser, or
 * null where the scan cannot be sure (HTML at a line start, `\r`). It cuts only where a blank
 * line is followed by a line that begins, at column 0, with a letter (or `**x`, `` `x ``): such
 * a line can only open a paragraph, and after a blank line no container (list item, quote,
 * indented code, table) continues into an unindented paragraph line; the one thing that does
 * is a top-level fenced code block, tracked here with CommonMark's fence rules (a fence opened
 * at column 0 is always top-level; an indented one may be in a list item, so the scan gives up),
 * or an HTML block (types 1–5 span blank lines), for which it gives up too. A subset of `blockStarts`
 * (tested on every prefix), which is all cutting needs: fewer cuts only make blocks larger.
 * Prose is most of what agents stream, and micromark was a fifth of the page's streaming time.
 */
export function quickBlockStarts(text: string): number[] | null {
  if (text.includes('\r') || HTML_LINE.test(text)) return null;
  const starts = [0];
  let fence: string | null = null;
  let blank = false; // the line before was blank
  let content = false; // a block has begun (blank lines before the first block are part of it)
  let afterFence = false; // a top-level fence closed: the next non-blank line begins a block
  const cut = (at: number) => {
    if (content && at > starts[starts.length - 1]) starts.push(at);
  };
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const c = text.charCodeAt(start);
    const isBlank = start === end || ((c === 32 || c === 9) && /^[ \t]*$/.test(text.slice(start, end)));
    if (fence !== null) {
      if (c === 32 || c === 96 || c === 126) {
        const close = CLOSING_FENCE.exec(text.slice(start, end));
        if (close && close[1][0] === fence[0] && close[1].length >= fence.length) {
          fence = null;
          afterFence = true;
        }
      }
      blank = false;
    } else if (!isBlank) {
      if (afterFence) cut(start);
      afterFence = false;
      if (c === 32 || c === 96 || c === 126) {
        const open = OPENING_FENCE.exec(text.slice(start, end));
        if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
          // An indented fence may belong to a list item, whose end the scan cannot see: give up.
          if (c === 32) return null;
          // At column 0 it closes every container and opens a top-level block.
          cut(start);
          fence = open[1];
        } else if (blank && c === 96 && end - start > 1 && text.charCodeAt(start + 1) !== 96) cut(start);
      } else if (blank && paragraphOnly(text, start, end)) cut(start);
      content = true;
      blank = false;
    } else blank = true;
    if (fence !== null) content = true;
    start = end + 1;
  }
  return starts;
}

const HTML_LINE = /^ {0,3}</m;
const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Whether the line at `start` can only open a paragraph: a letter first, or emphasis (`**x`, `__x`). */
function paragraphOnly(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128) return true;
  if ((c === 42 || c === 95) && end - start > 2 && text.charCodeAt(start + 1) === c) {
    const d = text.charCodeAt(start + 2);
    return d !== c && d !== 32 && d !== 9;
  }
  return false;
}

/** Where each line of `text` begins (micromark's line n is index n - 1). */
function linesOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** A run of ASCII letters and spaces that begins and ends with a letter. */
const WORDS = /[A-Za-z][A-Za-z ]*[A-Za-z]/g;

/**
 * The text with the same block structure, line for line, but less to tokenize: in each line
 * without `<` or `[`, a run of letters and spaces between two letters becomes its first letter
 * ("stream block event" → "s"). Block structure never depends on such a run: markers,
 * indentation, fences, pipes, digits and punctuation are kept, a line stays blank or not, and a
 * run begins after whatever opened the line. Lines with `<` (HTML blocks, whose tag names and end
 * conditions are words) and `[` (definitions) are kept whole. Prose is mostly such runs, so
 * micromark reads about a quarter of it (the flood text: 4× faster cutting, issue 11);
 * `blockStarts` maps the cuts back by line number. The unit tests check that the cuts are the
 * same as on the text itself.
 */
export function skeleton(text: string): string {
  return text.replace(/^[^\n<[]+$/gm, (line) => line.replace(WORDS, firstLetter));
}
const firstLetter = (run: string) => run[0];

const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Reference definitions and footnotes change earlier blocks: such a message renders whole. A
 * definition holds `]:`, and looking for that first is a native substring search: the regex
 * alone took 36 ms over a 4 MB answer, one task, when its tab was switched back to (issue 11).
 */
export function needsWholeDocument(text: string): boolean {
  return text.includes(']:') && DEFINITION.test(text);
}

/**
 * `needsWholeDocument` for a message that grows: only the lines that arrived since the last
 * call are looked at (from the start of the last line seen, which may have been incomplete).
 */
export class WholeDocumentCheck {
  private text = '';
  private found = false;
  needs(text: string): boolean {
    const old = this.text;
    const edge = Math.min(64, old.length);
    const grows =
      text.length >= old.length && text.startsWith(old.slice(0, edge)) && text.slice(old.length - edge, old.length) === old.slice(old.length - edge);
    if (!grows) {
      this.found = false;
      this.text = '';
    }
    if (!this.found) this.found = needsWholeDocument(text.slice(this.text.lastIndexOf('\n') + 1));
    this.text = text;
    return this.found;
  }
}

/**
 * A copy of `text` that holds only its own characters. Blocks are slices of the message as it
 * was when they were cut, and V8 keeps a slice's whole parent alive: a group that is never
 * rendered (far from the viewport) kept a copy of the message per frame it was cut in (60 MB
 * of heap after a 4 MB stream, issue 11). Rendering used to flatten them by accident.
 */
function detached(text: string): string {
  return (' ' + text).slice(1);
}

/** An opening code fence on the first line of `text`: its marker, or null. */
function openingFence(text: string): string | null {
  const match = /^ {0,3}(`{3,}|~{3,})([^\n]*)/.exec(text);
  // A backtick fence's info string holds no backtick (else the line is a paragraph).
  if (!match || (match[1][0] === '`' && match[2].includes('`'))) return null;
  return match[1];
}

/** End (after its line) of the fence opened by `marker` on the first line, or -1 if still open. */
function fenceEnd(text: string, marker: string): number {
  const start = text.indexOf('\n') + 1;
  if (start === 0) return -1;
  // One native regex scan: a 5 MB fenced log cut line by line (a slice and a match per line)
  // was a 30 ms task of its own (issue 11). `m` also treats \r and U+2028 as line ends, so a
  // match counts only where it spans a whole \n-delimited line.
  const closing = new RegExp(CLOSING_FENCE.source, 'gm');
  closing.lastIndex = start;
  for (let match = closing.exec(text); match; match = closing.exec(text)) {
    const end = match.index + match[0].length;
    const wholeLine = (match.index === 0 || text.charCodeAt(match.index - 1) === 10) && (end === text.length || text.charCodeAt(end) === 10);
    if (wholeLine && match[1][0] === marker[0] && match[1].length >= marker.length) return end < text.length ? end + 1 : end;
  }
  return -1;
}

/** Committed blocks are packed into groups of about this many characters (one render each). */
const GROUP_CHARS = 2048;
/** A tail up to this size is parsed on every update; a larger one when it grew by a quarter. */
const SMALL_TAIL = 4096;
/** At most this much new text is cut into blocks per update (bounded work per frame). */
const WINDOW = 16 * 1024;
/** Cutting stops after this long and goes on at the next update (`behind`). */
const FRAME_BUDGET_MS = 8;
/**
 * A finished message still behind gets twice the budget on each next update, up to this: a
 * single 2 MB list takes seconds to parse, and at a frame's budget it stayed unreadable for
 * 500 frames; this way it is cut within about 50.
 */
const CATCH_UP_BUDGET_MS = 128;
/**
 * A finished message still behind after this many updates commits the rest of its text as one
 * group: a group is any run of whole blocks, so it renders the same, only in a larger piece. A
 * 2 MB list parses at 2–7 µs a character (10 s on a busy machine); nothing else bounds it.
 */
const CATCH_UP_UPDATES = 32;
/** Past a look that found no cut, the next one reaches to the end of the text, up to this far (no parse repeated in doubling steps). */
const FAR_LOOK = 4 * 1024 * 1024;
/** Up to this size a part without a quick cut is not handed to the parser (it is one block so far). */
const QUICK_ONLY = 8 * 1024;
/** A single block larger than this is shown as plain text (GiantBlock), never parsed. */
export const GIANT_BLOCK = 256 * 1024;

export interface Split {
  /** Finished blocks, packed into groups; each string is a run of whole blocks of the message. */
  groups: string[];
  /** The unfinished last block, as parsed (a prefix of what has arrived after the groups). */
  tail: string;
  /** Text after `tail` not parsed yet (a very large tail is re-parsed only as it grows). */
  pending: string;
  /** Where `pending` begins in the message. */
  pendingAt: number;
  /** Whether more text is waiting to be cut into blocks (call `update` again on the next frame). */
  behind: boolean;
}

/**
 * One message's block state, fed the whole text on each update (text only grows). Work per
 * update is bounded by the new text plus the last block, and a large last block is re-parsed
 * only when it grew by a quarter, so a message costs O(its length) in total. Cutting is spread
 * over updates (`behind`), and every update moves it forward, whatever the size of a block: the
 * parse of a part resumes where the last update left it (`BlockScan`), and past a part found to
 * hold no cut the next look reaches the end of the text. A finished message catches up with a
 * budget that doubles per update and, if still behind after CATCH_UP_UPDATES, commits the rest
 * whole (issue 21: a 120 KB log dump was never rendered, and its page re-rendered every frame).
 */
export class StreamingSplit {
  private text = '';
  private committedEnd = 0;
  private sealed: string[] = [];
  private open = '';
  private parsedTail = '';
  private catchingUp = false;
  /** How far ahead of `committedEnd` the next cut is looked for. */
  private window = WINDOW;
  /** The parse in progress: a prefix of the text after `committedEnd`, and whether it reached the end of the text when it began. */
  private scan: { parse: BlockScan; toEnd: boolean } | null = null;
  private budget = FRAME_BUDGET_MS;
  /** Updates of the finished message that ended behind, in a row. */
  private finalUpdates = 0;

  update(text: string, final: boolean): Split {
    if (!this.continues(text)) this.reset();
    this.text = text;
    // Also when final: a page that fell behind catches up over frames, not in one long task.
    this.budget = final && this.catchingUp ? Math.min(this.budget * 2, CATCH_UP_BUDGET_MS) : FRAME_BUDGET_MS;
    const deadline = performance.now() + this.budget;
    let behind = false;
    if (final && this.catchingUp && ++this.finalUpdates > CATCH_UP_UPDATES) this.commitRest(text);
    for (;;) {
      const rest = text.slice(this.committedEnd);
      const due = final || this.catchingUp || this.scan !== null || rest.length <= SMALL_TAIL || rest.length >= this.parsedTail.length * 1.25;
      if (!due) break;
      if (this.step(rest, final, deadline)) {
        this.catchingUp = false;
        this.finalUpdates = 0;
        break;
      }
      if (performance.now() >= deadline) {
        this.catchingUp = behind = true;
        break;
      }
    }
    const rest = text.slice(this.committedEnd);
    const groups = this.open ? [...this.sealed, this.open] : [...this.sealed];
    return { groups, tail: this.parsedTail, pending: rest.slice(this.parsedTail.length), pendingAt: this.committedEnd + this.parsedTail.length, behind };
  }

  /** Cuts blocks off the front of `rest`, or moves the parse that will: whether all the text there is has been looked at. */
  private step(rest: string, final: boolean, deadline: number): boolean {
    if (!this.scan) {
      const fence = openingFence(rest);
      const closed = fence ? fenceEnd(rest, fence) : -1;
      if (fence && (closed > GIANT_BLOCK || (closed === -1 && rest.length > GIANT_BLOCK))) {
        // A giant fenced block: its end is found by a line scan, never by the parser.
        const commitTo = closed === -1 ? (final ? rest.length : 0) : closed;
        if (commitTo > 0) this.commit(rest.slice(0, commitTo), true);
        this.committedEnd += commitTo;
        this.parsedTail = rest.slice(commitTo);
        return closed === -1 || closed === rest.length;
      }
      const cut = rest.length > this.window ? rest.lastIndexOf('\n', this.window) + 1 : rest.length;
      const toEnd = cut <= 0 || cut >= rest.length;
      const part = toEnd ? rest : rest.slice(0, cut);
      // The line scan when it is sure and finds cuts; the parser where it is not, or where a long
      // stretch has no paragraph after a blank line (a long list or table) and finer cuts help.
      const quick = quickBlockStarts(part);
      if (quick && (quick.length > 1 || part.length <= QUICK_ONLY)) return this.cutAt(rest, part, quick, toEnd, final);
      this.scan = { parse: new BlockScan(part), toEnd };
    }
    const { parse, toEnd } = this.scan;
    if (!parse.advance(deadline)) return false;
    this.scan = null;
    return this.cutAt(rest, parse.text, parse.starts(), toEnd, final);
  }

  /**
   * Commits the blocks of `part` (a prefix of `rest`) but its last, or all of them when the
   * message is finished and `part` is all of it. Whether all the text there is has been looked at.
   */
  private cutAt(rest: string, part: string, starts: number[], toEnd: boolean, final: boolean): boolean {
    const all = final && toEnd && part.length === rest.length;
    const commitTo = all ? rest.length : starts.length >= 2 ? starts[starts.length - 1] : 0;
    let from = 0;
    for (const at of [...starts.slice(1), rest.length]) {
      if (at > commitTo) break;
      this.commit(rest.slice(from, at), false);
      from = at;
    }
    this.committedEnd += commitTo;
    if (commitTo > 0) this.window = WINDOW;
    if (all) {
      this.parsedTail = '';
      return true;
    }
    if (toEnd && !final) {
      // The last block as parsed (what arrived while it was parsed follows it as pending text).
      this.parsedTail = part.slice(commitTo);
      // The next look (once the text grew by a quarter) starts small again: a block may begin in what arrives.
      this.window = WINDOW;
      return true;
    }
    // A look that did not reach the end: more to cut. Without a cut, no block starts in `part`
    // (text only grows): the first block is a large one, and the next look reaches the end.
    if (commitTo > 0) this.parsedTail = '';
    else this.window = Math.max(this.window * 2, Math.min(rest.length + 1, FAR_LOOK));
    return false;
  }

  /** Ends cutting: all the text after the committed blocks becomes one group. */
  private commitRest(text: string): void {
    let rest = text.slice(this.committedEnd);
    // A large group that begins with a fence would be taken for a giant fence (isGiantFence):
    // the fences at its start are groups of their own.
    for (let fence = openingFence(rest); fence && rest.length > GIANT_BLOCK; fence = openingFence(rest)) {
      const end = fenceEnd(rest, fence);
      if (end <= 0) break;
      this.commit(rest.slice(0, end), false);
      rest = rest.slice(end);
    }
    if (rest) this.commit(detached(rest), true);
    this.committedEnd = text.length;
    this.parsedTail = '';
    this.scan = null;
    this.catchingUp = false;
  }

  private commit(block: string, alone: boolean): void {
    if (alone) {
      if (this.open) this.sealed.push(detached(this.open));
      this.sealed.push(block);
      this.open = '';
      return;
    }
    this.open += block;
    if (this.open.length >= GROUP_CHARS) {
      this.sealed.push(detached(this.open));
      this.open = '';
    }
  }

  /** Text only grows while a message streams; anything else starts over (cheap edge check). */
  private continues(text: string): boolean {
    const old = this.text;
    if (text.length < old.length) return false;
    const edge = Math.min(64, old.length);
    return text.startsWith(old.slice(0, edge)) && text.slice(old.length - edge, old.length) === old.slice(old.length - edge);
  }

  private reset(): void {
    this.text = '';
    this.committedEnd = 0;
    this.sealed = [];
    this.open = '';
    this.parsedTail = '';
    this.catchingUp = false;
    this.window = WINDOW;
    this.scan = null;
    this.budget = FRAME_BUDGET_MS;
    this.finalUpdates = 0;
  }
}
