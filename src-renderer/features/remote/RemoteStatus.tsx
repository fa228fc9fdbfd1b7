import type { AgentSummary } from '../../../src-shared/ipc/appState';
import type { RemoteAgentView, RemoteState } from '../../../src-shared/remote';
import { useStore } from '../../store';
import { restartAgent } from '../chat/actions';

const STATE_LABEL: Record<RemoteState, string> = {
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'reconnecting…',
  offline: 'offline',
};

/** "remote · connected · dev.example": the line under a remote agent's name in the sidebar. */
export function remoteStateText(remote: RemoteAgentView): string {
  return `remote · ${STATE_LABEL[remote.state]} · ${remote.machine}`;
}

/** Where a remote agent's files and commands are, and what of this computer it is offered: said plainly. */
export function whereText(remote: RemoteAgentView): string {
  const offered = [remote.clientFs && 'files', remote.clientTerminal && 'terminals'].filter(Boolean) as string[];
  const local = offered.length
    ? `This computer's ${offered.join(' and ')} are offered to it too.`
    : "This computer's files and terminals are not offered to it.";
  return `Runs on ${remote.machine}: the files it reads and edits and the commands it runs are on ${remote.machine}. ${local}`;
}

/**
 * A remote agent's connection and where it works, for the session header: its state (with why
 * and "Reconnect" when it is not connected), the machine, and an unencrypted connection's warning.
 */
export function RemoteSessionLine({ agentId }: { agentId: string }) {
  const agent: AgentSummary | undefined = useStore((s) => s.app?.agents.find((a) => a.id === agentId));
  const remote = agent?.remote;
  if (!remote) return null;
  return (
    <div className={`remote-line remote-${remote.state}`} role="group" aria-label="Remote agent">
      <p className="small">
        <span className="remote-state" aria-label="Connection state">
          Remote agent · {STATE_LABEL[remote.state]}
        </span>
        <span aria-hidden="true"> · </span>
        <span>{whereText(remote)}</span>
      </p>
      {remote.state !== 'connected' && remote.lastError && (
        <p className="small error" role="status">
          {remote.lastError}
          {remote.state === 'reconnecting' && remote.retryAt ? ` Next attempt ${retryIn(remote.retryAt)}.` : ''}
        </p>
      )}
      {remote.insecureWarning && (
        <p className="small warning" role="note">
          Unencrypted connection: {remote.insecureWarning}
        </p>
      )}
      {(remote.state === 'offline' || remote.state === 'reconnecting') && (
        <button type="button" onClick={() => restartAgent(agentId)}>
          Reconnect now
        </button>
      )}
    </div>
  );
}

function retryIn(at: number): string {
  const seconds = Math.max(0, Math.round((at - Date.now()) / 1000));
  return seconds <= 1 ? 'in a moment' : `in ${seconds} s`;
}
