import { useEffect, useMemo } from 'react';
import type { AgentSummary, SessionSummary } from '../../../src-shared/ipc/appState';
import { EMPTY, useStore } from '../../store';
import { showSession } from './actions';
import { AgentIcon } from '../../ui/AgentIcon';
import { loadCatalog, openCatalog } from '../registry/actions';
import { Icon } from '../../ui/Icon';
import { openInspector } from '../inspector/inspectorState';
import { StatusDot, statusLabel } from '../../ui/StatusDot';
import { remoteStateText } from '../remote/RemoteStatus';

/** Agents (with a quick "new session" each) and the sessions, grouped by agent, then workspace. */
export function Sidebar() {
  const agents = useStore((s) => s.app?.agents ?? EMPTY);
  const sessions = useStore((s) => s.app?.sessions ?? EMPTY);
  const active = useStore((s) => s.app?.tabs.active ?? null);
  const view = useStore((s) => s.view);
  const restoring = useStore((s) => (s.app?.restoring ?? 0) > 0);
  const groups = useMemo(() => groupSessions(sessions), [sessions]);
  const ui = useStore.getState;
  // With registry agents installed, the catalog is read once at start, so their updates show here.
  const hasRegistryAgents = agents.some((agent) => agent.source === 'registry');
  useEffect(() => {
    if (hasRegistryAgents && !useStore.getState().catalog) void loadCatalog();
  }, [hasRegistryAgents]);
  return (
    <nav className="sidebar" aria-label="Agents and sessions">
      <div className="sidebar-scroll">
        <section aria-labelledby="agents-heading">
          <h2 id="agents-heading">Agents</h2>
          {agents.length === 0 && <p className="muted small sidebar-hint">No agents yet. Add one to settings.json or install one from the registry.</p>}
          <ul className="agent-list">
            {agents.map((agent) => (
              <AgentRow key={agent.id} agent={agent} onNewSession={(id) => ui().openNewSession(id)} />
            ))}
          </ul>
          <button type="button" className="sidebar-catalog" onClick={() => openCatalog()}>
            Browse the agent catalog…
          </button>
        </section>
        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">Sessions</h2>
          {groups.length === 0 && <p className="muted small sidebar-hint">{restoring ? 'Restoring your open sessions…' : 'Sessions you start appear here.'}</p>}
          {groups.map((agentGroup) => (
            <div key={agentGroup.agentId} className="session-agent-group">
              <h3 className="group-agent">{agentGroup.agentName}</h3>
              {agentGroup.workspaces.map((group) => (
                <div key={group.cwd} className="session-group" role="group" aria-label={`${agentGroup.agentName} in ${group.cwd}`}>
                  <h4 className="group-cwd" title={group.cwd}>
                    {shortPath(group.cwd)}
                  </h4>
                  <ul>
                    {group.sessions.map((session) => {
                      const current = session.sessionId === active && view === 'session';
                      return (
                        <li key={session.sessionId}>
                          <button
                            type="button"
                            className={`session-link${current ? ' active' : ''}`}
                            aria-current={current ? 'page' : undefined}
                            aria-describedby={`session-state-${session.sessionId}`}
                            onClick={() => showSession(session.sessionId)}
                          >
                            <StatusDot status={session.status} decorative />
                            <span className="session-title">{session.title || 'New session'}</span>
                            {session.needsAttention > 0 && (
                              <span className="badge" aria-hidden="true">
                                {session.needsAttention}
                              </span>
                            )}
                            <span id={`session-state-${session.sessionId}`} className="visually-hidden" aria-hidden="true">
                              {statusLabel(session.status)}
                              {session.needsAttention ? `, ${session.needsAttention} waiting for you` : ''}
                            </span>
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </div>
          ))}
        </section>
      </div>
      <div className="sidebar-footer">
        <button
          type="button"
          className={`sidebar-settings${view === 'history' ? ' active' : ''}`}
          aria-current={view === 'history' ? 'page' : undefined}
          onClick={() => ui().setView(view === 'history' ? 'session' : 'history')}
        >
          <Icon name="clock" /> History
        </button>
        <button
          type="button"
          className={`sidebar-settings${view === 'settings' ? ' active' : ''}`}
          aria-current={view === 'settings' ? 'page' : undefined}
          onClick={() => ui().setView(view === 'settings' ? 'session' : 'settings')}
        >
          <Icon name="settings" /> Settings
        </button>
      </div>
    </nav>
  );
}

function AgentRow({ agent, onNewSession }: { agent: AgentSummary; onNewSession: (agentId: string) => void }) {
  const update = useStore((s) => {
    if (agent.source !== 'registry') return null;
    const entry = s.catalog?.agents.find((a) => a.id === agent.id);
    return entry?.updateAvailable ? entry.version : null;
  });
  const version = agent.agentInfo && typeof agent.agentInfo.version === 'string' ? agent.agentInfo.version : agent.version;
  const state = agent.remote
    ? remoteStateText(agent.remote)
    : agent.process === 'ready'
      ? 'running'
      : agent.process === 'starting'
        ? 'starting…'
        : agent.process === 'error'
          ? 'error'
          : agent.source === 'custom'
            ? 'custom'
            : 'installed';
  return (
    <li className="agent-row">
      <AgentIcon name={agent.name} svg={agent.icon} />
      <div className="agent-meta">
        <span className="agent-name">{agent.name}</span>
        <span className="muted small">
          {state}
          {version ? ` · v${version}` : ''}
        </span>
        {agent.error && (
          <span className="error small agent-error" title={agent.error}>
            {agent.error.split('\n')[0]}
          </span>
        )}
        {update && (
          <button
            type="button"
            className="badge-update"
            aria-label={`Update available for ${agent.name}: ${update}`}
            title={`Version ${update} is in the registry; open the catalog to update`}
            onClick={() => openCatalog(agent.id)}
          >
            Update available
          </button>
        )}
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label={`Protocol inspector for ${agent.name}`}
        title={`See ${agent.name}'s ACP messages`}
        onClick={() => openInspector({ agentId: agent.id })}
      >
        <Icon name="search" />
      </button>
      <button
        type="button"
        className="icon-button"
        disabled={!agent.runnable}
        aria-label={`New session with ${agent.name}`}
        title={`New session with ${agent.name}`}
        onClick={() => onNewSession(agent.id)}
      >
        <Icon name="plus" />
      </button>
    </li>
  );
}

interface WorkspaceGroup {
  cwd: string;
  sessions: SessionSummary[];
}
interface AgentGroup {
  agentId: string;
  agentName: string;
  workspaces: WorkspaceGroup[];
}

function groupSessions(sessions: readonly SessionSummary[]): AgentGroup[] {
  const agents = new Map<string, AgentGroup & { byCwd: Map<string, WorkspaceGroup> }>();
  for (const session of [...sessions].sort((a, b) => b.lastActivity - a.lastActivity)) {
    let agent = agents.get(session.agentId);
    if (!agent)
      agents.set(session.agentId, (agent = { agentId: session.agentId, agentName: session.agentName || session.agentId, workspaces: [], byCwd: new Map() }));
    let workspace = agent.byCwd.get(session.cwd);
    if (!workspace) {
      workspace = { cwd: session.cwd, sessions: [] };
      agent.byCwd.set(session.cwd, workspace);
      agent.workspaces.push(workspace);
    }
    workspace.sessions.push(session);
  }
  return [...agents.values()];
}

export function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : path;
}
