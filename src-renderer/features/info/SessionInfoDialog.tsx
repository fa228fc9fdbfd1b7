import { useEffect, useRef, useState } from 'react';
import { usePicked, useStore } from '../../store';
import { MainLogSection } from './MainLogSection';
import { describeTurnUsage, sessionTurnUsage } from '../../../src-shared/acp/turnUsage';
import { GatedControlsSection } from './GatedControlsSection';
import { formatCost, formatTokens } from './UsageMeter';
import { readAgentStderr, signOutOfAgent } from './actions';
import { whereText } from '../remote/RemoteStatus';

/** Agent and session info: name, version, capabilities, initialize `_meta`, stderr log, the app log, usage, ids. */
export function SessionInfoDialog({ sessionId }: { sessionId: string }) {
  const open = useStore((s) => s.infoOpen);
  if (!open) return null;
  return <InfoDialog sessionId={sessionId} onClose={() => useStore.setState({ infoOpen: false })} />;
}

function InfoDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const session = useStore((s) => s.sessions[sessionId]);
  const agent = useStore((s) => s.app?.agents.find((a) => a.id === s.sessions[sessionId]?.agentId));
  const allLoaded = usePicked(sessionId, 'stop');
  const [stderr, setStderr] = useState<string[] | null>(null);

  const loadStderr = async () => {
    if (!session?.agentId) return;
    const result = await readAgentStderr(session.agentId);
    setStderr(result?.lines ?? []);
  };
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    void loadStderr();
  }, []);

  if (!session) return null;
  const info = agent?.agentInfo ?? {};
  const caps = agent?.capabilities;
  const capabilityList: [string, boolean][] = [
    ['Load earlier sessions', caps?.loadSession ?? false],
    ['Images in prompts', caps?.promptCapabilities.image ?? false],
    ['Audio in prompts', caps?.promptCapabilities.audio ?? false],
    ['Embedded context', caps?.promptCapabilities.embeddedContext ?? false],
    ['MCP over HTTP', caps?.mcpCapabilities.http ?? false],
    ['MCP over SSE', caps?.mcpCapabilities.sse ?? false],
    ...(caps?.sessionCapabilities ?? []).map((key): [string, boolean] => [`Session ${key}`, true]),
  ];
  const usage = session.usage;
  // Every turn's usage: every turn's end is loaded while the dialog is open (paging, issue 23).
  const turnTotals = allLoaded ? sessionTurnUsage(session.entries) : null;
  return (
    <dialog ref={dialog} className="dialog info-dialog" aria-labelledby="info-title" onClose={onClose}>
      <div className="dialog-head">
        <h2 id="info-title">Agent and session</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </div>
      <div className="info-grid">
        <section aria-labelledby="info-agent">
          <h3 id="info-agent">Agent</h3>
          <dl>
            <dt>Name</dt>
            <dd>{info.title ?? agent?.name ?? session.agentName}</dd>
            <dt>Id</dt>
            <dd>
              <code>{info.name ?? session.agentId}</code>
            </dd>
            <dt>Version</dt>
            <dd>{info.version ?? agent?.version ?? 'unknown'}</dd>
            <dt>Protocol</dt>
            <dd>{agent?.protocolVersion !== undefined ? `ACP v${agent.protocolVersion}` : 'unknown'}</dd>
            <dt>Process</dt>
            <dd>{agent?.process ?? 'unknown'}</dd>
            {agent?.remote && (
              <>
                <dt>Remote</dt>
                <dd>
                  <code>{agent.remote.url}</code> ({agent.remote.transport === 'websocket' ? 'WebSocket' : 'Streamable HTTP'}, {agent.remote.state}).{' '}
                  {whereText(agent.remote)}
                </dd>
              </>
            )}
          </dl>
          {agent && (agent.signIn?.canLogout || (agent.signIn?.storedEnv.length ?? 0) > 0) && <SignOut agentId={agent.id} agentName={agent.name} />}
          <h4>Capabilities</h4>
          <ul className="capabilities" aria-label="Capabilities">
            {capabilityList.map(([label, on]) => (
              <li key={label} className={on ? 'on' : 'off'}>
                <span aria-hidden="true">{on ? '✓' : '–'}</span> {label}
                <span className="visually-hidden">{on ? ': yes' : ': no'}</span>
              </li>
            ))}
          </ul>
          {agent?.meta && Object.keys(agent.meta).length > 0 && (
            <>
              <h4>Extension data (_meta)</h4>
              <pre className="stderr" aria-label="Agent _meta" tabIndex={0}>
                {JSON.stringify(agent.meta, null, 2)}
              </pre>
            </>
          )}
        </section>
        <section aria-labelledby="info-session">
          <h3 id="info-session">Session</h3>
          <dl>
            <dt>Title</dt>
            <dd>{session.title ?? '(none)'}</dd>
            <dt>Workspace</dt>
            <dd>
              <code>{session.cwd}</code>
            </dd>
            <dt>ACP session</dt>
            <dd>
              <code>{session.acpSessionId ?? 'not connected'}</code>
            </dd>
            <dt>Protocol</dt>
            <dd>{session.protocolVersion !== undefined && session.protocolVersion !== null ? `ACP v${session.protocolVersion}` : 'not recorded'}</dd>
            <dt>Usage</dt>
            <dd>
              {usage?.used !== undefined ? `${formatTokens(usage.used)}${usage.size ? ` of ${formatTokens(usage.size)}` : ''} tokens` : 'not reported'}
              {usage?.cost ? ` · ${formatCost(usage.cost)}` : ''}
            </dd>
            <dt>Tokens in turns</dt>
            <dd>
              {turnTotals
                ? `${describeTurnUsage(turnTotals)} over ${turnTotals.turns} turn${turnTotals.turns === 1 ? '' : 's'}`
                : allLoaded
                  ? 'not reported'
                  : 'counting…'}
            </dd>
            <dt>Entries</dt>
            <dd>{session.entries.length}</dd>
          </dl>
        </section>
      </div>
      <GatedControlsSection sessionId={sessionId} />
      <section aria-labelledby="info-stderr">
        <div className="dialog-head">
          <h3 id="info-stderr">Agent log (stderr)</h3>
          <button type="button" onClick={() => void loadStderr()}>
            Refresh
          </button>
        </div>
        <pre className="stderr" aria-label="Agent log" tabIndex={0}>
          {stderr === null ? 'Loading…' : stderr.length ? stderr.join('\n') : '(empty)'}
        </pre>
      </section>
      <MainLogSection />
    </dialog>
  );
}

/** "Sign out" (the agent's `logout`, and forgetting stored sign-in values), after a confirmation. */
function SignOut({ agentId, agentName }: { agentId: string; agentName: string }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const signOut = async () => {
    setBusy(true);
    const result = await signOutOfAgent(agentId);
    setBusy(false);
    setConfirming(false);
    if (result) setDone(true);
  };
  if (confirming) {
    return (
      <div className="sign-out-confirm" role="group" aria-label={`Sign out of ${agentName}?`}>
        <p>Sign out of {agentName}? It may ask you to sign in again; stored sign-in values are forgotten.</p>
        <button type="button" className="danger" disabled={busy} onClick={() => void signOut()}>
          Sign out
        </button>
        <button type="button" disabled={busy} onClick={() => setConfirming(false)} autoFocus>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <p className="sign-out">
      <button
        type="button"
        onClick={() => {
          setDone(false);
          setConfirming(true);
        }}
      >
        Sign out…
      </button>
      {done && (
        <span role="status" className="muted small">
          {' '}
          Signed out.
        </span>
      )}
    </p>
  );
}
