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

function estimateHeight(text: string, perLine = 100): number {
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
 * A group of blocks rendered only near the viewport; elsewhere a box of the same height.
 * `eager`: rendered whatever the viewport (the newest groups of a stream); one mounted eager
 * stays rendered until it is seen to leave the viewport.
 */
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
  const [ref, near, height] = useNearViewport<HTMLDivElement>(eager, tight ? TIGHT_MARGIN : MARGIN);
  const shown = near || eager;
  return (
    <div ref={ref} className={className} style={shown ? undefined : { height: height.current ?? estimateHeight(text) }}>
      {shown ? render(text) : null}
    </div>
  );
});

/**
 * A page of groups while it is not near the viewport: one box of the page's measured (or
 * estimated) height instead of a placeholder and an observer per group. A 4 MB answer has
 * about 2,000 groups; with one of each per group the browser measured 2,000 observed boxes and
 * laid out 2,000 placeholders on every frame of the stream (a tenth of the page's time at
 * 100,000 chunks, growing with the message: issue 11's trace).
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
  const [ref, near, height] = useNearViewport<HTMLDivElement>(eager, tight ? TIGHT_MARGIN : MARGIN);
  const shown = near || eager;
  const estimate = useMemo(() => (shown ? 0 : groups.reduce((sum, group) => sum + estimateHeight(group), 0)), [groups, shown]);
  return (
    <div ref={ref} className="markdown-page" style={shown ? undefined : { height: height.current ?? estimate }}>
      {shown ? children : null}
    </div>
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
