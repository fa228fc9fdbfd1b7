import type { ToolCallEntry } from '../../../src-shared/session/state';
import { blockTypeName, type ToolContent as ToolContentItem } from '../../../src-shared/session/content';
import { isKnownToolKind, isKnownToolStatus, metaTerminalOutput, toolCommand } from '../../../src-shared/acp/toolCall';
import type { KNOWN_TOOL_KINDS, APP_TOOL_STATUSES, KNOWN_TOOL_STATUSES, KNOWN_V2_TOOL_STATUSES } from '../../../src-shared/acp/known';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { AgentText, revealBidi } from '../../ui/AgentText';
import { UnknownBox } from '../../ui/UnknownBox';
import { Markdown } from '../markdown/Markdown';
import { DiffBlock } from '../diff/DiffBlock';
import { DiffChanges } from '../diff/DiffChanges';
import { AgentTerminal } from '../agent-work/AgentTerminal';
import { cancelToolCall } from '../agent-work/actions';
import { PermissionCard } from '../permission/PermissionCard';
import { TerminalView } from '../terminal/TerminalView';
import { shownToolStatus } from './toolStatus';

const KIND_LABELS: Record<(typeof KNOWN_TOOL_KINDS)[number], string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Switch mode',
  other: 'Tool',
};

type KnownStatus = (typeof KNOWN_TOOL_STATUSES)[number] | (typeof KNOWN_V2_TOOL_STATUSES)[number] | (typeof APP_TOOL_STATUSES)[number];
const STATUS: Record<KnownStatus, { label: string; icon: string }> = {
  pending: { label: 'Pending', icon: 'clock' },
  in_progress: { label: 'Running', icon: 'spinner' },
  completed: { label: 'Done', icon: 'check' },
  failed: { label: 'Failed', icon: 'x' },
  awaiting_permission: { label: 'Waiting for your permission', icon: 'shield' },
  canceled: { label: 'Canceled', icon: 'stop' },
  paused: { label: 'Paused', icon: 'clock' },
};

/** A tool call: kind, title, status, what it touches and its content; the permission card on it. */
export function ToolCallCard({ sessionId, entry }: { sessionId: string; entry: ToolCallEntry }) {
  const permission = useStore((s) =>
    entry.permissionRequestId ? s.sessions[sessionId]?.permissions.find((p) => p.requestId === entry.permissionRequestId) : undefined,
  );
  const inputKey = `${entry.toolCallId}:input`;
  const outputKey = `${entry.toolCallId}:output`;
  const inputOpen = useStore((s) => s.expanded[inputKey]);
  const outputOpen = useStore((s) => s.expanded[outputKey] ?? false);
  const knownKind = isKnownToolKind(entry.toolKind);
  const terminals = useStore((s) => s.sessions[sessionId]?.terminals);
  const shown = shownToolStatus(entry, terminals);
  const knownStatus = isKnownToolStatus(shown.status);
  const status = knownStatus ? STATUS[shown.status as keyof typeof STATUS] : { label: shown.status, icon: 'unknown' };
  const statusLabel = shown.exitNote ? `${status.label} (${shown.exitNote})` : status.label;
  const command = toolCommand(entry.rawInput);
  // What is being approved is always on screen: the command, the input, the diff.
  const showInput = inputOpen ?? Boolean(permission);
  const title = entry.title || command || entry.toolCallId;

  return (
    <article
      className={`entry tool tool-${knownStatus ? shown.status : 'unknown'}${permission ? ' asking' : ''}`}
      aria-label={`Tool call: ${revealBidi(title)}`}
    >
      <header className="tool-header">
        <span className={`tool-kind kind-${knownKind ? entry.toolKind : 'unknown'}`} title={`Kind: ${entry.toolKind}`}>
          <Icon
            name={knownKind ? entry.toolKind : 'unknown'}
            label={knownKind ? KIND_LABELS[entry.toolKind as keyof typeof KIND_LABELS] : `Unknown kind ${entry.toolKind}`}
          />
        </span>
        <span className="tool-title">
          <AgentText text={title} />
        </span>
        {!knownKind && (
          <span className="badge-neutral">
            <AgentText text={entry.toolKind} />
          </span>
        )}
        <span className={`tool-status status-${knownStatus ? shown.status : 'unknown'}`} role="status" aria-label={`Status: ${statusLabel}`}>
          {status.icon === 'spinner' ? <span className="spinner" aria-hidden="true" /> : <Icon name={status.icon} />}
          {statusLabel}
        </span>
        {entry.capabilities?.cancel && (
          <button type="button" className="small" onClick={() => void cancelToolCall(sessionId, entry.toolCallId)}>
            Cancel
          </button>
        )}
      </header>
      {entry.status === 'in_progress' && <div className="tool-progress" role="progressbar" aria-label={`${revealBidi(title)} in progress`} />}
      {command && entry.toolKind === 'execute' && (
        <pre className="tool-command" aria-label="Command">
          <span aria-hidden="true">$ </span>
          <AgentText text={command} />
        </pre>
      )}
      {entry.locations.length > 0 && (
        <ul className="tool-locations" aria-label="Locations">
          {entry.locations.map(({ path, line }, i) => {
            const label = `${path}${line ? `:${line}` : ''}`;
            return (
              <li key={i}>
                <button
                  type="button"
                  className="location"
                  title={`Open ${revealBidi(label)} (read-only)`}
                  onClick={() => useStore.getState().openFile(sessionId, path, line ?? null)}
                >
                  <Icon name="file" />
                  <span className="sr-prefix visually-hidden">Open </span>
                  <AgentText text={label} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {entry.content.map((content, i) => (
        <ToolContent key={i} sessionId={sessionId} toolCallId={entry.toolCallId} content={content} meta={entry.meta} asking={Boolean(permission)} />
      ))}
      {entry.rawInput !== undefined && (
        <div className="raw">
          <button type="button" className="disclosure small" aria-expanded={showInput} onClick={() => useStore.getState().toggle(inputKey, !showInput)}>
            <Icon name={showInput ? 'chevronDown' : 'chevronRight'} /> Raw input
          </button>
          {showInput && (
            <pre aria-label="Raw input">
              <AgentText text={JSON.stringify(entry.rawInput, null, 2)} />
            </pre>
          )}
        </div>
      )}
      {entry.rawOutput !== undefined && (
        <div className="raw">
          <button type="button" className="disclosure small" aria-expanded={outputOpen} onClick={() => useStore.getState().toggle(outputKey)}>
            <Icon name={outputOpen ? 'chevronDown' : 'chevronRight'} /> Raw output
          </button>
          {outputOpen && (
            <pre aria-label="Raw output">
              <AgentText text={JSON.stringify(entry.rawOutput, null, 2)} />
            </pre>
          )}
        </div>
      )}
      {(!knownKind || !knownStatus) && (
        <UnknownBox
          label={`tool call ${!knownKind ? `kind ${entry.toolKind}` : ''}${!knownKind && !knownStatus ? ', ' : ''}${!knownStatus ? `status ${entry.status}` : ''}`}
          raw={entry}
        />
      )}
      {entry.permissionOutcome && !permission && <PermissionAnswer outcome={entry.permissionOutcome} />}
      {permission && <PermissionCard sessionId={sessionId} permission={permission} />}
    </article>
  );
}

const OUTCOME_KINDS: Record<string, string> = {
  allow_once: 'allow once',
  allow_always: 'allow always',
  reject_once: 'reject once',
  reject_always: 'reject always',
};

/** How the permission on this call was answered: the option chosen, automatically from a remembered choice, or cancelled. */
function PermissionAnswer({ outcome }: { outcome: NonNullable<ToolCallEntry['permissionOutcome']> }) {
  let text: string;
  if (outcome.optionId === null) text = `Permission cancelled${outcome.reason && outcome.reason !== 'cancelled' ? ` (${outcome.reason})` : ''}`;
  else {
    const kind = outcome.kind ? ` (${OUTCOME_KINDS[outcome.kind] ?? outcome.kind})` : '';
    text = `Permission: ${outcome.name ?? outcome.optionId}${kind}`;
    if (outcome.reason === 'remembered') text += ', answered automatically (remembered)';
  }
  const rejected = outcome.optionId === null || Boolean(outcome.kind?.startsWith('reject'));
  return (
    <p className={`tool-permission-answer${rejected ? ' rejected' : ''}`} aria-label="Permission answer">
      <Icon name="shield" /> {text}
    </p>
  );
}

function ToolContent({
  sessionId,
  toolCallId,
  content,
  meta,
  asking,
}: {
  sessionId: string;
  toolCallId: string;
  content: ToolContentItem;
  meta: unknown;
  /** A permission is asked on this call: the real diff is what is being approved, shown at once. */
  asking: boolean;
}) {
  switch (content.type) {
    case 'content': {
      const block = content.content;
      // Tool output text is Markdown (Claude Code wraps command output in ```console fences), as in Zed.
      if (block.type === 'text')
        return (
          <div className="tool-text tool-markdown" aria-label="Tool output">
            <Markdown text={block.text} />
          </div>
        );
      return <UnknownBox label={`content ${blockTypeName(block)}`} raw={block.type === 'unknown' ? block.raw : block} />;
    }
    case 'diff':
      if ('changes' in content) return <DiffChanges toolCallId={toolCallId} content={content} staticFirst={!asking} />;
      return (
        <DiffBlock
          // A row shows plain changed lines; the editor mounts when the person opens it.
          staticFirst={!asking}
          modelKey={`${toolCallId}:${content.path}`}
          path={content.path}
          // An empty old text is how Qwen Code marks a new file (ACP: no old text).
          oldText={content.oldText === '' ? null : content.oldText}
          newText={content.newText}
          deleted={content.deleted === true}
        />
      );
    case 'terminal':
      return <ToolTerminal sessionId={sessionId} terminalId={content.terminalId} meta={meta} />;
    default:
      return <UnknownBox label={`tool content ${content.typeName}`} raw={content.raw} />;
  }
}

function ToolTerminal({ sessionId, terminalId, meta }: { sessionId: string; terminalId: string; meta: unknown }) {
  const known = useStore((s) => Boolean(s.sessions[sessionId]?.terminals[terminalId]));
  const agentOwned = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.owner === 'agent');
  if (agentOwned) return <AgentTerminal sessionId={sessionId} terminalId={terminalId} />;
  if (!known) {
    const output = metaTerminalOutput(meta);
    return (
      <div className="terminal-missing">
        <span className="muted small">Terminal {terminalId} (not run by this app)</span>
        {typeof output === 'string' && <pre className="tool-text">{output}</pre>}
      </div>
    );
  }
  return <TerminalView sessionId={sessionId} terminalId={terminalId} rows={10} deferred />;
}
