import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { statusLabel } from '../../ui/StatusDot';
import { UsageMeter } from '../info/UsageMeter';
import { ExportMenu } from '../history';
import { WorktreeBadge } from '../worktrees';
import { restartAgent } from './actions';
import { RemoteSessionLine } from '../remote/RemoteStatus';
import { openInspector } from '../inspector';

export function SessionHeader({ sessionId, panelTabs, panelShown }: { sessionId: string; panelTabs: number; panelShown: boolean }) {
  const title = useStore((s) => s.sessions[sessionId]?.title);
  const agentName = useStore((s) => s.sessions[sessionId]?.agentName);
  const agentId = useStore((s) => s.sessions[sessionId]?.agentId);
  const cwd = useStore((s) => s.sessions[sessionId]?.cwd);
  const status = useStore((s) => s.sessions[sessionId]?.status);
  const acpSessionId = useStore((s) => s.sessions[sessionId]?.acpSessionId);
  // A session whose agent failed to start (error before any ACP session) needs the same way
  // out as a crashed one: without it, fixing settings.json left no way to try again.
  const neverConnected = useStore((s) => !s.sessions[sessionId]?.acpSessionId);
  const canRestart = status === 'exited' || (status === 'error' && neverConnected);
  return (
    <header className="session-header">
      <div className="session-heading-block">
        <h1 className="session-heading">{title || agentName || 'Session'}</h1>
        <p className="session-sub muted small">
          <span>{agentName}</span>
          <span aria-hidden="true">·</span>
          <span className="session-cwd" title={cwd}>
            {cwd}
          </span>
          <WorktreeBadge sessionId={sessionId} />
          <span aria-hidden="true">·</span>
          <span className={`session-status status-text-${status}`} aria-label="Session status">
            {status ? statusLabel(status) : ''}
          </span>
        </p>
        {agentId && <RemoteSessionLine agentId={agentId} />}
      </div>
      <div className="session-actions">
        <UsageMeter sessionId={sessionId} />
        {canRestart && agentId && (
          <button type="button" onClick={() => restartAgent(agentId)}>
            <Icon name="retry" /> {status === 'exited' ? 'Restart agent' : 'Retry starting the agent'}
          </button>
        )}
        <ExportMenu sessionId={sessionId} />
        {agentId && (
          <button
            type="button"
            className="icon-button"
            aria-label="Protocol inspector"
            title="See the ACP messages of this session's agent"
            onClick={() => openInspector({ agentId, acpSessionId: acpSessionId ?? undefined })}
          >
            <Icon name="search" />
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label="Session info"
          title="Agent and session info"
          onClick={() => useStore.setState({ infoOpen: true })}
        >
          <Icon name="info" />
        </button>
        {panelTabs > 0 && (
          <button
            type="button"
            className="icon-button"
            aria-label={panelShown ? 'Hide side panel' : 'Show side panel'}
            aria-pressed={panelShown}
            title={panelShown ? 'Hide side panel' : 'Show side panel'}
            onClick={() => useStore.getState().patchSessionUi(sessionId, { panelOpen: !panelShown })}
          >
            <Icon name="panel" />
          </button>
        )}
      </div>
    </header>
  );
}
