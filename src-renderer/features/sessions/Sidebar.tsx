import { useMemo } from 'react';
import type { AgentSummary, SessionSummary } from '../../../src-shared/ipc/appState';
import { bridge } from '../../bridge';
import { run, useAppStore } from '../../store/appStore';
import { EMPTY } from '../../store/empty';
import { AgentIcon } from '../../ui/AgentIcon';
import { openCatalog } from '../registry';
import { StatusDot } from '../../ui/StatusDot';

export function Sidebar({ onNewSession }: { onNewSession: (agentId: string) => void }) {
  const agents = useAppStore((s) => s.app?.agents ?? EMPTY);
  const sessions = useAppStore((s) => s.app?.sessions ?? EMPTY);
  const active = useAppStore((s) => s.app?.tabs.active ?? null);
  const groups = useMemo(() => groupSessions(sessions), [sessions]);
  return (
    <aside className="sidebar" aria-label="Agents and sessions">
      <section aria-labelledby="agents-heading">
        <h2 id="agents-heading">Agents</h2>
        {agents.length === 0 && <p className="muted">No agents yet. Add one to settings.json or install one from the registry.</p>}
        <ul className="agent-list">
          {agents.map((agent) => (
            <AgentRow key={agent.id} agent={agent} onNewSession={onNewSession} />
          ))}
        </ul>
        <button type="button" className="sidebar-catalog" onClick={() => openCatalog()}>
          Browse the agent catalog…
        </button>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        {groups.map((group) => (
          <div key={group.key} className="session-group">
            <h3 title={group.cwd}>
              {group.agentName} · {shortPath(group.cwd)}
            </h3>
            <ul>
              {group.sessions.map((session) => (
                <li key={session.sessionId}>
                  <button
                    type="button"
                    className={`session-link${session.sessionId === active ? ' active' : ''}`}
                    aria-current={session.sessionId === active ? 'page' : undefined}
                    onClick={() => void run(bridge.request('session.open', { sessionId: session.sessionId }))}
                  >
                    <StatusDot status={session.status} />
                    <span className="session-title">{session.title ?? 'New session'}</span>
                    {session.needsAttention > 0 && <span className="badge" aria-label={`${session.needsAttention} waiting for you`}>{session.needsAttention}</span>}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
    </aside>
  );
}

function AgentRow({ agent, onNewSession }: { agent: AgentSummary; onNewSession: (agentId: string) => void }) {
  return (
    <li className="agent-row">
      <AgentIcon name={agent.name} svg={agent.icon} />
      <div className="agent-meta">
        <span className="agent-name">{agent.name}</span>
        <span className="muted small">
          {agent.process === 'ready' ? 'running' : agent.process === 'starting' ? 'starting…' : agent.process === 'error' ? 'error' : agent.source}
          {agent.agentInfo && typeof agent.agentInfo.version === 'string' ? ` · v${agent.agentInfo.version}` : ''}
        </span>
        {agent.error && <span className="error small" title={agent.error}>{agent.error.split('\n')[0]}</span>}
      </div>
      <button type="button" disabled={!agent.runnable} aria-label={`New session with ${agent.name}`} onClick={() => onNewSession(agent.id)}>
        +
      </button>
    </li>
  );
}

function groupSessions(sessions: SessionSummary[]) {
  const groups = new Map<string, { key: string; agentName: string; cwd: string; sessions: SessionSummary[] }>();
  for (const session of [...sessions].sort((a, b) => b.lastActivity - a.lastActivity)) {
    const key = `${session.agentId}\u0000${session.cwd}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, agentName: session.agentName, cwd: session.cwd, sessions: [] }));
    group.sessions.push(session);
  }
  return [...groups.values()];
}

export function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : path;
}
