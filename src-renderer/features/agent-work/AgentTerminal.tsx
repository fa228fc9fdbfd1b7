import './agentWork.css';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { TerminalView } from '../terminal/TerminalView';
import { cancelAgentTerminal } from './actions';

/**
 * A terminal the agent runs and reports (ACP v2): shown in xterm like the app's own, with a
 * Cancel button while the agent accepts a cancel. When the agent replaces the whole output
 * the view starts over (`outputEpoch`).
 */
export function AgentTerminal({ sessionId, terminalId, rows = 10 }: { sessionId: string; terminalId: string; rows?: number }) {
  const epoch = useStore((s) => s.sessions[sessionId]?.terminals[terminalId]?.outputEpoch ?? 0);
  const cancellable = useStore((s) => {
    const terminal = s.sessions[sessionId]?.terminals[terminalId];
    return Boolean(terminal?.cancellable && !terminal.exited);
  });
  return (
    <div className="agent-terminal">
      <TerminalView key={epoch} sessionId={sessionId} terminalId={terminalId} rows={rows} />
      {cancellable && (
        <button type="button" className="small agent-terminal-cancel" onClick={() => void cancelAgentTerminal(sessionId, terminalId)}>
          <Icon name="stop" /> Cancel
        </button>
      )}
    </div>
  );
}
