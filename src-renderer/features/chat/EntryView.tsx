import { memo } from 'react';
import type { ContentBlock } from '../../../src-shared/session/events';
import { blockTypeName } from '../../../src-shared/session/content';
import { InspectorButton } from '../inspector';
import { describeTurnUsage, type TurnUsage } from '../../../src-shared/acp/turnUsage';
import type { FileWrittenEntry, PlanEntry, StopEntry, ThoughtEntry } from '../../../src-shared/session/state';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { UnknownBox } from '../../ui/UnknownBox';
import { RestoreButton, RestoreMarker, TurnChanges } from '../checkpoints';
import { DiffBlock } from '../diff/DiffBlock';
import { planProgress, PlanStatusIcon } from '../plan/PlanView';
import { ToolCallCard } from '../tool-calls/ToolCallCard';
import { Markdown } from '../markdown/Markdown';
import type { StopReasonLabels } from '../../../src-shared/acp/known';

/** One transcript row; selects only its own entry so a streamed chunk re-renders one row. */
export const EntryView = memo(function EntryView({ sessionId, index }: { sessionId: string; index: number }) {
  const entry = useStore((s) => s.sessions[sessionId]?.entries[index]);
  const streaming = useStore((s) => {
    const session = s.sessions[sessionId];
    return Boolean(session && session.currentTurnId && index === session.entries.length - 1);
  });
  if (!entry) return null;
  switch (entry.kind) {
    case 'user':
      return (
        <article className="entry user" aria-label="You">
          {entry.content.map((block, i) => (
            <ContentView key={i} block={block} />
          ))}
          <RestoreButton sessionId={sessionId} turnId={entry.turnId} />
        </article>
      );
    case 'agent':
      return (
        <article className={`entry agent${streaming ? ' streaming' : ''}`} aria-label="Agent" aria-busy={streaming || undefined}>
          {entry.text && <Markdown text={entry.text} streaming={streaming} />}
          {entry.blocks.map((block, i) => (
            <ContentView key={i} block={block} />
          ))}
          {streaming && <span className="caret" aria-hidden="true" />}
        </article>
      );
    case 'thought':
      return <Thought entry={entry} streaming={streaming} />;
    case 'tool':
      return <ToolCallCard sessionId={sessionId} entry={entry} />;
    case 'plan':
      return <PlanSummary sessionId={sessionId} entry={entry} />;
    case 'stop':
      return (
        <>
          <StopLine entry={entry} />
          <TurnChanges sessionId={sessionId} index={index} />
        </>
      );
    case 'restore':
      return <RestoreMarker sessionId={sessionId} entry={entry} />;
    case 'notice':
      return (
        <div className={`entry notice notice-${entry.level}`} role={entry.level === 'error' ? 'alert' : 'status'}>
          <p>{entry.message}</p>
          {entry.detail && entry.detail.length > 0 && <pre className="stderr">{entry.detail.join('\n')}</pre>}
          {entry.logFile && (
            <p className="notice-log">
              The agent&apos;s full log: <code>{entry.logFile}</code>
            </p>
          )}
          {entry.level === 'error' && <NoticeInspectorLink sessionId={sessionId} ts={entry.ts} />}
        </div>
      );
    case 'file':
      return <FileWritten sessionId={sessionId} entry={entry} />;
    default:
      return <UnknownBox label={(entry as { label?: string }).label ?? 'unknown entry'} raw={entry} />;
  }
});

/** A turn's end: a rule for a normal stop, a line saying why for anything else. */
function StopLine({ entry }: { entry: StopEntry }) {
  // Sign-in needed: a normal step, shown in the neutral attention colour, not as an error.
  if (entry.stopReason === 'auth_required')
    return (
      <div className="entry stop warning sign-in" role="status">
        <Icon name="shield" />
        <span>{stopLabel(entry.stopReason)}. What you sent goes to the agent again after you sign in.</span>
      </div>
    );
  return entry.error || !['end_turn', 'cancelled'].includes(entry.stopReason) ? (
    <div className={`entry stop${entry.error ? ' error' : ' warning'}`} role={entry.error ? 'alert' : 'status'}>
      <Icon name={entry.error ? 'x' : 'info'} />
      <span>
        {stopLabel(entry.stopReason)}
        {entry.error ? `: ${entry.error}` : ''}
      </span>
      <TurnUsageNote usage={entry.usage} />
    </div>
  ) : (
    <div className="entry stop" role="status">
      <span className="stop-rule" aria-hidden="true" />
      <span>{stopLabel(entry.stopReason)}</span>
      <TurnUsageNote usage={entry.usage} />
      <span className="stop-rule" aria-hidden="true" />
    </div>
  );
}

function Thought({ entry, streaming }: { entry: ThoughtEntry; streaming: boolean }) {
  const open = useStore((s) => s.expanded[entry.id] ?? false);
  const regionId = `thought-${entry.id}`;
  return (
    <section className={`entry thought${open ? ' open' : ''}`}>
      <button type="button" className="disclosure" aria-expanded={open} aria-controls={regionId} onClick={() => useStore.getState().toggle(entry.id)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} />
        <Icon name="think" />
        {streaming ? 'Thinking…' : 'Thought'}
        {!open && <span className="thought-preview">{entry.text.slice(0, 120)}</span>}
      </button>
      {open && (
        <div id={regionId} className="thought-body" role="region" aria-label="Thought">
          <Markdown text={entry.text} streaming={streaming} />
        </div>
      )}
    </section>
  );
}

function PlanSummary({ sessionId, entry }: { sessionId: string; entry: PlanEntry }) {
  const { done, total, current } = planProgress(entry.entries);
  return (
    <section className="entry plan-summary" aria-label="Plan">
      <div className="plan-summary-head">
        <Icon name="plan" />
        <strong>Plan</strong>
        <span className="muted">
          {done} of {total} done
        </span>
        <progress max={total || 1} value={done} aria-label="Plan progress" />
        <button
          type="button"
          className="link-button"
          onClick={() => useStore.getState().patchSessionUi(sessionId, { panelTab: 'plan', panelOpen: true, planEntryId: entry.id })}
        >
          Show plan
        </button>
      </div>
      {current && (
        <p className="plan-current">
          <PlanStatusIcon status={current.status} /> {current.content}
        </p>
      )}
    </section>
  );
}

function FileWritten({ sessionId, entry }: { sessionId: string; entry: FileWrittenEntry }) {
  const key = `${entry.id}:diff`;
  const open = useStore((s) => s.expanded[key] ?? false);
  return (
    <section className="entry file-written" aria-label={`Wrote ${entry.path}`}>
      <div className="file-written-head">
        <Icon name="edit" />
        <span>
          {entry.oldText === null ? 'Created' : 'Wrote'} <code>{entry.path}</code>
        </span>
        <button type="button" className="link-button" aria-expanded={open} onClick={() => useStore.getState().toggle(key)}>
          {open ? 'Hide diff' : 'Show diff'}
        </button>
        <button type="button" className="link-button" onClick={() => useStore.getState().openFile(sessionId, entry.path, null)}>
          Open
        </button>
      </div>
      {open && <DiffBlock modelKey={`${entry.id}:${entry.path}`} path={entry.path} oldText={entry.oldText} newText={entry.newText} />}
    </section>
  );
}

const STOP_LABELS: Record<string, string> = {
  end_turn: 'Turn ended',
  cancelled: 'Stopped',
  max_tokens: 'Stopped: the response hit the token limit',
  max_turn_requests: 'Stopped: too many requests in one turn',
  refusal: 'The agent refused',
  error: 'Failed',
  interrupted: 'Interrupted',
  auth_required: 'Sign in to continue',
} satisfies StopReasonLabels;

export function stopLabel(reason: string): string {
  return STOP_LABELS[reason] ?? `Turn ended (${reason})`;
}

export function ContentView({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <Markdown text={block.text} />;
    case 'image':
      return <img className="content-image" alt={block.uri ?? 'Attached image'} src={`data:${block.mimeType};base64,${block.data}`} />;
    case 'resource_link':
      return (
        <span className="chip" title={block.uri}>
          <Icon name="file" /> {block.name || block.uri}
        </span>
      );
    case 'resource':
      return (
        <details className="resource">
          <summary>{block.resource.uri || 'Embedded resource'}</summary>
          <pre>{block.resource.text ?? ''}</pre>
        </details>
      );
    default:
      // Audio is not played here yet; it and future or extension types are shown raw.
      return <UnknownBox label={`content ${blockTypeName(block)}`} raw={block.type === 'unknown' ? block.raw : block} />;
  }
}

/** "Show the messages that led to this": the protocol inspector on this session, up to the notice. */
function NoticeInspectorLink({ sessionId, ts }: { sessionId: string; ts?: number }) {
  const agentId = useStore((s) => s.sessions[sessionId]?.agentId);
  const acpSessionId = useStore((s) => s.sessions[sessionId]?.acpSessionId ?? undefined);
  if (!agentId) return null;
  return <InspectorButton className="link-button" label="Show the messages that led to this" target={{ agentId, acpSessionId, until: ts }} />;
}

/** The tokens the agent reported for the turn when it ended (rfds-end-turn-token-usage). */
function TurnUsageNote({ usage }: { usage?: TurnUsage | null }) {
  if (!usage) return null;
  return <span className="muted small turn-usage">· {describeTurnUsage(usage)}</span>;
}
