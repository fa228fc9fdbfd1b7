import { memo, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { Icon } from '../../ui/Icon';

/**
 * Agent Markdown: GFM, highlighted code with a copy button. Raw HTML is never rendered: it is
 * shown as the literal text the agent wrote. Links open in a new window, which Electron's
 * main process hands to the OS browser (http and https only).
 *
 * While a message streams, a code fence that is open so far is closed for rendering, so the
 * half-finished block shows as code at once instead of flipping from text to code when the
 * closing fence arrives.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const tree = useMemo(() => (streaming ? renderMarkdown(closeOpenFence(text)) : cachedMarkdown(text)), [text, streaming]);
  return <div className="markdown">{tree}</div>;
});

/** react-markdown's `Markdown` is a pure function (parse → highlight → React elements). */
function renderMarkdown(source: string): ReactElement {
  return ReactMarkdown({ children: source, remarkPlugins: REMARK, rehypePlugins: REHYPE, components });
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
const REHYPE: NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']> = [[rehypeHighlight, { detect: false, ignoreMissing: true }]];

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
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener" title={href}>
      {children}
    </a>
  ),
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
  const [copied, setCopied] = useState(false);
  const language = languageOf(children);
  return (
    <div className="code-block">
      <div className="code-toolbar">
        <span className="code-lang">{language ?? 'text'}</span>
        <button
          type="button"
          className="copy"
          aria-label="Copy code"
          onClick={() => {
            void navigator.clipboard?.writeText(textOf(children)).then(
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
      </div>
      <pre>{children}</pre>
    </div>
  );
}
