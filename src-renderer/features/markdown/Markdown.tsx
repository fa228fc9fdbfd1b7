import { Component, Fragment, memo, useEffect, useMemo, useReducer, useRef, useState, type ErrorInfo, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { Icon } from '../../ui/Icon';
import { webLinkTarget } from '../../ui/webLink';
import { GiantBlock, isGiantFence, LazyGroup, LazyPage, roughHeight } from './MarkdownHuge';
import { renderProse } from './proseParagraphs';
import { blockStarts, parserWork, quickBlockStarts, StreamingSplit, tameNesting, WholeDocumentCheck, type Split } from './markdownBlocks';

/**
 * Agent Markdown: GFM, highlighted code with a copy button. HTML in it is never rendered: it is
 * shown as the literal text the agent wrote. Links open in a new window, which Electron's
 * main process hands to the OS browser: only http and https links are links; any other (an
 * unsafe address that was removed, a relative path) is shown as plain text (`webLinkTarget`).
 *
 * While a message streams it is rendered by blocks (markdownBlocks.ts): finished blocks once,
 * the last one on every update, so a long answer costs O(its length), not O(length²). A code
 * fence that is open so far is closed for rendering, so the half-finished block shows as code
 * at once instead of flipping from text to code when the closing fence arrives. A finished
 * message up to WHOLE_LIMIT is rendered in one piece (the same output, one parse); a larger
 * one stays in blocks, and over HUGE_MESSAGE its blocks are only rendered near the viewport.
 *
 * Pathological nesting is flattened before any parser sees it, and a rendering error shows
 * the raw text in place of the message instead of taking the whole window down.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return (
    <MarkdownBoundary text={text}>
      <MarkdownBody text={text} streaming={streaming} />
    </MarkdownBoundary>
  );
});

const WHOLE_LIMIT = 32 * 1024;
/**
 * Over this, a finished message keeps rendering only the groups near the viewport. Rendering a
 * finished 200 KB answer in full when its stream ended was one task of 110–240 ms, most of it
 * the browser's layout of all its text (issue 11's trace: about 0.6 ms per KB on our machines);
 * 64 KB is about a frame budget's worth.
 */
const HUGE_MESSAGE = 64 * 1024;

function MarkdownBody({ text, streaming }: { text: string; streaming: boolean }) {
  const splitter = useRef<StreamingSplit | null>(null);
  const definitions = useRef<WholeDocumentCheck | null>(null);
  definitions.current ??= new WholeDocumentCheck();
  const whole = (!streaming && text.length <= WHOLE_LIMIT && !splitter.current) || definitions.current.needs(text);
  // `tick` re-runs the split on the next frame when it is behind (more blocks to cut).
  const [tick, poke] = useReducer((n: number) => n + 1, 0);
  const split = useMemo(() => {
    if (whole) return null;
    splitter.current ??= new StreamingSplit();
    return splitter.current.update(text, !streaming);
  }, [text, streaming, whole, tick]);
  useEffect(() => {
    if (!split?.behind) return;
    const frame = requestAnimationFrame(poke);
    return () => cancelAnimationFrame(frame);
  });
  if (whole || !split) {
    const source = tameNesting(text);
    return <div className="markdown">{streaming ? renderMarkdown(closeOpenFence(source)) : cachedMarkdown(source)}</div>;
  }
  return <SplitView split={split} huge={text.length > HUGE_MESSAGE} streaming={streaming} />;
}

/**
 * A message in blocks: finished groups (memoized), the streaming tail, text not parsed yet.
 * While it streams, and always when it is huge, a finished group is rendered only near the
 * viewport: at wire speed most groups scroll past faster than they could be rendered, and
 * rendering every one was the page's largest cost (issue 11). The newest group is rendered at
 * once (the person is watching it) and stays rendered until it leaves the viewport, so a group
 * is not torn down and rebuilt as newer ones arrive. A finished message
 * that is not huge renders every group (the same output as rendering it whole).
 */
export function SplitView({ split, huge, streaming = false }: { split: Split; huge: boolean; streaming?: boolean }) {
  // Rendering ahead of the viewport (for scrolling back) resumes once the page is idle after the
  // stream: the answer's end is on screen first, the groups above it follow in spare time.
  const ahead = useIdleAfter(!streaming);
  return (
    <div className={`markdown${huge ? ' markdown-huge' : ''}`}>
      {pagesOf(split.groups, huge || streaming, !ahead).map((page) => (
        <GroupPage key={page.from} {...page} />
      ))}
      {split.tail && (
        <>
          {split.groups.length > 0 && '\n'}
          <Group text={split.tail} streaming />
        </>
      )}
      {split.pending && <PendingText text={split.pending} at={split.pendingAt} />}
    </div>
  );
}

/** False until `ready` has held through an idle moment of the page (at once where there are no frames). */
function useIdleAfter(ready: boolean): boolean {
  const [idle, setIdle] = useState(ready && typeof requestAnimationFrame !== 'function');
  useEffect(() => {
    if (!ready) {
      setIdle(false);
      return;
    }
    if (typeof requestIdleCallback !== 'function') {
      setIdle(true);
      return;
    }
    const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }, [ready]);
  return ready && idle;
}

const renderGroup = (text: string) => <Group text={text} />;

/** Groups per page: a page whose groups are unchanged is skipped by React as a whole. */
const PAGE = 32;

interface PageProps {
  groups: string[];
  from: number;
  lazy: boolean;
  /** Rendered only in the viewport itself (while streaming), not ahead of it. */
  tight: boolean;
  /** Index of the message's newest group if it is on this page, else -1. */
  newest: number;
}

/** The groups of a message cut into pages (GroupPage's props). */
export function pagesOf(groups: string[], lazy: boolean, tight = false): PageProps[] {
  const last = groups.length - 1;
  const pages: PageProps[] = [];
  for (let from = 0; from <= last; from += PAGE)
    pages.push({ groups: groups.slice(from, from + PAGE), from, lazy, tight, newest: last < from + PAGE ? last : -1 });
  return pages;
}

/** Whether a page renders the same as before (its groups are the same strings): React skips it. */
export function samePage(a: PageProps, b: PageProps): boolean {
  return (
    a.from === b.from &&
    a.lazy === b.lazy &&
    a.tight === b.tight &&
    a.newest === b.newest &&
    a.groups.length === b.groups.length &&
    a.groups.every((group, i) => group === b.groups[i])
  );
}

/**
 * A run of PAGE groups. Every update of a streaming message used to hand React all of its
 * groups (thousands in a 4 MB answer: O(message) per frame); a page of finished groups keeps
 * the same strings, so all but the newest page are skipped after comparing PAGE references.
 */
const GroupPage = memo(function GroupPage({ groups, from, lazy, tight, newest }: PageProps) {
  const body = groups.map((group, j) => (
    <Fragment key={from + j}>
      {from + j > 0 && '\n'}
      {lazy ? <LazyGroup text={group} render={renderGroup} eager={from + j === newest} tight={tight} /> : <Group text={group} />}
    </Fragment>
  ));
  if (!lazy) return body;
  // Far from the viewport the page is one box, its groups (and their observers) unmounted.
  return (
    <LazyPage groups={groups} eager={newest !== -1} tight={tight}>
      {body}
    </LazyPage>
  );
}, samePage);

const PENDING_PIECE = 4096;
/** The newest pieces of pending text are always shown; earlier ones only near the viewport. */
const PENDING_SHOWN = 2;

/**
 * Text not cut into blocks yet, shown plain. In pieces that end at the first line break after
 * each multiple of PENDING_PIECE in the message, so a piece keeps its text (and the browser its
 * layout) while more arrives: one growing text node would be laid out again in full every frame.
 * A page behind a fast stream can hold hundreds of KB of pending text, and laying it all out
 * took 100–200 ms a frame (issue 11's profile): all but the newest pieces are placeholders of
 * their estimated height unless near the viewport, as the groups of a huge message are.
 */
function PendingText({ text, at }: { text: string; at: number }) {
  // Only the newest pieces are laid out as text; what comes before them is one box of its
  // estimated height. A view mounted on a long stream (a tab switched back to) can have
  // megabytes not cut yet: a piece and an observer per 4 KB took the switch seconds.
  const shownFrom = text.length > (PENDING_SHOWN + 1) * PENDING_PIECE ? pieceStart(text, at, text.length - (PENDING_SHOWN + 1) * PENDING_PIECE) : 0;
  const starts: number[] = [];
  for (let from = shownFrom; from < text.length;) {
    starts.push(from);
    const boundary = (Math.floor((at + from) / PENDING_PIECE) + 1) * PENDING_PIECE - at;
    const lineEnd = text.indexOf('\n', Math.max(from, boundary - 1));
    from = lineEnd === -1 ? text.length : lineEnd + 1;
  }
  return (
    <>
      {shownFrom > 0 && <div key="before" className="markdown-pending" style={{ height: roughHeight(shownFrom) }} />}
      {starts.map((from, i) => {
        const piece = text.slice(from, starts[i + 1] ?? text.length);
        return i < starts.length - PENDING_SHOWN ? (
          <LazyGroup key={at + from} text={piece} render={renderPending} className="markdown-pending" tight />
        ) : (
          <div key={at + from} className="markdown-pending">
            {piece}
          </div>
        );
      })}
    </>
  );
}

/** Where the piece holding offset `near` of the pending text begins (a line start after a PENDING_PIECE boundary). */
function pieceStart(text: string, at: number, near: number): number {
  const boundary = Math.floor((at + near) / PENDING_PIECE) * PENDING_PIECE - at;
  if (boundary <= 0) return 0;
  const lineEnd = text.indexOf('\n', boundary - 1);
  return lineEnd === -1 ? 0 : lineEnd + 1;
}

const renderPending = (text: string) => text;

/**
 * A run of whole blocks (or the streaming tail), rendered once per distinct text. Rendering
 * Markdown is sliced across frames: once a task has spent SLICE_MS on it, a group not rendered
 * yet shows its text plain and is rendered on a later frame, so a burst of text (a page that
 * fell behind, a long message opened) never holds the page longer than about a frame. The
 * streaming tail is always rendered: it is what the person is watching.
 */
export const Group = memo(function Group({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const [, retry] = useReducer((n: number) => n + 1, 0);
  const giant = isGiantFence(text);
  const source = giant ? '' : tameNesting(text);
  const deferred = !giant && !streaming && slice.over() && !cache.has(source);
  useEffect(() => {
    if (!deferred) return;
    const frame = requestAnimationFrame(retry);
    return () => cancelAnimationFrame(frame);
  });
  if (giant) return <GiantBlock text={text} />;
  if (deferred) return <div className="markdown-deferred">{text}</div>;
  const started = performance.now();
  const element = streaming ? renderMarkdown(closeOpenFence(source)) : cachedMarkdown(source);
  slice.spend(performance.now() - started);
  return element;
});

/** Markdown rendering time spent in the current task; slicing only where frames exist (not in server rendering). */
const SLICE_MS = 8;
const slice = {
  spent: 0,
  resetting: false,
  over(): boolean {
    return typeof requestAnimationFrame === 'function' && this.spent >= SLICE_MS;
  },
  spend(ms: number): void {
    this.spent += ms;
    if (this.resetting || typeof MessageChannel === 'undefined') return;
    this.resetting = true;
    // A message to ourselves runs after the current task (React's render and commit) ends.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      this.spent = 0;
      this.resetting = false;
    };
    channel.port2.postMessage(null);
  },
};

/** Markdown as React elements: plain paragraphs drawn directly (proseParagraphs.ts), the rest parsed. */
export function renderMarkdown(source: string): ReactElement {
  return renderProse(source, parseMarkdown);
}

/** react-markdown's `Markdown` is a pure function (parse → highlight → React elements). */
export function parseMarkdown(source: string): ReactElement {
  parserWork.chars += source.length;
  return ReactMarkdown({ children: source, remarkPlugins: REMARK, rehypePlugins: LANGUAGE_FENCE.test(source) ? REHYPE : NO_REHYPE, components });
}

/**
 * Finished messages keep their rendered element tree, so a row that the virtualized
 * transcript unmounts and mounts again while scrolling is not parsed and highlighted again.
 */
const cache = new Map<string, ReactElement>();
const CACHE_SIZE = 500;
function cachedMarkdown(source: string): ReactElement {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const tree = renderMarkdown(source);
  cache.set(source, tree);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return tree;
}

/**
 * Renders a finished message's Markdown into the cache without showing it, so its row mounts
 * without parsing (rows about to scroll into view, chat/markdownAhead.ts). True if it parsed;
 * false if it was cached already or is too long to render whole (those render in blocks).
 */
export function prepareMarkdown(text: string): boolean {
  if (text.length > WHOLE_LIMIT) return false;
  const source = tameNesting(text);
  if (cache.has(source)) return false;
  try {
    cachedMarkdown(source);
  } catch {
    return false; // the row shows the error (and the raw text) when it mounts
  }
  return true;
}

/** Every construct the first answers meet, for `warmMarkdown`. */
const WARM_UP =
  '# Heading\n\nPlain prose with **strong** words and `code` spans.\n\nProse with **bold**, *emphasis*, `code`, ~~strike~~, a [link](https://example.com) and www.example.com.\n\n' +
  '- item\n  - nested\n1. ordered\n\n> quote\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n' +
  '```ts\nconst x: number = 1; // comment\n```\n\n```json\n{"a": [1, "b"]}\n```\n\n```bash\necho "hi" && ls -la\n```\n\n```python\ndef f(x):\n    return x\n```\n';

/**
 * Runs the whole Markdown path once on a sample, when the window is idle after it opens. The
 * first use of the parser, the GFM extensions and each highlight.js grammar compiles their
 * code: 50–80 ms of the first streamed answer's first frames went there (issue 11's trace: the
 * only page tasks over 50 ms of a 100,000-chunk stream were its first two).
 */
export function warmMarkdown(): void {
  const run = () => {
    const counted = parserWork.chars; // the regression guard counts messages, not this
    try {
      renderMarkdown(WARM_UP);
      quickBlockStarts(WARM_UP);
      blockStarts(WARM_UP);
      parserWork.chars = counted;
    } catch (error) {
      console.warn('Warming up the Markdown renderer failed (the first answer renders a little slower)', error);
    }
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

/** A message that fails to render shows its raw text (and a Copy button) in its place. */
class MarkdownBoundary extends Component<{ text: string; children: ReactNode }, { failed: string | null }> {
  override state = { failed: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.warn('Markdown rendering failed; showing the raw text', error, info.componentStack);
  }
  override componentDidUpdate(previous: { text: string }) {
    // New text (a streamed chunk) gets a fresh try.
    if (this.state.failed !== null && previous.text !== this.props.text) this.setState({ failed: null });
  }
  override render() {
    if (this.state.failed === null) return this.props.children;
    return <RawText text={this.props.text} />;
  }
}

function RawText({ text }: { text: string }) {
  return (
    <div className="markdown-raw" role="group" aria-label="Message shown as plain text">
      <div className="markdown-raw-head">
        <span className="muted">This message could not be formatted; here is its text.</span>
        <CopyButton className="link-button" text={() => text} />
      </div>
      <pre className="markdown-raw-text">{text}</pre>
    </div>
  );
}

/** Copies the text to the clipboard and says so for a moment; a refused clipboard changes nothing. */
function CopyButton({ text, className, label }: { text: () => string; className: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      onClick={() => {
        void navigator.clipboard?.writeText(text()).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          () => {},
        );
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} /> {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** remark plugin: HTML in Markdown becomes plain text (shown, never interpreted). */
function remarkHtmlAsText() {
  return (tree: unknown) => {
    const visit = (node: { type?: string; children?: unknown[] }) => {
      if (node.type === 'html') node.type = 'text';
      if (Array.isArray(node.children)) for (const child of node.children) visit(child as { type?: string; children?: unknown[] });
    };
    visit(tree as { type?: string; children?: unknown[] });
  };
}

const REMARK = [remarkGfm, remarkHtmlAsText];
/**
 * rehype-highlight registers every common grammar with a new lowlight instance each time its
 * plugin is attached, and react-markdown attaches plugins on every render: one highlighter,
 * made once, is handed to every render instead (its transform keeps no per-document state).
 */
let highlight: ReturnType<typeof rehypeHighlight> | undefined;
const REHYPE: NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']> = [() => (highlight ??= rehypeHighlight({ detect: false }))];
const NO_REHYPE: typeof REHYPE = [];
/**
 * A fenced code block with a language: the only thing the highlighter (`detect: false`) touches.
 * Without one it is not attached, and it is made at its first use, not when this chunk loads:
 * registering its grammars took 50–80 ms before a session's first rows could be drawn (issue 23,
 * round 4: open).
 */
const LANGUAGE_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*[^\s`]/m;

/** Closes a fenced code block left open by a message that is still streaming. */
export function closeOpenFence(text: string): string {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!match) continue;
    const fence = match[1];
    if (open === null) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
  }
  if (open === null) return text;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${open}`;
}

const components: Components = {
  a: ({ href, children }) => {
    const target = webLinkTarget(href);
    // A link whose address was removed (unsafe) or cannot be opened is its text, and does nothing.
    if (!target)
      return (
        <span className="link-inert" title={href ? `Not opened (not a web address): ${href}` : 'Link removed: its address was unsafe'}>
          {children}
        </span>
      );
    return (
      <a href={target} target="_blank" rel="noreferrer noopener" title={target}>
        {children}
      </a>
    );
  },
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
};

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node as { props: { children?: ReactNode } }).props.children);
  return '';
}

function languageOf(node: ReactNode): string | null {
  const child = Array.isArray(node) ? node[0] : node;
  const className = child && typeof child === 'object' && 'props' in child ? String((child as { props: { className?: string } }).props.className ?? '') : '';
  return /language-([\w+-]+)/.exec(className)?.[1] ?? null;
}

function CodeBlock({ children }: { children: ReactNode }) {
  const language = languageOf(children);
  return (
    <div className="code-block">
      <div className="code-toolbar">
        <span className="code-lang">{language ?? 'text'}</span>
        <CopyButton className="copy" label="Copy code" text={() => textOf(children)} />
      </div>
      <pre>{children}</pre>
    </div>
  );
}
