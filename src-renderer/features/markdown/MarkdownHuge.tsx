import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { GIANT_BLOCK } from './markdownBlocks';
import { logged } from '../../log';

/**
 * Huge messages: a 5 MB answer must not become one 5 MB DOM subtree, nor one line
 * millions of pixels wide. Groups of blocks far from the viewport are placeholders of their
 * measured (or estimated) height; a giant code block is plain, wrapped text in pieces that are
 * rendered only near the viewport, never highlighted as a whole.
 */

/** Rendered ahead of the viewport, in pixels. */
const MARGIN = '1500px 0px';
/**
 * While a message streams at wire speed its groups pass the viewport in a frame or two: each
 * one rendered ahead of the viewport was rendered for nobody (react-markdown builds about a
 * microsecond per character, the page's largest cost in issue 11's profile). Only what is in
 * the viewport is rendered then; once the message is finished, the margin comes back.
 */
const TIGHT_MARGIN = '0px';
const LINE_PX = 22;
const CHARS_PER_LINE = 100;

/** The height of `chars` characters of text without reading it (line breaks not counted). */
export function roughHeight(chars: number): number {
  return Math.ceil(chars / CHARS_PER_LINE) * LINE_PX;
}

function estimateHeight(text: string, perLine = CHARS_PER_LINE): number {
  let lines = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lines += Math.max(1, Math.ceil((end - start) / perLine));
    start = end + 1;
  }
  return lines * LINE_PX;
}

/**
 * Whether `element` is within MARGIN of its scrolling transcript, and its height when it last
 * left (read from the observer's record, so measuring never forces a layout of its own).
 */
function useNearViewport<T extends HTMLElement>(initially: boolean, margin: string): [React.RefObject<T | null>, boolean, React.RefObject<number | null>] {
  const ref = useRef<T>(null);
  const height = useRef<number | null>(null);
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const root = element.closest('.transcript');
    const observer = new IntersectionObserver(
      (records) => {
        const record = records[records.length - 1];
        if (!record.isIntersecting && record.boundingClientRect.height > 0) height.current = record.boundingClientRect.height;
        setNear(record.isIntersecting);
      },
      { root, rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin]);
  return [ref, near, height];
}

/**
 * Rendered only near the viewport (`tight`: only in it); elsewhere a box of its measured height,
 * or of `estimate()` before it was ever measured. `eager`: rendered whatever the viewport (the
 * newest part of a stream); one mounted eager stays rendered until it is seen to leave.
 */
function LazyBox({
  className,
  eager,
  tight,
  estimate,
  children,
}: {
  className: string;
  eager: boolean;
  tight: boolean;
  estimate: () => number;
  children: React.ReactNode;
}) {
  const [ref, near, height] = useNearViewport<HTMLDivElement>(eager, tight ? TIGHT_MARGIN : MARGIN);
  const shown = near || eager;
  return (
    <div ref={ref} className={className} style={shown ? undefined : { height: height.current ?? estimate() }}>
      {shown ? children : null}
    </div>
  );
}

/** A group of blocks (or a piece of text) in a LazyBox. */
export const LazyGroup = memo(function LazyGroup({
  text,
  render,
  className = 'markdown-group',
  eager = false,
  tight = false,
}: {
  text: string;
  render: (text: string) => React.ReactNode;
  className?: string;
  eager?: boolean;
  tight?: boolean;
}) {
  return (
    <LazyBox className={className} eager={eager} tight={tight} estimate={() => estimateHeight(text)}>
      {render(text)}
    </LazyBox>
  );
});

/**
 * A page of groups in one LazyBox: far from the viewport it is one box of the page's height,
 * not a placeholder and an observer per group. A 4 MB answer has about 2,000 groups; with one
 * of each per group the browser measured 2,000 observed boxes and laid out 2,000 placeholders on
 * every frame of the stream (a tenth of the page's time at 100,000 chunks, growing with the
 * message: issue 11's trace).
 */
export const LazyPage = memo(function LazyPage({
  groups,
  eager,
  tight,
  children,
}: {
  groups: string[];
  eager: boolean;
  tight: boolean;
  children: React.ReactNode;
}) {
  return (
    <LazyBox className="markdown-page" eager={eager} tight={tight} estimate={() => groups.reduce((sum, group) => sum + estimateHeight(group), 0)}>
      {children}
    </LazyBox>
  );
});

/** Whether a group is one giant fenced code block (committed alone by StreamingSplit). */
export function isGiantFence(text: string): boolean {
  return text.length > GIANT_BLOCK && /^ {0,3}(`{3,}|~{3,})/.test(text);
}

const PIECE = 16 * 1024;
const renderPiece = (text: string) => <pre className="giant-piece">{text}</pre>;

/** A giant fenced block as plain, wrapped text, in pieces rendered near the viewport. */
export function GiantBlock({ text }: { text: string }) {
  const firstBreak = text.indexOf('\n');
  const info = text
    .slice(0, firstBreak === -1 ? text.length : firstBreak)
    .replace(/^ {0,3}(`{3,}|~{3,})/, '')
    .trim();
  const body = firstBreak === -1 ? '' : text.slice(firstBreak + 1).replace(/\n? {0,3}(`{3,}|~{3,})[ \t]*\n?$/, '');
  const pieces = useMemo(() => {
    const out: string[] = [];
    let at = 0;
    while (at < body.length) {
      let end = Math.min(body.length, at + PIECE);
      if (end < body.length) {
        const nl = body.lastIndexOf('\n', end);
        if (nl > at) end = nl + 1;
      }
      out.push(body.slice(at, end));
      at = end;
    }
    return out;
  }, [body]);
  return (
    <div className="code-block giant-block">
      <div className="code-toolbar">
        <span className="code-lang">{info || 'text'}</span>
        <span className="muted">{(body.length / 1024 / 1024).toFixed(1)} MB, shown as plain text</span>
        <button
          type="button"
          className="copy"
          aria-label="Copy code"
          onClick={() => void navigator.clipboard?.writeText(body).catch(logged('Copying a code block'))}
        >
          Copy
        </button>
      </div>
      {pieces.map((piece, i) => (
        <LazyGroup key={i} text={piece} render={renderPiece} />
      ))}
    </div>
  );
}
