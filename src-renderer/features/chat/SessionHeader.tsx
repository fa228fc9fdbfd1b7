import { bridge } from '../../bridge';
import { run, useAppStore } from '../../store/appStore';
import { statusLabel } from '../../ui/StatusDot';

export function SessionHeader({ sessionId }: { sessionId: string }) {
  const title = useAppStore((s) => s.sessions[sessionId]?.title);
  const agentName = useAppStore((s) => s.sessions[sessionId]?.agentName);
  const agentId = useAppStore((s) => s.sessions[sessionId]?.agentId);
  const cwd = useAppStore((s) => s.sessions[sessionId]?.cwd);
  const status = useAppStore((s) => s.sessions[sessionId]?.status);
  return (
    <header className="session-header">
      <div>
        <h1 className="session-heading">{title ?? agentName ?? 'Session'}</h1>
        <span className="muted small">
          {agentName} · {cwd} · <span aria-label="Session status">{status ? statusLabel(status) : ''}</span>
        </span>
      </div>
      {status === 'exited' && agentId && (
        <button type="button" onClick={() => void run(bridge.request('agent.restart', { agentId }))}>
          Restart agent
        </button>
      )}
    </header>
  );
}
