import { memo } from 'react';
import type { ContentBlock } from '../../../src-shared/session/events';
import { useAppStore } from '../../store/appStore';
import { Markdown } from './Markdown';
import { ToolCallCard } from '../tool-calls/ToolCallCard';
import { UnknownBox } from '../../ui/UnknownBox';

/** One transcript row; selects only its own entry so a streamed chunk re-renders one row. */
export const EntryView = memo(function EntryView({ sessionId, index }: { sessionId: string; index: number }) {
  const entry = useAppStore((s) => s.sessions[sessionId]?.entries[index]);
  if (!entry) return null;
  switch (entry.kind) {
    case 'user':
      return (
        <article className="entry user" aria-label="You">
          {entry.content.map((block, i) => (
            <ContentView key={i} block={block} />
          ))}
        </article>
      );
    case 'agent':
      return (
        <article className="entry agent" aria-label="Agent">
          {entry.text && <Markdown text={entry.text} />}
          {entry.blocks.map((block, i) => (
            <ContentView key={i} block={block} />
          ))}
        </article>
      );
    case 'thought':
      return (
        <details className="entry thought">
          <summary>Thought</summary>
          <p>{entry.text}</p>
        </details>
      );
    case 'tool':
      return <ToolCallCard sessionId={sessionId} entry={entry} />;
    case 'plan':
      return (
        <section className="entry plan" aria-label="Plan">
          <h3>Plan</h3>
          <ol>
            {entry.entries.map((item, i) => (
              <li key={i} className={`plan-${item.status}`}>
                <span className="plan-status">{item.status.replace('_', ' ')}</span> {item.content}{' '}
                <span className="muted small">({item.priority})</span>
              </li>
            ))}
          </ol>
        </section>
      );
    case 'stop':
      return (
        <div className={`entry stop${entry.error ? ' error' : ''}`} role={entry.error ? 'alert' : undefined}>
          {stopLabel(entry.stopReason)}
          {entry.error ? `: ${entry.error}` : ''}
        </div>
      );
    case 'notice':
      return (
        <div className={`entry notice notice-${entry.level}`} role={entry.level === 'error' ? 'alert' : 'status'}>
          <p>{entry.message}</p>
          {entry.detail && entry.detail.length > 0 && <pre className="stderr">{entry.detail.join('\n')}</pre>}
        </div>
      );
    case 'file':
      return (
        <div className="entry file">
          Wrote <code>{entry.path}</code>
        </div>
      );
    default:
      return <UnknownBox label={(entry as { label?: string }).label ?? 'unknown entry'} raw={entry} />;
  }
});

const STOP_LABELS: Record<string, string> = {
  end_turn: 'Turn ended',
  cancelled: 'Stopped',
  max_tokens: 'Stopped: the response hit the token limit',
  max_turn_requests: 'Stopped: too many requests in one turn',
  refusal: 'The agent refused',
  error: 'Failed',
  interrupted: 'Interrupted',
  auth_required: 'Sign-in required',
};

export function stopLabel(reason: string): string {
  return STOP_LABELS[reason] ?? `Turn ended (${reason})`;
}

export function ContentView({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <Markdown text={String(block.text ?? '')} />;
    case 'image':
      return <img className="content-image" alt="Attached image" src={`data:${String(block.mimeType)};base64,${String(block.data)}`} />;
    case 'resource_link':
      return (
        <span className="chip" title={String(block.uri)}>
          📎 {String(block.name ?? block.uri)}
        </span>
      );
    case 'resource': {
      const resource = (block.resource ?? {}) as { uri?: string; text?: string };
      return (
        <details className="resource">
          <summary>{resource.uri ?? 'Embedded resource'}</summary>
          <pre>{resource.text ?? ''}</pre>
        </details>
      );
    }
    default:
      return <UnknownBox label={`content ${block.type}`} raw={block} />;
  }
}
