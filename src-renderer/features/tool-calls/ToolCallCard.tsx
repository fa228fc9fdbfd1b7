import type { ToolCallEntry } from '../../../src-shared/session/state';
import { useAppStore } from '../../store/appStore';
import { PermissionCard } from '../permission/PermissionCard';
import { UnknownBox } from '../../ui/UnknownBox';

const KIND_ICONS: Record<string, string> = {
  read: '📖',
  edit: '✏️',
  delete: '🗑️',
  move: '📦',
  search: '🔍',
  execute: '▶️',
  think: '💭',
  fetch: '🌐',
  switch_mode: '🔀',
  other: '🔧',
};

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
  awaiting_permission: 'Waiting for your permission',
  canceled: 'Canceled',
};

/** A tool call: kind, title, status, what it touches and its content; the permission card on it. */
export function ToolCallCard({ sessionId, entry }: { sessionId: string; entry: ToolCallEntry }) {
  const permission = useAppStore((s) => (entry.permissionRequestId ? s.sessions[sessionId]?.permissions.find((p) => p.requestId === entry.permissionRequestId) : undefined));
  const status = STATUS_LABELS[entry.status] ?? entry.status;
  return (
    <article className={`entry tool tool-${entry.status}`} aria-label={`Tool call: ${entry.title || entry.toolCallId}`}>
      <header className="tool-header">
        <span className="tool-kind" title={`Kind: ${entry.toolKind}`} aria-hidden="true">
          {KIND_ICONS[entry.toolKind] ?? '❔'}
        </span>
        <span className="tool-title">{entry.title || entry.toolCallId}</span>
        {!KIND_ICONS[entry.toolKind] && <span className="badge-neutral">{entry.toolKind}</span>}
        <span className={`tool-status status-${entry.status}`}>{status}</span>
      </header>
      {entry.locations.length > 0 && (
        <ul className="tool-locations">
          {entry.locations.map((location, i) => (
            <li key={i}>
              <code>
                {String(location.path)}
                {location.line ? `:${String(location.line)}` : ''}
              </code>
            </li>
          ))}
        </ul>
      )}
      {entry.content.map((content, i) => (
        <ToolContent key={i} sessionId={sessionId} content={content} meta={entry.meta} />
      ))}
      {entry.rawInput !== undefined && (
        <details className="raw" open={Boolean(permission)}>
          <summary>Input</summary>
          <pre>{JSON.stringify(entry.rawInput, null, 2)}</pre>
        </details>
      )}
      {entry.rawOutput !== undefined && (
        <details className="raw">
          <summary>Output</summary>
          <pre>{JSON.stringify(entry.rawOutput, null, 2)}</pre>
        </details>
      )}
      {permission && <PermissionCard sessionId={sessionId} permission={permission} />}
    </article>
  );
}

function ToolContent({ sessionId, content, meta }: { sessionId: string; content: Record<string, unknown>; meta: unknown }) {
  const terminalId = content.type === 'terminal' ? String(content.terminalId) : null;
  const terminal = useAppStore((s) => (terminalId ? s.sessions[sessionId]?.terminals[terminalId] : undefined));
  switch (content.type) {
    case 'content': {
      const block = content.content as { type?: string; text?: string } | undefined;
      return block?.type === 'text' ? <pre className="tool-text">{block.text}</pre> : <UnknownBox label={`content ${block?.type}`} raw={block} />;
    }
    case 'diff':
      return (
        <div className="diff" aria-label={`Diff of ${String(content.path)}`}>
          <div className="diff-path">
            <code>{String(content.path)}</code> {content.oldText == null ? '(new file)' : ''}
          </div>
          <pre className="diff-old">{content.oldText == null ? '' : String(content.oldText)}</pre>
          <pre className="diff-new">{String(content.newText ?? '')}</pre>
        </div>
      );
    case 'terminal':
      if (!terminal) {
        const output = (meta as Record<string, unknown> | undefined)?.terminal_output;
        return (
          <div className="terminal-missing">
            <span className="muted small">Terminal {terminalId} (not run by this app)</span>
            {typeof output === 'string' && <pre>{output}</pre>}
          </div>
        );
      }
      return (
        <div className="terminal-output" aria-label={`Terminal ${terminal.command}`}>
          <pre>{terminal.output}</pre>
          {terminal.exited && <span className="muted small">Exited with code {String(terminal.exitCode)}</span>}
        </div>
      );
    default:
      return <UnknownBox label={`tool content ${String(content.type)}`} raw={content} />;
  }
}
